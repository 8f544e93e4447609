"""`bash_output` and `kill_shell`: reading and stopping the session's background commands."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, Field, JsonValue

from tether.content import ContentBlock, TextContent
from tether.errors import ToolError
from tether.tools.arguments import Alias, ArgumentAlias, ToolArguments
from tether.tools.base import Tool
from tether.tools.bash.jobs import Job, JobRead, Jobs
from tether.tools.bash.value import MODEL_TEXT_LIMIT, collapse_redraws
from tether.tools.card_context import CardContext
from tether.tools.result import ToolResult
from tether.views import GenericCallView, TerminalResultView, ToolCallView, ToolResultView

if TYPE_CHECKING:
    from tether.tools.context import ToolContext

__all__ = ["BashOutputArgs", "BashOutputTool", "KillShellArgs", "KillShellTool"]

_NO_JOBS = "there are no background commands here (bash with run_in_background starts one)"

_OUTPUT_DESCRIPTION = """\
Read what a background command (started with bash `run_in_background: true`) printed since \
the last read, and whether it still runs (its exit code once it has ended). `filter` keeps \
only the lines matching a regular expression (the others are still consumed)."""

_KILL_DESCRIPTION = """\
Stop a background command and everything it started (SIGTERM, then SIGKILL 2 s later), by \
its id (`shell-1`)."""


def _jobs(ctx: ToolContext) -> Jobs:
    if ctx.jobs is None:
        raise ToolError(f"No background command: {_NO_JOBS}")
    return ctx.jobs


class BashOutputArgs(ToolArguments):
    """Arguments of `bash_output`."""

    id: str = Field(description="The background command's id, e.g. shell-1.")
    filter: str | None = Field(
        default=None, description="A regular expression: show only the lines that match it."
    )


class BashOutputTool(Tool[BashOutputArgs, JobRead]):
    """The new output of one background command, and how it stands."""

    name: ClassVar[str] = "bash_output"
    description: ClassVar[str] = _OUTPUT_DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = BashOutputArgs
    # Claude Code's names for the same arguments.
    aliases: ClassVar[tuple[ArgumentAlias, ...]] = (
        Alias("bash_id", "id"),
        Alias("shell_id", "id"),
    )

    def writes(self, args: BashOutputArgs) -> tuple[str, ...]:
        """Changes no file."""
        return ()

    async def execute(self, args: BashOutputArgs, ctx: ToolContext) -> JobRead:
        """Take what the job printed since the last read."""
        return _jobs(ctx).read(args.id, args.filter)

    def render(self, args: BashOutputArgs, value: JobRead) -> list[ContentBlock]:
        """The new output (cut to the model's limit), then the job's status."""
        job = value.job
        shown = collapse_redraws(value.shown)
        if len(shown) > MODEL_TEXT_LIMIT:
            cut = len(shown) - MODEL_TEXT_LIMIT
            shown = f"[... {cut} earlier characters not shown ...]\n{shown[cut:]}"
        if value.output.dropped:
            shown = f"[... {value.output.dropped} characters were printed and dropped ...]\n" + (
                shown
            )
        body = shown if shown.strip() else "(no new output)"
        separator = "" if body.endswith("\n") else "\n"
        return [TextContent(text=f"{body}{separator}{job.id} ({job.command}): {job.status()}")]

    def presentation_meta(self, args: BashOutputArgs, value: JobRead) -> JsonValue:
        """`{id, command, output, status, exitCode?, signal?}` for the terminal card."""
        return _job_meta(value.job, value.shown)

    def present_call(self, args: BashOutputArgs, context: CardContext) -> ToolCallView:
        """A generic card: `Output of shell-N`."""
        title = f"Output of {args.id}" + (f" matching {args.filter}" if args.filter else "")
        return GenericCallView(title=title, kind="execute")

    def present_result(
        self, args: BashOutputArgs, result: ToolResult, context: CardContext
    ) -> ToolResultView | None:
        """A terminal card of the new output and the job's status."""
        return _job_card(result)


class KillShellArgs(ToolArguments):
    """Arguments of `kill_shell`."""

    id: str = Field(description="The background command's id, e.g. shell-1.")


class KillShellTool(Tool[KillShellArgs, Job]):
    """Stops one background command and waits until it has ended."""

    name: ClassVar[str] = "kill_shell"
    description: ClassVar[str] = _KILL_DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = KillShellArgs
    aliases: ClassVar[tuple[ArgumentAlias, ...]] = (
        Alias("shell_id", "id"),
        Alias("bash_id", "id"),
    )

    def writes(self, args: KillShellArgs) -> tuple[str, ...]:
        """Changes no file itself (what the command did is its own)."""
        return ()

    async def execute(self, args: KillShellArgs, ctx: ToolContext) -> Job:
        """Stop the job's group and wait for it."""
        return await _jobs(ctx).kill(args.id)

    def render(self, args: KillShellArgs, value: Job) -> list[ContentBlock]:
        """`Stopped shell-N (command): killed by SIGTERM`."""
        return [TextContent(text=f"Stopped {value.id} ({value.command}): {value.status()}")]

    def presentation_meta(self, args: KillShellArgs, value: Job) -> JsonValue:
        """`{id, command, output, status, exitCode?, signal?}` for the terminal card."""
        return _job_meta(value, value.capture.recent(4096))

    def present_call(self, args: KillShellArgs, context: CardContext) -> ToolCallView:
        """A generic card: `Stop shell-N`."""
        return GenericCallView(title=f"Stop {args.id}", kind="execute")

    def present_result(
        self, args: KillShellArgs, result: ToolResult, context: CardContext
    ) -> ToolResultView | None:
        """A terminal card of the job's last output and how it ended."""
        return _job_card(result)


def _job_meta(job: Job, output: str) -> JsonValue:
    meta: dict[str, JsonValue] = {
        "id": job.id,
        "command": job.command,
        "output": output[-65536:],
        "status": job.status(),
    }
    ended = job.finished()
    if ended is not None and ended.signal is not None:
        meta["signal"] = job.status().removeprefix("killed by ")
    elif ended is not None:
        meta["exitCode"] = ended.exit_code
    return meta


def _job_card(result: ToolResult) -> TerminalResultView | None:
    meta = result.meta
    if result.is_error or not isinstance(meta, dict):
        return None
    job_id, command, output = meta.get("id"), meta.get("command"), meta.get("output")
    status = meta.get("status")
    if not all(isinstance(v, str) for v in (job_id, command, output, status)):
        return None
    exit_code, sig = meta.get("exitCode"), meta.get("signal")
    if exit_code is not None and (isinstance(exit_code, bool) or not isinstance(exit_code, int)):
        return None
    if sig is not None and not isinstance(sig, str):
        return None
    return TerminalResultView(
        title=f"{job_id}: {command}",
        output=str(output),
        exit_code=exit_code if sig is None else None,
        signal=sig,
        notes=(f"{job_id} {status}",),
    )
