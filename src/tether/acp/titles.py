"""Renaming a session over ACP: the `_tether/session/rename` extension method.

ACP lets an agent tell a client a session's title (`session_info_update`) but has no method
for a person to choose one; tether offers this one, and says so in `initialize`'s
`agentCapabilities._meta.tether.renameSession`.
"""

from __future__ import annotations

from typing import Any

from tether.acp.context import AgentContext
from tether.acp.errors import invalid_params, stored_session_error
from tether.errors import SessionLocked, SessionNotFound
from tether.session.log.title import given_title

__all__ = ["RENAME_METHOD", "rename_method"]

RENAME_METHOD = "tether/session/rename"
"""The extension method (`_tether/session/rename` on the wire): `{sessionId, title}` → `{title}`."""


async def rename_method(ctx: AgentContext, params: dict[str, Any]) -> dict[str, Any]:
    """Retitle a stored session: through this agent when it has it open (its client sees a
    `session_info_update`), else under the log's lock; refused while another process has it."""
    session_id = params.get("sessionId")
    asked = params.get("title")
    if not isinstance(session_id, str) or not session_id:
        raise invalid_params("sessionId must be a session id", {"sessionId": session_id})
    if not isinstance(asked, str):
        raise invalid_params("title must be a string", {"sessionId": session_id})
    try:
        title = given_title(asked)
    except ValueError as exc:
        raise invalid_params(str(exc), {"sessionId": session_id}) from exc
    opened = ctx.open.get(session_id)
    if opened is not None:
        ctx.post(opened, opened.session.rename(title))
        await ctx.flush()
        return {"title": title}
    try:
        ctx.store.rename(session_id, title)
    except (SessionNotFound, SessionLocked) as exc:
        raise stored_session_error(exc, session_id) from exc
    return {"title": title}
