"""The filesystem and command policy: session modes, the permission gate and its asker."""

from tether.policy.asker import (
    INSTEAD,
    PERMISSION_DECISIONS,
    DelegatedAccess,
    PermissionAnswer,
    PermissionAsker,
    PermissionChoice,
    PermissionDecision,
    PermissionOutcome,
    PermissionQuestion,
    RejectWithMessage,
    ServerStart,
    Subject,
    WorkspaceTrust,
    said_instead,
)
from tether.policy.gate import PolicyGate
from tether.policy.modes import DEFAULT_MODE, MODES, PolicyMode, is_mode
from tether.policy.trust import TRUST_OPTIONS, settle_trust, untrusted_notice

__all__ = [
    "DEFAULT_MODE",
    "INSTEAD",
    "MODES",
    "PERMISSION_DECISIONS",
    "TRUST_OPTIONS",
    "DelegatedAccess",
    "PermissionAnswer",
    "PermissionAsker",
    "PermissionChoice",
    "PermissionDecision",
    "PermissionOutcome",
    "PermissionQuestion",
    "PolicyGate",
    "PolicyMode",
    "RejectWithMessage",
    "ServerStart",
    "Subject",
    "WorkspaceTrust",
    "is_mode",
    "said_instead",
    "settle_trust",
    "untrusted_notice",
]
