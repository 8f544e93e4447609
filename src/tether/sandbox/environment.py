"""The environment a sandboxed command gets: the user's, without what looks like a secret.

A command the model runs needs `PATH`, `HOME`, `LANG` and the project's own variables, not
the keys tether talks to its provider with, nor a cloud or registry token. Variables whose
names hold one of `SECRET_WORDS`, and every variable a provider reads, are left out unless
the sandbox's settings pass them by name (`sandbox.env`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from tether.providers import PROVIDER_VARIABLES

__all__ = ["SECRET_WORDS", "is_secret_name", "sandbox_environment"]

SECRET_WORDS = ("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL")
"""A variable whose name holds one of these (in any case) is kept out of the sandbox."""

_NAMED = frozenset((*PROVIDER_VARIABLES, "SSH_AUTH_SOCK"))
"""Also kept out: the providers' variables, and the path of the ssh agent's socket."""


def is_secret_name(name: str) -> bool:
    """Whether a variable named `name` is kept out of the sandbox unless passed by name."""
    upper = name.upper()
    return name in _NAMED or any(word in upper for word in SECRET_WORDS)


def sandbox_environment(environ: Mapping[str, str], passed: Collection[str] = ()) -> dict[str, str]:
    """`environ` without its secrets, except the variables named in `passed`."""
    return {k: v for k, v in environ.items() if k in passed or not is_secret_name(k)}
