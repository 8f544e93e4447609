"""A session's life over ACP: `session/new`, `session/load`, `session/list`, `session/delete`.

Every handler that opens a session (these and `branching`'s fork and resume) opens it with
`hold` and answers its modes and options with `state`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from acp import RequestError
from acp.schema import (
    DeleteSessionResponse,
    ListSessionsResponse,
    LoadSessionResponse,
    NewSessionResponse,
    SessionInfo,
    SessionModeState,
)

from tether.acp.context import AgentContext, OpenSession
from tether.acp.errors import INVALID_REQUEST, invalid_params, stored_session_error
from tether.acp.mcp import ClientServer
from tether.acp.modes import mode_state
from tether.acp.params import client_path, cursor_offset, directory
from tether.acp.skills import announce_skills
from tether.acp.switches import honour_logged_model, list_models, session_options
from tether.acp.workspace import announce
from tether.errors import CorruptLog, SessionLocked, SessionNotFound
from tether.session import Session, SessionConfig

__all__ = [
    "LIST_PAGE",
    "delete_session",
    "hold",
    "list_sessions",
    "load_session",
    "new_session",
    "open_stored",
    "state",
]

log = logging.getLogger(__name__)

LIST_PAGE = 200
"""Sessions per `session/list` answer; `nextCursor` leads to the next page."""


async def new_session(
    ctx: AgentContext,
    cwd: str,
    additional_directories: list[str] | None,
    mcp_servers: list[ClientServer] | None,
) -> NewSessionResponse:
    """A new session in `cwd` with the client's MCP servers; extra directories join it."""
    root = directory(cwd, "cwd")
    extra = [directory(d, "additionalDirectories") for d in additional_directories or ()]
    # The id first: the session's asker asks under it from the start.
    session_id = ctx.store.new_id()
    opened = hold(
        ctx,
        session_id,
        root,
        extra,
        lambda config: Session.create(ctx.store, root, config, session_id),
    )
    announce(ctx, opened)
    announce_skills(ctx, opened)
    await ctx.start_mcp(opened, mcp_servers or [])
    ctx.advertise(opened)
    # The menu answers now with the models known; the endpoint's own follow when it says.
    ctx.beside(list_models(ctx, opened))
    modes, options = state(opened.session)
    return NewSessionResponse(session_id=session_id, modes=modes, config_options=options)


async def load_session(
    ctx: AgentContext,
    cwd: str,
    session_id: str,
    additional_directories: list[str] | None,
    mcp_servers: list[ClientServer] | None,
) -> LoadSessionResponse:
    """Replay the session's log as `session/update`s, then answer; it can then be prompted."""
    asked_cwd = client_path(cwd, "cwd")
    opened = ctx.open.get(session_id)
    fresh = opened is None
    if opened is None:
        opened = open_stored(ctx, session_id, additional_directories)
        # Before the replay, so the cards of MCP calls come back as they were shown.
        await ctx.start_mcp(opened, mcp_servers or [])
    session = opened.session
    if asked_cwd != session.cwd:
        log.info("session %s lives in %s, not %s; using its own cwd", session.id, session.cwd, cwd)
    if fresh:
        # Said first, as a new session says them: the replay then matches the live run.
        announce(ctx, opened)
        announce_skills(ctx, opened)
    for update in session.replay():
        ctx.post(opened, update)
    await ctx.flush()
    ctx.advertise(opened)
    ctx.beside(list_models(ctx, opened))
    modes, options = state(session)
    return LoadSessionResponse(modes=modes, config_options=options)


async def delete_session(ctx: AgentContext, session_id: str) -> DeleteSessionResponse:
    """Delete a stored session (closing it here first); refused while another process has it.

    The sessions its agents ran go with it (one still open elsewhere is kept, and logged).
    """
    opened = ctx.open.get(session_id)
    if opened is not None:
        if opened.session.running:
            raise RequestError(
                INVALID_REQUEST,
                f"Session {session_id} is running a prompt; cancel it before deleting it",
                {"sessionId": session_id},
            )
        del ctx.open[session_id]
        await opened.close()
    try:
        children = ctx.store.descendants(session_id)
        ctx.store.delete(session_id)
    except SessionNotFound as exc:
        # Not a session that is gone: an id the client should not have sent.
        raise invalid_params(
            f"Session not found: {session_id} (nothing to delete)", {"sessionId": session_id}
        ) from exc
    except SessionLocked as exc:
        raise stored_session_error(exc, session_id) from exc
    for child in children:
        try:
            ctx.store.delete(child)
        except (SessionNotFound, SessionLocked) as exc:
            log.warning("the agent session %s of %s is kept: %s", child, session_id, exc)
    return DeleteSessionResponse()


async def list_sessions(
    ctx: AgentContext, cwd: str | None, cursor: str | None
) -> ListSessionsResponse:
    """The stored sessions, newest first, optionally only those in `cwd`.

    The sessions agents ran are left out: a client opens them through their task cards.
    """
    infos = [info for info in ctx.store.list_sessions() if info.parent is None]
    if cwd is not None:
        wanted = client_path(cwd, "cwd").resolve()
        infos = [info for info in infos if Path(info.cwd) == wanted]
    start = cursor_offset(cursor)
    page = infos[start : start + LIST_PAGE]
    more = start + LIST_PAGE < len(infos)
    return ListSessionsResponse(
        sessions=[
            SessionInfo(
                session_id=info.id, cwd=info.cwd, title=info.title, updated_at=info.updated_at
            )
            for info in page
        ],
        next_cursor=str(start + LIST_PAGE) if more else None,
    )


def open_stored(ctx: AgentContext, session_id: str, extra: list[str] | None) -> OpenSession:
    """Open a stored session here (locked), on its own cwd and the client's extra directories."""
    roots = [directory(d, "additionalDirectories") for d in extra or ()]
    try:
        cwd = Path(ctx.store.header(session_id).cwd)
    except (SessionNotFound, CorruptLog) as exc:
        raise stored_session_error(exc, session_id) from exc
    return hold(
        ctx, session_id, cwd, roots, lambda config: Session.load(ctx.store, session_id, config)
    )


def hold(
    ctx: AgentContext,
    session_id: str,
    cwd: Path,
    roots: Sequence[Path],
    make: Callable[[SessionConfig], Session],
    *,
    stored: str | None = None,
) -> OpenSession:
    """Session `session_id` in `cwd` with the client's `roots`, made from its configuration by
    `make` (created, loaded or forked), on the model its log last chose, held open here.

    A stored session that cannot be opened is the error ACP gives for it (`stored`: the id
    the client named, when it is not `session_id`).
    """
    config, calls = ctx.config(session_id, cwd, list(roots))
    try:
        session = make(config)
    except (SessionNotFound, SessionLocked, CorruptLog) as exc:
        raise stored_session_error(exc, stored or session_id) from exc
    honour_logged_model(ctx, session)
    return ctx.register(session, calls)


def state(session: Session) -> tuple[SessionModeState, list[Any]]:
    """The `modes` and `configOptions` every answer that opens a session carries."""
    return mode_state(session.gate.mode), session_options(session)
