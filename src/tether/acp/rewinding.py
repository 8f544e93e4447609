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
from tether.errors import RewindError
from tether.session import Conflict, Session
from tether.session.rewind import conflicts
from tether.session.rewind.rewinder import Forked, Listing, Restored
from tether.session.updates import ClientUpdate

__all__ = ["TAKE", "checkpoint_command"]

TAKE = "take_checkpoint"
"""The option id that restores a conflicting file; any other answer keeps it."""

_OPTIONS = [
    PermissionOption(option_id=TAKE, name=conflicts.TAKE, kind="allow_once"),
    PermissionOption(option_id="keep_mine", name=conflicts.KEEP, kind="reject_once"),
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
    try:
        done = await session.rewind.run(command, AcpConflicts(ctx, opened), typed=typed)
        match done:
            case Listing(text=text):
                _post(ctx, opened, session.rewind.answer(typed, text + "\n"))
            case Restored(notice=notice):
                ctx.post(opened, notice)
            case Forked():
                _post(ctx, opened, fork_answer(session, typed, done))
            case _:
                assert_never(done)
    except RewindError as exc:
        said = f"Cannot {command.action}: {exc}\n"
        _post(ctx, opened, session.rewind.answer(typed, said))
    await ctx.flush()
    return PromptResponse(stop_reason="end_turn")


def fork_answer(session: Session, typed: str, forked: Forked) -> list[ClientUpdate]:
    """Log the fork `session` made and say where it is."""
    where = f"before prompt {forked.prompt}" if forked.prompt else "as it is now"
    text = f"Forked this session {where} as {forked.session_id}; open it from the session list.\n"
    return session.rewind.answer(typed, text, fork=forked.session_id, prompt=forked.prompt)


def _post(ctx: AgentContext, opened: OpenSession, updates: Sequence[ClientUpdate]) -> None:
    for update in updates:
        ctx.post(opened, update)


class AcpConflicts:
    """Each conflict asked with `session/request_permission`: its reason and a short diff."""

    def __init__(self, ctx: AgentContext, opened: OpenSession) -> None:
        self._ctx = ctx
        self._opened = opened

    async def ask(self, conflict: Conflict) -> bool:
        """Whether the person picked `TAKE` (a cancelled request keeps the file)."""
        await self._ctx.flush()  # what came before reaches the client before the question
        session = self._opened.session
        text = f"{conflict.heading}."
        if conflict.diff:
            text += f"\n\nTaking the checkpoint's version:\n\n```diff\n{conflict.diff}\n```"
        tool_call = ToolCallUpdate(
            tool_call_id=f"restore-{secrets.token_hex(4)}",
            title=conflict.question,
            kind="edit",
            status="pending",
            content=[tool_content(text_block(text))],
            locations=[ToolCallLocation(path=str(session.rewind.root / conflict.path))],
            field_meta={"tether": {"reason": conflict.reason}},
        )
        response = await self._ctx.client.request_permission(
            session_id=session.id, tool_call=tool_call, options=_OPTIONS
        )
        outcome = response.outcome
        return isinstance(outcome, AllowedOutcome) and outcome.option_id == TAKE

    def keep(self, conflict: Conflict) -> None:
        """Nothing to ask: the restore's notice names the file among those kept."""
