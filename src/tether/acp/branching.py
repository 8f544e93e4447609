"""`session/fork`, `session/resume` and `session/close` (ACP's unstable session methods).

- `session/fork` makes a new session whose log starts with the original's events (all its
  finished prompts, or those before prompt N when `_meta.tether.prompt` is N) and opens it,
  without replaying: the client has that history already. The original is untouched.
- `session/resume` opens a stored session to continue it, without replaying its history.
- `session/close` cancels the session's prompt if one runs, stops its MCP servers and
  releases its log's lock (another process may then open it).
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from acp.schema import CloseSessionResponse, ForkSessionResponse, ResumeSessionResponse

from tether.acp.context import AgentContext, OpenSession
from tether.acp.errors import invalid_params, stored_session_error
from tether.acp.lifecycle import hold, open_stored, state
from tether.acp.mcp import ClientServer
from tether.acp.params import client_path, directory
from tether.errors import CorruptLog, RewindError, SessionNotFound
from tether.session import Session, SessionConfig

__all__ = ["close_session", "fork_session", "resume_session"]

log = logging.getLogger(__name__)

_CLOSE_WAIT = 30.0
"""Seconds a close waits for a cancelled prompt to record its end."""


async def fork_session(
    ctx: AgentContext,
    session_id: str,
    cwd: str,
    additional_directories: list[str] | None,
    mcp_servers: list[ClientServer] | None,
    *,
    tether: Any = None,
) -> ForkSessionResponse:
    """Fork a stored session (open here or not) and open the fork."""
    prompt = _prompt_number(tether)
    asked = client_path(cwd, "cwd")
    roots = [directory(d, "additionalDirectories") for d in additional_directories or ()]
    try:
        root = Path(ctx.store.header(session_id).cwd)
    except (SessionNotFound, CorruptLog) as exc:
        raise stored_session_error(exc, session_id) from exc
    fork_id = ctx.store.new_id()

    def fork(config: SessionConfig) -> Session:
        return Session.fork(ctx.store, session_id, prompt, config, fork_id)

    try:
        opened = hold(ctx, fork_id, root, roots, fork, stored=session_id)
    except RewindError as exc:
        raise invalid_params(str(exc), {"sessionId": session_id, "prompt": prompt}) from exc
    if asked != opened.session.cwd:
        log.info("session %s lives in %s, not %s; the fork does too", session_id, root, cwd)
    await ctx.start_mcp(opened, mcp_servers or [])
    ctx.advertise(opened)
    modes, options = state(opened.session)
    return ForkSessionResponse(session_id=fork_id, modes=modes, config_options=options)


async def resume_session(
    ctx: AgentContext,
    session_id: str,
    cwd: str,
    additional_directories: list[str] | None,
    mcp_servers: list[ClientServer] | None,
) -> ResumeSessionResponse:
    """Open a stored session to continue it, without replaying its history."""
    client_path(cwd, "cwd")
    opened = ctx.open.get(session_id)
    if opened is None:
        opened = open_stored(ctx, session_id, additional_directories)
        await ctx.start_mcp(opened, mcp_servers or [])
    ctx.advertise(opened)
    modes, options = state(opened.session)
    return ResumeSessionResponse(modes=modes, config_options=options)


async def close_session(ctx: AgentContext, session_id: str) -> CloseSessionResponse:
    """Cancel a running prompt, stop the MCP servers, release the lock; the session stays stored."""
    opened = ctx.opened(session_id)
    await _stop(opened)
    del ctx.open[session_id]
    await opened.close()
    await ctx.flush()
    return CloseSessionResponse()


async def _stop(opened: OpenSession) -> None:
    session = opened.session
    if not session.running:
        return
    session.cancel()
    # The prompt's own request answers `cancelled` once its end is recorded; wait for it,
    # bounded, so the log is whole before its lock goes.
    loop = asyncio.get_running_loop()
    deadline = loop.time() + _CLOSE_WAIT
    while session.running and loop.time() < deadline:
        await asyncio.sleep(0.02)
    if session.running:
        log.warning("session %s: closed while its cancelled prompt still ran", session.id)


def _prompt_number(tether: Any) -> int | None:
    """`_meta.tether.prompt`: fork before that prompt (absent: fork everything)."""
    if tether is None:
        return None
    prompt = tether.get("prompt") if isinstance(tether, dict) else None
    if prompt is None:
        return None
    if not isinstance(prompt, int) or isinstance(prompt, bool) or prompt < 1:
        raise invalid_params(
            f"_meta.tether.prompt must be a prompt number, not {prompt!r}", {"prompt": prompt}
        )
    return prompt
