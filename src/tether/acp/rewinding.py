"""`/rewind`, `/undo`, `/redo` and `/fork` as ACP prompts: done without the model.

The answer is agent text: `/rewind` alone lists the prompts and what each changed; a restore
posts its notice (text, and `_meta.tether.notice` `{kind: "restore", ...}` naming the files);
`/fork` names the new session (`_meta.tether.notice` `{kind: "fork", sessionId, prompt}`).
A file someone else changed too is asked about with `session/request_permission`, its reason
and a short diff in the request's content: "Take the checkpoint's version" or "Keep mine"
(a cancelled request keeps it). Nothing is ever overwritten without that answer.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import assert_never

from acp import RequestError, text_block, tool_content
from acp.schema import (
    AllowedOutcome,
    PermissionOption,
    PromptResponse,
    ToolCallLocation,
    ToolCallUpdate,
)

from tether.acp.context import AgentContext, OpenSession
from tether.acp.errors import INVALID_REQUEST
from tether.commands import CheckpointCommand
from tether.session import Conflict, RestorePlan, RewindError, Session
from tether.session.rewind.plan import prompt_listing
from tether.session.updates import ClientUpdate

__all__ = ["TAKE", "checkpoint_command"]

TAKE = "take_checkpoint"
"""The option id that restores a conflicting file; any other answer keeps it."""

_OPTIONS = [
    PermissionOption(option_id=TAKE, name="Take the checkpoint's version", kind="allow_once"),
    PermissionOption(option_id="keep_mine", name="Keep mine", kind="reject_once"),
]


async def checkpoint_command(
    ctx: AgentContext, opened: OpenSession, command: CheckpointCommand, typed: str
) -> PromptResponse:
    """Do one checkpoint command on an open session; it answers `end_turn`.

    The command as the person `typed` it and tether's answer go into the log, so a
    `session/load` shows both where they were.
    """
    session = opened.session
    if session.running:
        raise RequestError(INVALID_REQUEST, f"Session {session.id} is already running a prompt")
    logged = False  # whether the log has the command already (a restore logs it first)
    try:
        match command.action:
            case "rewind" if command.prompt is None:
                listing = prompt_listing(session.id, await session.rewind.prompts())
                _post(ctx, opened, session.rewind.answer(typed, listing + "\n"))
            case "rewind" | "undo" | "redo":
                plan = await _plan(session, command)
                take = await _ask(ctx, opened, plan.conflicts)
                logged = True
                ctx.post(opened, await session.rewind.restore(plan, take, command=typed))
            case "fork":
                _post(ctx, opened, fork_answer(ctx, session, typed, command.prompt))
            case _:
                assert_never(command.action)
    except RewindError as exc:
        said = f"Cannot {command.action}: {exc}\n"
        _post(ctx, opened, session.rewind.answer(None if logged else typed, said))
    await ctx.flush()
    return PromptResponse(stop_reason="end_turn")


def fork_answer(
    ctx: AgentContext, session: Session, typed: str, prompt: int | None
) -> list[ClientUpdate]:
    """Fork `session` (before `prompt`, or as it is), log it, and say where the fork is."""
    forked = ctx.store.fork(session.id, prompt)
    forked.close()
    fork_id = forked.header.id
    where = f"before prompt {prompt}" if prompt else "as it is now"
    text = f"Forked this session {where} as {fork_id}; open it from the session list.\n"
    return session.rewind.answer(typed, text, fork=fork_id, prompt=prompt)


def _post(ctx: AgentContext, opened: OpenSession, updates: Sequence[ClientUpdate]) -> None:
    for update in updates:
        ctx.post(opened, update)


async def _plan(session: Session, command: CheckpointCommand) -> RestorePlan:
    match command.action:
        case "undo":
            return await session.rewind.plan_undo()
        case "redo":
            return await session.rewind.plan_redo()
        case "rewind" | "fork":
            assert command.prompt is not None
            return await session.rewind.plan_rewind(command.prompt)
        case _:
            assert_never(command.action)


async def _ask(ctx: AgentContext, opened: OpenSession, conflicts: Sequence[Conflict]) -> set[str]:
    """The conflicting paths the person takes from the checkpoint, one request each."""
    take: set[str] = set()
    await ctx.flush()
    root = opened.session.rewind.root
    for conflict in conflicts:
        if conflict.take is None:
            continue  # nothing can be put there (a directory stands there now): it stays
        text = f"{conflict.path}: {conflict.reason}."
        if conflict.diff:
            text += f"\n\nTaking the checkpoint's version:\n\n```diff\n{conflict.diff}\n```"
        tool_call = ToolCallUpdate(
            tool_call_id=f"restore-{secrets.token_hex(4)}",
            title=f"Restore {conflict.path}?",
            kind="edit",
            status="pending",
            content=[tool_content(text_block(text))],
            locations=[ToolCallLocation(path=str(root / conflict.path))],
            field_meta={"tether": {"reason": conflict.reason}},
        )
        response = await ctx.client.request_permission(
            session_id=opened.session.id, tool_call=tool_call, options=_OPTIONS
        )
        outcome = response.outcome
        if isinstance(outcome, AllowedOutcome) and outcome.option_id == TAKE:
            take.add(conflict.path)
    return take
