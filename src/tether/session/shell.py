"""Commands the person runs through the `bash` tool between prompts: the terminal's `!command`
and the `` !`cmd` `` lines of a slash command's file, run before its prompt is sent.

A command the person typed runs at once: no permission question (as in Claude Code), in the
session's sandbox as the model's commands are, with the same terminal card. Only a sandbox
that cannot start stops it (it would run unconfined; `--sandbox off` says to). A command from
a file of the workspace goes through the session's gate like the model's (its mode, its rules,
its sandbox). Each is logged as a call and its result, so `tether show` and a resumed session
show the card. What the model would have read is kept: a `!command` is sent with the next
prompt (`<bash-input>` and `<bash-output>` blocks), a command file's output takes its line's
place in the prompt.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pydantic import JsonValue

from tether.content import TextContent
from tether.errors import PermissionDenied
from tether.session.calls import finished, prepare
from tether.session.log.events import ToolCallEvent, ToolResultEvent
from tether.session.session import Session
from tether.session.updates import ClientUpdate, ToolCallPartial
from tether.tools.access import Access, CommandAccess, Gate, HookVerdict, PermissionOutcome
from tether.tools.context import ToolContext
from tether.tools.invocation import check_plain_json, invoke
from tether.tools.planning import PlanVerdict
from tether.tools.result import ToolResult

__all__ = ["BASH", "ShellRun", "run_shell"]

BASH = "bash"
CALL_ID = "shell"
"""The id of the first command a person runs in a session (then `shell-2`, `shell-3`...)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ShellRun:
    """A command the person ran, and what the model will be told of it."""

    command: str
    for_model: TextContent
    result: ToolResult
    """The `bash` call's result: its output, or why it did not run."""


async def run_shell(
    session: Session,
    command: str,
    emit: Callable[[ClientUpdate], None],
    cancelled: asyncio.Event,
    *,
    typed: bool,
    description: str = "Run by you with !",
) -> ShellRun | None:
    """Run `command` as a `bash` call of the person's, logged as a call and its result so
    `tether show` and a resumed session show its card; `None` when the session has no bash.

    `typed`: the person typed the command now, so nothing is asked; a command from anywhere
    else (a file of the workspace) goes through the session's gate like the model's."""
    tool = session.tools.get(BASH)
    if tool is None:
        return None
    raw = json.dumps({"command": command, "description": description})
    logged = session.record_call(
        ToolCallEvent(tool_call_id=CALL_ID, name=BASH, arguments=raw, binding=tool.binding())
    )
    # Presented from the logged call, as a replay presents it: the cards are the same.
    call = prepare(session.tools, logged, str(session.cwd))
    emit(call.started())
    permission: PermissionOutcome | None = None
    if call.rejected is not None or call.args is None:
        result = call.rejected or ToolResult.error("the command could not be run")
    else:
        ctx = ToolContext(
            workspace=session.workspace,
            gate=_YourOwn(session.gate) if typed else session.asking(emit).gate,
            cancelled=cancelled,
            report=lambda view: emit(ToolCallPartial(tool_call_id=call.id, view=view)),
            tool_call_id=call.id,
        )
        result = await invoke(tool, call.args, ctx)
        permission = ctx.permission
    event = session.record_result(
        ToolResultEvent(
            tool_call_id=call.id,
            content=result.content,
            is_error=result.is_error,
            meta=_plain(result.meta),
            permission=permission,
        )
    )
    emit(finished(call, event))
    return ShellRun(command, _for_model(command, result), result)


class _YourOwn:
    """The gate of a command the person typed: nothing to ask them, but the sandbox holds."""

    def __init__(self, session_gate: Gate) -> None:
        self._session_gate = session_gate

    async def authorize(
        self, access: Access, hook: HookVerdict | None = None
    ) -> PermissionOutcome | None:
        """Allow, asking no one, unless the command would run outside a sandbox the session
        has."""
        if isinstance(access, CommandAccess) and access.sandbox_problem:
            raise PermissionDenied(
                f"The sandbox cannot start ({access.sandbox_problem}); a command typed with ! "
                "runs in the session's sandbox. Start tether with --sandbox off to run it "
                "without one"
            )
        return None

    def hidden(self, root: Path, tool: str) -> tuple[str, ...]:
        """What the session's rules hide from a search (bash asks nothing of it)."""
        return self._session_gate.hidden(root, tool)

    @property
    def planning(self) -> bool:
        """Never: plan mode holds the model back, not the person's own commands."""
        return False

    async def approve_plan(self, plan: str, tool_call_id: str) -> PlanVerdict:
        """A typed command has no plan to approve."""
        raise PermissionDenied("A command typed with ! has no plan to approve")


def _plain(meta: JsonValue) -> JsonValue:
    try:
        check_plain_json(meta)
    except ValueError as exc:
        log.warning("dropping meta of a command run with !: %s", exc)
        return None
    return meta


def _for_model(command: str, result: ToolResult) -> TextContent:
    return TextContent(
        text=(
            "The person ran a command in the workspace themselves:\n"
            f"<bash-input>{command}</bash-input>\n<bash-output>{result.text()}</bash-output>"
        )
    )
