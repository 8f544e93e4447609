"""How a person (or a mode) settled an access a tool asked for: a leaf, so that the log's events
and the session's updates name it without loading the accesses and the gate
(`tether.tools.access`, which offers the same names)."""

from __future__ import annotations

from typing import Literal, get_args

__all__ = ["PERMISSION_DECISIONS", "PermissionDecision", "PermissionOutcome"]

PermissionDecision = Literal["allow_once", "allow_always", "allow_project", "reject"]
"""A person's answer. `allow_always` lasts for the session; `allow_project` writes a rule to
the project's `.tether/settings.local.json` (offered when such a rule can allow it)."""
PERMISSION_DECISIONS: tuple[PermissionDecision, ...] = get_args(PermissionDecision)

PermissionOutcome = PermissionDecision | Literal["refused"]
"""How a gated access was settled: a person's decision, or `refused` with no one to ask (or
a mode that refuses it); stored with the call's result."""
