"""`!command`: the person runs a command through the `bash` tool, and the model hears of it.

It goes through the session's gate in the current mode and its sandbox, exactly as the
model's commands do, and shows the same terminal card. What the model would have read is
kept, and sent with the next prompt (`<bash-input>` and `<bash-output>` blocks), so the model
knows what was run and what it printed.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass

from tether.content import TextContent
from tether.policy import PermissionOutcome
from tether.session import Session
from tether.session.updates import ClientUpdate, ToolCallFinished, ToolCallPartial, ToolCallStarted
from tether.tools.access import Access
from tether.tools.card_context import CardContext
from tether.tools.context import ToolContext
from tether.tools.invocation import invoke, parse_arguments
from tether.tools.present import call_view, result_view
from tether.tools.result import ToolResult
from tether.views import ToolResultView

__all__ = ["BASH", "ShellRun", "run_shell"]

BASH = "bash"
_numbers = itertools.count(1)


@dataclass(frozen=True)
class ShellRun:
    """A command the person ran, and what the model will be told of it."""

    command: str
    for_model: TextContent


async def run_shell(
    session: Session,
    command: str,
    emit: Callable[[ClientUpdate], None],
    cancelled: asyncio.Event,
) -> ShellRun | None:
    """Run `command` as a `bash` call of the person's; `None` when the session has no bash."""
    tool = session.tools.get(BASH)
    if tool is None:
        return None
    call_id = f"shell-{next(_numbers)}"
    raw = json.dumps({"command": command, "description": "Run by you with !"})
    args = parse_arguments(tool, raw)
    context = CardContext(cwd=str(session.cwd), binding=tool.binding())
    if isinstance(args, ToolResult):
        result = args
        started = call_view(BASH, raw, tool, None, context)
        emit(ToolCallStarted(tool_call_id=call_id, name=BASH, arguments=raw, view=started))
        emit(_finished(call_id, result_view(tool, None, result, context), result, None))
        return ShellRun(command, _for_model(command, result))
    emit(
        ToolCallStarted(
            tool_call_id=call_id,
            name=BASH,
            arguments=raw,
            view=call_view(BASH, raw, tool, args, context),
        )
    )
    outcomes: list[PermissionOutcome] = []
    gate = session.gate
    before = gate.on_outcome

    def settled(access: Access, outcome: PermissionOutcome) -> None:
        outcomes.append(outcome)

    # Nothing else runs meanwhile: the person's command settles its own question.
    gate.on_outcome = settled
    try:
        ctx = ToolContext(
            workspace=session.workspace,
            gate=gate,
            cancelled=cancelled,
            report=lambda view: emit(ToolCallPartial(tool_call_id=call_id, view=view)),
            tool_call_id=call_id,
        )
        result = await invoke(tool, args, ctx)
    finally:
        gate.on_outcome = before
    view = result_view(tool, args, result, context)
    emit(_finished(call_id, view, result, outcomes[-1] if outcomes else None))
    return ShellRun(command, _for_model(command, result))


def _finished(
    call_id: str, view: ToolResultView, result: ToolResult, permission: PermissionOutcome | None
) -> ToolCallFinished:
    return ToolCallFinished(
        tool_call_id=call_id,
        status="failed" if result.is_error else "completed",
        view=view,
        result=result,
        permission=permission,
    )


def _for_model(command: str, result: ToolResult) -> TextContent:
    return TextContent(
        text=(
            "The person ran a command in the workspace themselves:\n"
            f"<bash-input>{command}</bash-input>\n<bash-output>{result.text()}</bash-output>"
        )
    )
