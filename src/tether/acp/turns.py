"""A prompt's turn over ACP: `session/prompt` runs the loop (or a slash command, dispatched
once by `tether.surface.dispatch`), and `session/cancel` stops it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from acp import RequestError
from acp.schema import PromptResponse

from tether.acp.commands import PromptBlocks, command_blocks, invocation
from tether.acp.context import AgentContext, OpenSession
from tether.acp.errors import INTERNAL_ERROR, INVALID_REQUEST
from tether.acp.prompt import PromptBlock, prompt_content, shown_blocks
from tether.acp.surface import AcpSurface
from tether.acp.switches import list_models, set_mode
from tether.acp.workspace import settle
from tether.commands import Command, PromptText, load_commands
from tether.content import ContentBlock, TextContent
from tether.errors import PromptFailed, SessionBusy
from tether.session import ClientUpdate, UserImage, UserResource, UserText
from tether.session.commanded import CommandPrompt, prepare_command
from tether.settings import Rule
from tether.surface.dispatch import dispatch

__all__ = ["cancel", "prompt"]

log = logging.getLogger(__name__)


async def prompt(ctx: AgentContext, session_id: str, blocks: list[PromptBlock]) -> PromptResponse:
    """Run one prompt; updates stream as `session/update`s, the answer carries the stop."""
    opened = ctx.opened(session_id)
    session = opened.session
    meant = invocation(blocks, load_commands(session.cwd, ctx.store.root))
    if not isinstance(meant, PromptText) and session.running:
        raise RequestError(INVALID_REQUEST, f"Session {session_id} is already running a prompt")

    async def turn(meant: PromptText) -> PromptResponse:
        return await _turn(ctx, opened, blocks, command_blocks(blocks, meant))

    return await dispatch(meant, AcpSurface(ctx, opened, blocks, turn))


async def _turn(
    ctx: AgentContext, opened: OpenSession, blocks: list[PromptBlock], meant: PromptBlocks
) -> PromptResponse:
    """The model's turn on `meant`'s blocks (`blocks`: the prompt as the client sent it)."""
    session = opened.session
    session_id = session.id
    if not session.running:
        await settle(ctx, opened)
    if opened.mcp is not None and not session.running:
        await opened.mcp.before_prompt(session, ctx.client, ctx.notifier(opened))
    content = prompt_content(meant.blocks)
    shown = shown_blocks(blocks, always=meant.expanded)

    told = [session.gate.mode]

    def on_update(update: ClientUpdate) -> None:
        # The client shows its own prompt; user chunks are for `session/load` only.
        if not isinstance(update, UserText | UserImage | UserResource):
            ctx.post(opened, update)
        if session.gate.mode != told[0]:
            # The session left plan mode (the person approved a plan): the menus follow.
            told[0] = session.gate.mode
            set_mode(ctx, opened, session.gate.mode)

    grants: tuple[Rule, ...] = ()
    model = None
    if meant.command is not None and not session.running:
        prepared = await _prepare(ctx, opened, content[0], meant.command, on_update)
        if prepared is None:
            return PromptResponse(stop_reason="cancelled")
        content = [*prepared.content, *content[1:]]
        grants, model = prepared.grants, prepared.model
    try:
        stop = await session.prompt(content, on_update, shown=shown, grants=grants, model=model)
    except SessionBusy as exc:
        raise RequestError(
            INVALID_REQUEST,
            f"Session {session_id} is already running a prompt",
            {"details": str(exc)},
        ) from exc
    except PromptFailed as exc:
        await ctx.flush()
        raise RequestError(
            INTERNAL_ERROR,
            f"The model failed: {exc}",
            {"sessionId": session_id, "details": str(exc)},
        ) from exc
    await ctx.flush()
    # The SDK is loaded now: the model menu may gain the endpoint's own models.
    ctx.beside(list_models(ctx, opened))
    return PromptResponse(stop_reason=stop)


async def _prepare(
    ctx: AgentContext,
    opened: OpenSession,
    first: ContentBlock,
    command: Command,
    on_update: Callable[[ClientUpdate], None],
) -> CommandPrompt | None:
    """Run a command file's `` !`cmd` `` lines (each a tool call the client sees), and say
    what to prompt with; `None` when `session/cancel` stopped them."""
    assert isinstance(first, TextContent)  # the expanded command is the first block's text
    opened.preparing = asyncio.Event()
    try:
        prepared = await prepare_command(
            opened.session, first.text, command, on_update, opened.preparing
        )
        stopped = opened.preparing.is_set()
    finally:
        opened.preparing = None
    notify = ctx.notifier(opened)
    for warning in prepared.warnings:
        notify(f"warning: {warning}")
    await ctx.flush()
    return None if stopped else prepared


async def cancel(ctx: AgentContext, session_id: str) -> None:
    """Stop the running prompt of a session (it answers `cancelled`)."""
    opened = ctx.open.get(session_id)
    if opened is None:
        log.warning("session/cancel for a session that is not open: %s", session_id)
        return
    if opened.preparing is not None:
        opened.preparing.set()
    opened.session.cancel()
