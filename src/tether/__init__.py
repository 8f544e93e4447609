"""tether: a coding-agent harness whose every tool call is a structured card."""

from __future__ import annotations

__all__ = ["DISTRIBUTION", "__version__"]

DISTRIBUTION = "tether-code"
"""The name tether is published under (the command stays `tether`)."""

__version__ = "0.1.0"
"""The release. `pyproject.toml` takes it from here (`[tool.setuptools.dynamic]`), so the
installed metadata says the same, and `tether --version` needs no `importlib.metadata`
(whose imports cost a third of that command's time)."""
