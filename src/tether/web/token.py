"""The web client's token, kept across restarts so an open page can reconnect.

It lives in `<data dir>/web-token` (`$TETHER_HOME/web-token`), readable by its owner only
(mode 0600); `tether web --new-token` replaces it, which shuts out every page that had it.
"""

from __future__ import annotations

import contextlib
import re
import secrets
from pathlib import Path

from tether.bounded import read_bounded_text
from tether.errors import UnreadableFile
from tether.tools.fs.atomic import atomic_write

__all__ = ["TOKEN_FILE", "web_token"]

TOKEN_FILE = "web-token"
_VALID = re.compile(r"[A-Za-z0-9_-]{32,128}")


def web_token(data_dir: Path, *, rotate: bool = False) -> str:
    """The stored token, or a new one written there (when asked, or when none is valid)."""
    path = data_dir / TOKEN_FILE
    if not rotate:
        with contextlib.suppress(OSError, UnreadableFile):
            # Bounded and non-blocking: a FIFO or a device there is no token, not a hang.
            stored = read_bounded_text(path, limit=1024, follow_symlinks=False).strip()
            # One readable by others is treated as leaked: it is replaced.
            if _VALID.fullmatch(stored) and path.stat().st_mode & 0o077 == 0:
                return stored
    token = secrets.token_urlsafe(32)
    data_dir.mkdir(parents=True, exist_ok=True)
    # Replaced, not rewritten: a reader sees the old token or the new one, never half.
    atomic_write(path, token.encode() + b"\n", (data_dir,), mode=0o600, replace_link=True)
    return token
