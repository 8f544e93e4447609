"""The filesystem and command policy: session modes, the permission gate and its asker."""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
    from tether.policy.asker import (
        DelegatedAccess,
        PermissionAnswer,
        PermissionAsker,
        PermissionChoice,
        PermissionQuestion,
        PlanApproval,
        RejectWithMessage,
        ServerStart,
        Subject,
        WorkspaceTrust,
    )
    from tether.policy.gate import PolicyGate
    from tether.policy.instead import INSTEAD, said_instead
    from tether.policy.modes import DEFAULT_MODE, MODES, PolicyMode, is_mode
    from tether.policy.trust import (
        TRUST_OPTIONS,
        TrustDecision,
        apply_trust,
        ask_trust,
        settle_trust,
        untrusted_notice,
    )

__all__ = [
    "DEFAULT_MODE",
    "INSTEAD",
    "MODES",
    "TRUST_OPTIONS",
    "DelegatedAccess",
    "PermissionAnswer",
    "PermissionAsker",
    "PermissionChoice",
    "PermissionQuestion",
    "PlanApproval",
    "PolicyGate",
    "PolicyMode",
    "RejectWithMessage",
    "ServerStart",
    "Subject",
    "TrustDecision",
    "WorkspaceTrust",
    "apply_trust",
    "ask_trust",
    "is_mode",
    "said_instead",
    "settle_trust",
    "untrusted_notice",
]

__getattr__ = lazy_names(
    __name__,
    {
        "INSTEAD": "tether.policy.instead",
        "DelegatedAccess": "tether.policy.asker",
        "PermissionAnswer": "tether.policy.asker",
        "PermissionAsker": "tether.policy.asker",
        "PermissionChoice": "tether.policy.asker",
        "PermissionQuestion": "tether.policy.asker",
        "RejectWithMessage": "tether.policy.asker",
        "ServerStart": "tether.policy.asker",
        "Subject": "tether.policy.asker",
        "WorkspaceTrust": "tether.policy.asker",
        "PlanApproval": "tether.policy.asker",
        "said_instead": "tether.policy.instead",
        "PolicyGate": "tether.policy.gate",
        "DEFAULT_MODE": "tether.policy.modes",
        "MODES": "tether.policy.modes",
        "PolicyMode": "tether.policy.modes",
        "is_mode": "tether.policy.modes",
        "TRUST_OPTIONS": "tether.policy.trust",
        "settle_trust": "tether.policy.trust",
        "TrustDecision": "tether.policy.trust",
        "apply_trust": "tether.policy.trust",
        "ask_trust": "tether.policy.trust",
        "untrusted_notice": "tether.policy.trust",
    },
)
