"""The TLS settings of tether's own HTTP client: httpx's, with the CA bundle read when needed.

httpx's `verify=True` builds `ssl.create_default_context(cafile=...)` as the client is made,
with the file `SSL_CERT_FILE` names or certifi's bundle: parsing its certificates was about 5%
of `tether run`'s CPU before its first request, though a plain `http://` endpoint (a local
model server) never uses them.
`verifying_context` makes the same context, the bundle loaded just before its first TLS
connection is set up, so an `https://` endpoint pays the same, only later.
"""

from __future__ import annotations

import _thread
import os
import ssl
import sys
from typing import Any

__all__ = ["BundleOnFirstUse", "verifying_context"]


def verifying_context() -> ssl.SSLContext | bool:
    """What to give httpx as `verify`: the context httpx's `True` makes, its bundle (the
    file `SSL_CERT_FILE` names, else certifi's) loaded at its first use; `True` itself where
    httpx's own reading costs nothing or must fail at once (`SSL_CERT_DIR` alone, whose folder
    OpenSSL reads only as it verifies; a named file that holds no PEM block or cannot be
    read, which fails as the client is made, as it always did)."""
    named = os.environ.get("SSL_CERT_FILE")
    if named:
        return BundleOnFirstUse(named) if _holds_pem(named) else True
    if os.environ.get("SSL_CERT_DIR"):
        return True
    return BundleOnFirstUse()


def _holds_pem(path: str) -> bool:
    """Whether `path` is a readable file with a PEM block in it."""
    if not os.path.isfile(path):
        return False  # missing, a folder, a device: httpx's own reading says what is wrong
    try:
        with open(path, "rb") as file:
            return b"-----BEGIN " in file.read()
    except OSError:
        return False


class BundleOnFirstUse(ssl.SSLContext):
    """`ssl.create_default_context(cafile=BUNDLE)`, the bundle (`cafile`, else certifi's)
    loaded by the first connection (or question about the certificates) made through it."""

    def __new__(cls, cafile: str | None = None) -> BundleOnFirstUse:
        """A client context (`PROTOCOL_TLS_CLIENT`), as `create_default_context` makes."""
        return super().__new__(cls, ssl.PROTOCOL_TLS_CLIENT)

    def __init__(self, cafile: str | None = None) -> None:
        self.cafile = cafile
        # What create_default_context sets for a server's authentication, but the loading.
        self.verify_mode = ssl.CERT_REQUIRED
        self.check_hostname = True
        if sys.version_info >= (3, 13):  # pragma: no cover - the flags 3.13 adds
            self.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN | ssl.VERIFY_X509_STRICT
        keylog = os.environ.get("SSLKEYLOGFILE")
        if keylog and not sys.flags.ignore_environment:
            self.keylog_filename = keylog
        self._unloaded = True
        self._loading = _thread.allocate_lock()

    def _load(self) -> None:
        """Load the bundle, once."""
        if not self._unloaded:
            return
        with self._loading:
            if self._unloaded:
                cafile = self.cafile
                if cafile is None:
                    import certifi

                    cafile = certifi.where()
                self.load_verify_locations(cafile=cafile)
                self._unloaded = False

    def wrap_socket(self, *args: Any, **kwargs: Any) -> ssl.SSLSocket:
        """As `ssl.SSLContext.wrap_socket`, once the bundle is loaded."""
        self._load()
        return super().wrap_socket(*args, **kwargs)

    def wrap_bio(self, *args: Any, **kwargs: Any) -> ssl.SSLObject:
        """As `ssl.SSLContext.wrap_bio` (asyncio's and anyio's TLS), once the bundle is loaded."""
        self._load()
        return super().wrap_bio(*args, **kwargs)

    def get_ca_certs(self, binary_form: bool = False) -> Any:
        """As `ssl.SSLContext.get_ca_certs`, once the bundle is loaded."""
        self._load()
        return super().get_ca_certs(binary_form)

    def cert_store_stats(self) -> dict[str, int]:
        """As `ssl.SSLContext.cert_store_stats`, once the bundle is loaded."""
        self._load()
        return super().cert_store_stats()
