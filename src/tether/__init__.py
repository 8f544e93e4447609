"""tether: a coding-agent harness whose every tool call is a structured card."""

from __future__ import annotations

__all__ = ["DISTRIBUTION", "__version__"]

DISTRIBUTION = "tether-code"
"""The name tether is published under (the command stays `tether`)."""


def __getattr__(name: str) -> str:
    """`__version__`: the installed release, read from the package's metadata when asked for.

    Looked up lazily so that importing tether does not pay for `importlib.metadata`;
    `0+unknown` for sources that were never installed.
    """
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version(DISTRIBUTION)
        except PackageNotFoundError:
            return "0+unknown"
    raise AttributeError(f"module 'tether' has no attribute {name!r}")
