"""HTTP/2 where the server offers it: a TLS server that speaks only h2 is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tools.web.conftest import fetch
from tests.tools.web.h2_server import make_certificate, serve_h2
from tether.tools import ToolContext


async def test_a_server_that_speaks_only_http2_is_fetched(
    tmp_path: Path, ctx: ToolContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    cert, key = make_certificate(tmp_path)
    # The test's own CA, named the way a user names a corporate one.
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    server = await serve_h2(cert, key, b"spoken over h2\n")
    port = server.sockets[0].getsockname()[1]
    try:
        result, card = await fetch(ctx, f"https://localhost:{port}/page")
    finally:
        server.close()
        await server.wait_closed()
    assert not result.is_error, result.text()
    assert result.text() == (
        f"URL: https://localhost:{port}/page | Status: 200 OK | Content-Type: text/plain\n"
        "<web_content>\nspoken over h2\n</web_content>"
    )
    assert card is not None and card.status_code == 200
