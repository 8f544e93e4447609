"""The filesystem and command policy: session modes, the permission gate and its asker."""

from tether.policy.asker import (
    PERMISSION_DECISIONS,
    DelegatedAccess,
    PermissionAsker,
    PermissionChoice,
    PermissionDecision,
    PermissionOutcome,
    PermissionQuestion,
    ServerStart,
    Subject,
)
from tether.policy.gate import PolicyGate
from tether.policy.modes import DEFAULT_MODE, MODES, PolicyMode, is_mode

__all__ = [
    "DEFAULT_MODE",
    "MODES",
    "PERMISSION_DECISIONS",
    "DelegatedAccess",
    "PermissionAsker",
    "PermissionChoice",
    "PermissionDecision",
    "PermissionOutcome",
    "PermissionQuestion",
    "PolicyGate",
    "PolicyMode",
    "ServerStart",
    "Subject",
    "is_mode",
]
