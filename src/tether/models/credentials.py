"""The API keys saved by `/login`: `$TETHER_HOME/credentials.json`, readable by its owner only.

Each key is saved for the endpoint it was given for (its base URL) and is sent nowhere else:
a key saved for Anthropic's API does not follow `ANTHROPIC_BASE_URL` to a proxy. A key from
`--api-key` or from the environment wins over a saved one. The provider chosen at `/login`
becomes the model when nothing else names one (`--model`, `$TETHER_MODEL`, the settings).

    {"version": 1, "model": "anthropic", "keys": {"https://api.anthropic.com": "sk-..."}}

This module reads and encodes the file; writing it (atomically, mode 0600) is the terminal's.
"""

from __future__ import annotations

import json
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path

from tether.bounded import read_bounded_json
from tether.errors import CredentialsError, UnreadableFile
from tether.home import data_dir

__all__ = [
    "CREDENTIALS_FILE",
    "STORED_SOURCE",
    "Credentials",
    "credentials_path",
    "login_model",
    "read_credentials",
    "stored_key",
]

CREDENTIALS_FILE = "credentials.json"
"""The file in the data directory (`$TETHER_HOME`) that holds the saved keys."""
STORED_SOURCE = "the key saved by /login"
"""Where a saved key came from, as an error about a refused key names it."""
_VERSION = 1
_LIMIT = 64 * 1024


@dataclass(frozen=True)
class Credentials:
    """The saved keys by endpoint, and the model spec chosen at `/login`."""

    keys: dict[str, str] = field(default_factory=dict)
    model: str | None = None

    def key_for(self, base_url: str) -> str | None:
        """The key saved for exactly this endpoint, if any."""
        return self.keys.get(base_url.rstrip("/"))

    def with_key(self, base_url: str, key: str, model: str) -> Credentials:
        """These credentials with `key` saved for `base_url` and `model` chosen."""
        return Credentials({**self.keys, base_url.rstrip("/"): key}, model)

    def without_key(self, base_url: str) -> Credentials:
        """These credentials with no key for `base_url`."""
        url = base_url.rstrip("/")
        return replace(self, keys={k: v for k, v in self.keys.items() if k != url})

    def encoded(self) -> bytes:
        """The file's bytes."""
        body: dict[str, object] = {"version": _VERSION}
        if self.model is not None:
            body["model"] = self.model
        body["keys"] = dict(sorted(self.keys.items()))
        return (json.dumps(body, indent=2) + "\n").encode()


def credentials_path(home: Path | None = None) -> Path:
    """Where the keys are saved: `credentials.json` in `home` (default: the data directory)."""
    return (home or data_dir()) / CREDENTIALS_FILE


def read_credentials(home: Path | None = None, *, private: bool = True) -> Credentials:
    """The saved credentials (none when there is no file); `CredentialsError` for a file
    that is not one (not a regular file, not JSON, not the shape above) and, when `private`,
    for one that others can read (its keys are not used until that is fixed)."""
    path = credentials_path(home)
    try:
        # Not followed if a link: a key file is tether's own, never a pointer elsewhere.
        raw = read_bounded_json(path, limit=_LIMIT, follow_symlinks=False)
        mode = path.stat().st_mode
    except FileNotFoundError:
        return Credentials()
    except (OSError, UnreadableFile) as exc:
        raise CredentialsError(f"cannot read the saved keys: {exc}") from None
    if private and stat.S_IMODE(mode) & 0o077:
        raise CredentialsError(
            f"{path} can be read by others: run `chmod 600 {path}` (or /login again, which "
            "writes it for you alone), and consider replacing the keys it holds"
        )
    return _parsed(raw, path)


def _parsed(raw: object, path: Path) -> Credentials:
    if not isinstance(raw, dict) or raw.get("version") != _VERSION:
        raise CredentialsError(f"{path}: not a credentials file of version {_VERSION}")
    keys = raw.get("keys", {})
    model = raw.get("model")
    if not isinstance(keys, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and v for k, v in keys.items()
    ):
        raise CredentialsError(f'{path}: "keys" must map each base URL to a key')
    if model is not None and not isinstance(model, str):
        raise CredentialsError(f'{path}: "model" must be a model spec such as "anthropic"')
    return Credentials(dict(keys), model)


def stored_key(base_url: str) -> tuple[str, str] | None:
    """The key `/login` saved for `base_url` and where it is from (`STORED_SOURCE`), if any;
    `CredentialsError` for a file that cannot be used."""
    key = read_credentials().key_for(base_url)
    return (key, STORED_SOURCE) if key is not None else None


def login_model() -> str | None:
    """The model spec chosen at `/login`, if any; a file that cannot be read names none (its
    error is said when a key is looked up in it)."""
    try:
        return read_credentials().model
    except CredentialsError:
        return None
