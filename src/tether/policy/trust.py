"""Asking a person to trust a workspace whose own settings grant something (once, kept with
the files' fingerprint), and saying so when no one can be asked."""

from __future__ import annotations

from tether.policy.asker import (
    PermissionAsker,
    PermissionChoice,
    PermissionQuestion,
    RejectWithMessage,
    WorkspaceTrust,
)
from tether.settings import Settings, TrustStore

__all__ = ["TRUST_OPTIONS", "TRUST_REASON", "settle_trust", "untrusted_notice"]

TRUST_OPTIONS = (
    PermissionChoice("allow_always", "Trust this workspace"),
    PermissionChoice("allow_once", "Trust it for this session"),
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
    if not settings.trust.needed or asker is None:
        return settings
    answer = await asker.ask(trust_question(settings))
    if isinstance(answer, RejectWithMessage) or answer == "reject":
        return settings
    if answer == "allow_always":
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
