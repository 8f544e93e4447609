"""Errors a tool raises.

ToolError          the call failed in a way the model can fix (bad path, no match, out of
                   range); it becomes a result with `isError: true` and this message.
└── PermissionDenied  the policy or the person refused the operation.
"""

from __future__ import annotations

from pydantic import JsonValue

__all__ = ["PermissionDenied", "ToolError"]


class ToolError(Exception):
    """A failure reported to the model as an error result, never escaping the loop."""

    def __init__(self, message: str, meta: JsonValue = None) -> None:
        super().__init__(message)
        self.message = message
        self.meta = meta
        """What a card can show of the failure (an HTTP error's status); stored as `meta`."""


class PermissionDenied(ToolError):
    """The operation was refused by the session mode or by the person asked."""
