"""tether's HTTP client verifies servers as httpx's `verify=True` does, its CA bundle read by
the first TLS connection instead of as the client is made."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from tests.tools.web.h2_server import make_certificate
from tether.models.sse_client import SSEClient
from tether.models.tls import BundleOnFirstUse, verifying_context

_SETTINGS = (
    "protocol",
    "verify_mode",
    "check_hostname",
    "verify_flags",
    "options",
    "minimum_version",
    "maximum_version",
    "post_handshake_auth",
    "keylog_filename",
    "security_level",
    "hostname_checks_common_name",
)


def _loaded_cas(context: ssl.SSLContext) -> int:
    """How many CA certificates the context holds, without loading any (the base method)."""
    return ssl.SSLContext.cert_store_stats(context)["x509_ca"]


@pytest.fixture
def no_cert_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SSL_CERT_FILE", "SSL_CERT_DIR", "SSLKEYLOGFILE"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.usefixtures("no_cert_variables")
def test_the_context_is_httpxs_own_with_its_bundle_loaded_at_first_use() -> None:
    ours, httpxs = verifying_context(), httpx.create_ssl_context()
    assert isinstance(ours, BundleOnFirstUse)
    for name in _SETTINGS:
        assert getattr(ours, name) == getattr(httpxs, name), name
    assert _loaded_cas(ours) == 0
    assert ours.get_ca_certs() == httpxs.get_ca_certs()
    assert _loaded_cas(ours) == _loaded_cas(httpxs) > 100


def test_a_key_log_file_is_honoured_as_pythons_default_context_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SSLKEYLOGFILE", str(tmp_path / "keys.log"))
    assert BundleOnFirstUse().keylog_filename == str(tmp_path / "keys.log")


async def _https_server(cert: Path, key: Path) -> asyncio.Server:
    """A loopback HTTPS server answering every request with `{"served": true}`."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        body = b'{"served": true}'
        head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
        writer.write(head + b"Content-Length: %d\r\n\r\n" % len(body) + body)
        await writer.drain()
        writer.close()

    return await asyncio.start_server(answer, "127.0.0.1", 0, ssl=context)


@pytest.fixture
async def https(tmp_path: Path) -> AsyncIterator[tuple[str, Path]]:
    """The server's `https://localhost:PORT` and its self-signed certificate."""
    cert, key = make_certificate(tmp_path)
    server = await _https_server(cert, key)
    port = server.sockets[0].getsockname()[1]
    async with server:
        yield f"https://localhost:{port}", cert


@pytest.mark.usefixtures("no_cert_variables")
async def test_a_server_the_bundle_does_not_vouch_for_is_refused(https: tuple[str, Path]) -> None:
    url, _ = https
    client = SSEClient(url, {})
    try:
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            await client.get("/v1/models")
    finally:
        await client.close()


async def test_a_bundle_named_by_the_environment_is_read_at_first_use_too(
    https: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, cert = https
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    ours, httpxs = verifying_context(), httpx.create_ssl_context()
    assert isinstance(ours, BundleOnFirstUse)
    for name in _SETTINGS:
        assert getattr(ours, name) == getattr(httpxs, name), name
    assert _loaded_cas(ours) == 0
    assert ours.get_ca_certs() == httpxs.get_ca_certs() != []
    client = SSEClient(url, {})  # the server's own certificate is the bundle: it is trusted
    try:
        assert await client.get("/v1/models") == {"served": True}
    finally:
        await client.close()


def test_certificates_httpx_must_read_at_once_are_left_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.setenv("SSL_CERT_DIR", str(tmp_path))
    assert verifying_context() is True  # a folder OpenSSL reads only as it verifies
    # A wrong bundle fails as the client is made, with the error it always had.
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "missing.pem"))
    assert verifying_context() is True
    with pytest.raises(FileNotFoundError):
        SSEClient("https://localhost", {})
    (tmp_path / "empty.pem").write_text("no certificate here\n")
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "empty.pem"))
    assert verifying_context() is True
    with pytest.raises(ssl.SSLError):
        SSEClient("https://localhost", {})
