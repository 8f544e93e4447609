"""What the page lists, one ACP call each: the stored sessions (after a rename or delete)
and a session's permission rules."""

from __future__ import annotations

from acp import RequestError
from acp.client.connection import ClientSideConnection

from tether.web.protocol import (
    DeleteSession,
    ListSessions,
    PermissionsReport,
    RenameSession,
    Sessions,
    SessionSummary,
)

__all__ = ["RENAME_METHOD", "permissions_report", "session_list"]

RENAME_METHOD = "tether/session/rename"
"""tether's extension method (`_tether/session/rename`), offered by agents that say so."""


async def session_list(
    conn: ClientSideConnection, message: ListSessions | RenameSession | DeleteSession
) -> Sessions:
    """The session list, after renaming or deleting one of it."""
    match message:
        case RenameSession(session_id=session_id, title=title):
            params = {"sessionId": session_id, "title": title}
            await conn.ext_method(RENAME_METHOD, params)
        case DeleteSession(session_id=session_id):
            # The SDK's client names `session/delete` but has no method for it.
            await conn._conn.send_request("session/delete", {"sessionId": session_id})
        case ListSessions():
            pass
    listed = await conn.list_sessions()
    summaries = tuple(
        SessionSummary(session_id=s.session_id, cwd=s.cwd, title=s.title, updated_at=s.updated_at)
        for s in listed.sessions
    )
    return Sessions(sessions=summaries)


async def permissions_report(conn: ClientSideConnection, session_id: str) -> PermissionsReport:
    """The agent's report on a session's rules; an agent without it says so in the report."""
    try:
        report = await conn.ext_method("tether/permissions", {"sessionId": session_id})
    except RequestError as exc:
        return PermissionsReport(session_id=session_id, error=str(exc))
    return PermissionsReport(session_id=session_id, report=report)
