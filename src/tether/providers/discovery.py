"""A resolved endpoint and key, and the one lookup every provider makes to find them."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = ["Discovery", "Provider"]

FLAG = "--api-key"


@dataclass(frozen=True)
class Provider:
    """Where a model's requests go and the key they carry."""

    base_url: str
    api_key: str | None
    """`None` when no key was found and the server needs one."""
    key_names: tuple[str, ...]
    """The environment variables consulted for the key, in order."""
    key_source: str | None = None
    """Where the key came from (`--api-key` or a variable); `None` when none was found."""

    @property
    def key_hint(self) -> str:
        """What an error for a rejected key tells the user to do."""
        if self.key_source is not None:
            return f"check {self.key_source}"
        return f"set {' or '.join(self.key_names)}"

    @property
    def missing_key(self) -> str:
        """The error for a request made without a key."""
        return f"No API key for {self.base_url}: set {' or '.join(self.key_names)} or pass {FLAG}"


def _no_placeholder(host: str) -> str | None:
    """Every host needs a real key."""
    return None


@dataclass(frozen=True)
class Discovery:
    """How one model kind finds its endpoint and key: flags first, then the environment."""

    url_variable: str
    """The variable that sets the endpoint when `--base-url` does not."""
    default_url: str
    key_names: Callable[[str], tuple[str, ...]]
    """The variables that may hold the key for a host, in order."""
    placeholder: Callable[[str], str | None] = _no_placeholder
    """The key a host gets when none is set; `None` when it needs a real one."""
    blank_key_unset: bool = False
    """Whether an empty `--api-key` counts as none given (the environment is consulted)."""

    def resolve(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        environ: Mapping[str, str] | None = None,
        stored: Callable[[str], tuple[str, str] | None] | None = None,
    ) -> Provider:
        """The endpoint and key for these flags (`None`: not given) and this environment;
        `stored` gives the key saved for an endpoint and where it is from, consulted after
        the environment (a key in a variable wins)."""
        env = os.environ if environ is None else environ
        url = (base_url or env.get(self.url_variable) or self.default_url).rstrip("/")
        host = urlsplit(url).hostname or ""
        names = self.key_names(host)
        if self.blank_key_unset and not api_key:
            api_key = None
        if api_key is not None:
            return Provider(url, api_key, names, FLAG)
        found = next((name for name in names if env.get(name)), None)
        if found is not None:
            return Provider(url, env[found], names, found)
        saved = stored(url) if stored is not None else None
        if saved is not None:
            return Provider(url, saved[0], names, saved[1])
        return Provider(url, self.placeholder(host), names)
