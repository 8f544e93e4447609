"""Asking a person to trust a workspace whose own settings grant something (once, kept with
the files' fingerprint), and saying so when no one can be asked."""

from __future__ import annotations

from typing import Literal

from tether.policy.asker import (
    PermissionAsker,
    PermissionChoice,
    PermissionQuestion,
    RejectWithMessage,
    WorkspaceTrust,
)
from tether.settings import Settings, TrustStore

TrustDecision = Literal["allow_always", "allow_once", "reject"]
"""Trusted for good, for this session, or not at all."""

__all__ = [
    "TRUST_OPTIONS",
    "TRUST_REASON",
    "TrustDecision",
    "apply_trust",
    "ask_trust",
    "settle_trust",
    "untrusted_notice",
]

TRUST_OPTIONS = (
    # The least lasting trust first: where a client focuses the first choice (the page, the
    # terminal), Enter trusts for this session only, never for good.
    PermissionChoice("allow_once", "Trust it for this session"),
    PermissionChoice("allow_always", "Trust this workspace"),
    PermissionChoice("reject", "Do not trust it"),
)
TRUST_REASON = "a workspace's own settings grant nothing until you trust it"


def trust_question(settings: Settings) -> PermissionQuestion:
    """The question that asks to trust `settings`' workspace."""
    subject = WorkspaceTrust(settings.root, settings.trust.withheld)
    return PermissionQuestion(subject=subject, options=TRUST_OPTIONS, reason=TRUST_REASON)


async def settle_trust(settings: Settings, asker: PermissionAsker | None) -> Settings:
    """`settings` once the person said whether to trust the workspace (asked only when its
    files grant something and it is not trusted yet); unchanged with no one to ask."""
    decision = await ask_trust(settings, asker)
    return settings if decision is None else apply_trust(settings, decision)


async def ask_trust(settings: Settings, asker: PermissionAsker | None) -> TrustDecision | None:
    """Whether the person trusts the workspace; `None` when there was nothing to ask or no
    one to ask it."""
    if not settings.trust.needed or asker is None:
        return None
    answer = await asker.ask(trust_question(settings))
    if isinstance(answer, RejectWithMessage) or answer == "reject":
        return "reject"
    return "allow_always" if answer == "allow_always" else "allow_once"


def apply_trust(settings: Settings, decision: TrustDecision) -> Settings:
    """`settings` as the person's `decision` leaves them (for good: kept in the trust store)."""
    if decision == "reject":
        return settings
    if decision == "allow_always":
        TrustStore(settings.home).trust(settings.root, settings.trust.fingerprint)
        return settings.reloaded()
    again = settings.reloaded(trusted=True)
    # Trusted as it was shown: a file changed since the question is not trusted unseen.
    return again if again.trust.fingerprint == settings.trust.fingerprint else settings.reloaded()


def untrusted_notice(settings: Settings) -> str | None:
    """What a run that cannot ask says about a workspace it does not trust, or `None`."""
    if not settings.trust.needed:
        return None
    withheld = "; ".join(settings.trust.withheld)
    return (
        f"{settings.root} is not trusted, so only its deny and ask rules apply; ignored until "
        f"you trust it: {withheld}. Trust it by running tether at a terminal there, or with "
        "`tether permissions trust`"
    )
