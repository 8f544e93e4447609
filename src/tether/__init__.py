"""tether: a coding-agent harness whose every tool call is a structured card."""

__version__ = "0.1.0"
