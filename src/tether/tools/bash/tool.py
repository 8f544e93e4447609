"""The `bash` tool: run a shell command in the workspace and show it as a terminal card."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, Field, JsonValue, field_validator

from tether import views
from tether.content import ContentBlock, TextContent
from tether.errors import ToolError
from tether.lazy import logger
from tether.sandbox.modes import DEFAULT_SANDBOX_MODE, UNSANDBOXED, mode_label
from tether.tools.arguments import Alias, ArgumentAlias, ToolArguments
from tether.tools.base import Tool
from tether.tools.bash.card import card_notes
from tether.tools.card_context import CardContext
from tether.tools.result import ToolResult
from tether.views import TerminalCallView
from tether.views.trusted import trusted

if TYPE_CHECKING:
    # A command's run loads these (its process group, its output, its value), not the cards a
    # replay shows from what the result stored (`tether show`).
    from tether.sandbox.gitdefuse import Defused
    from tether.sandbox.policy import Confinement, SandboxPolicy
    from tether.tools.bash.output import OutputCapture
    from tether.tools.bash.value import BashValue
    from tether.tools.context import ToolContext
    from tether.views import ToolResultView

__all__ = [
    "DEFAULT_TIMEOUT_MS",
    "MAX_TIMEOUT_MS",
    "NO_BACKGROUND",
    "REPORT_INTERVAL",
    "RUNNING_TAIL_CHARS",
    "BashArgs",
    "BashTool",
]

log = logger(__name__)  # `logging` loads when it first logs

DEFAULT_TIMEOUT_MS = 120_000
MAX_TIMEOUT_MS = 600_000
NO_BACKGROUND = (
    "background commands are not available here: a call runs until its command ends or times "
    f"out. Run it in the foreground with timeout_ms (at most {MAX_TIMEOUT_MS}), and redirect "
    "its output to a file to read later if it is long."
)
"""Why `run_in_background: true` is refused where a call has no session's jobs to join."""
FIRST_OUTPUT_SECONDS = 1.0
"""How long a background command's call waits for its first output before it returns."""
REPORT_INTERVAL = 0.25
"""Seconds between live output updates: at most four a second."""
RUNNING_TAIL_CHARS = 4096
"""How much of the output a live update carries: its tail; the result carries all it keeps."""

DESCRIPTION = f"""\
Run a shell command with `bash -c` in the workspace directory and get back its output \
(stdout and stderr merged, in the order they were written) and its exit code.

- Each call starts a fresh shell: `cd`, exported variables and shell functions do not carry \
over to the next call. Chain dependent steps with `&&`.
- Stdin is closed: a command that waits for input gets end-of-file at once. Pass flags such \
as `--yes` or `-y` instead of expecting prompts.
- The timeout is {DEFAULT_TIMEOUT_MS} ms by default and at most {MAX_TIMEOUT_MS} ms \
(`timeout_ms`). On timeout the whole process group gets SIGTERM, then SIGKILL 2 s later.
- Background jobs (`cmd &`) do not outlive the call: whatever is still running when the \
command ends is stopped the same way. For a server, a watcher or a long build, pass \
`run_in_background: true`: the call returns at once with an id (`shell-1`) and the first \
output; read more with `bash_output`, stop it with `kill_shell`. At most 8 run at once, and \
all stop when the session ends.
- Output longer than 30,000 characters is cut in the middle: the start and the end are kept. \
Redirect large output to a file and read the part you need.
- A non-zero exit code is reported, not treated as a failure of the tool.
- Prefer the file tools (`read`, `edit`, `write`) over `cat`, `sed` or `echo >` for files.
- Commands may run in a sandbox (the environment says which): the filesystem is read-only \
outside the workspace, /tmp is private, and the network is off unless the session allows it. \
A command that must write outside or use the network (a package install, `git push`) can \
pass `unsandboxed: true`; the person is then asked every time.
"""


class BashArgs(ToolArguments):
    """Arguments of `bash`."""

    command: str = Field(description="The command to run with `bash -c`.")
    description: str | None = Field(
        default=None,
        description="What the command does, in 5-10 words, shown to the person watching.",
    )
    timeout_ms: int | None = Field(
        default=None,
        ge=1,
        le=MAX_TIMEOUT_MS,
        description=(
            f"Timeout in milliseconds (default {DEFAULT_TIMEOUT_MS}, at most {MAX_TIMEOUT_MS})."
        ),
    )
    run_in_background: bool = Field(
        default=False,
        strict=True,
        description=(
            "Start it and return at once with an id (shell-N) and its first output; read more "
            "with bash_output, stop it with kill_shell."
        ),
    )
    unsandboxed: bool = Field(
        default=False,
        strict=True,
        description=(
            "Run outside the sandbox, with the network and write access outside the workspace."
            " Only when the sandbox blocked the command; the person is asked every time."
        ),
    )

    @field_validator("command")
    @classmethod
    def _not_blank(cls, command: str) -> str:
        if not command.strip():
            raise ValueError("command is empty")
        # An argument of exec cannot hold these; refuse before anyone is asked to allow it.
        if "\0" in command:
            raise ValueError("command holds a NUL character")
        try:
            os.fsencode(command)
        except UnicodeEncodeError:
            raise ValueError("command holds a lone surrogate, which is not text") from None
        return command


class BashTool(Tool[BashArgs, "BashValue"]):
    """Runs a command in its own process group with a timeout, streaming its output."""

    name: ClassVar[str] = "bash"
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = BashArgs
    aliases: ClassVar[tuple[ArgumentAlias, ...]] = (
        Alias("timeout", "timeout_ms"),  # Claude Code's and opencode's name, in ms too
    )

    async def execute(self, args: BashArgs, ctx: ToolContext) -> BashValue:
        """Ask the gate, run the command (confined unless it may not be), keep its output."""
        # Loaded with a command run, not with the cards a replay shows (`tether show`).
        import asyncio

        from tether.sandbox.bwrap import find_bwrap
        from tether.sandbox.created import created_and_defused
        from tether.sandbox.limits import limits_hit
        from tether.sandbox.policy import confinement
        from tether.tools.access import Access, CommandAccess, UnsandboxedAccess
        from tether.tools.bash.detach import moved_value, run_detachable
        from tether.tools.bash.group import signal_name
        from tether.tools.bash.output import OutputCapture
        from tether.tools.bash.process import run_command
        from tether.tools.bash.value import BashValue

        policy = self.sandbox
        if ctx.gate.planning:
            # Plan mode changes nothing: commands inspect, in the read-only sandbox only.
            policy = replace(policy, mode="read-only")
        bwrap = None if args.unsandboxed or not policy.sandboxed else find_bwrap()
        problem = bwrap.problem if bwrap is not None else None
        access: Access = (
            UnsandboxedAccess(command=args.command, tool_call_id=ctx.tool_call_id)
            if args.unsandboxed and policy.sandboxed
            else CommandAccess(
                command=args.command, sandbox_problem=problem, tool_call_id=ctx.tool_call_id
            )
        )
        await ctx.authorize(access)
        if problem is not None:
            _notice_once(problem)
        confine = None
        if bwrap is not None and bwrap.works and bwrap.path is not None:
            confine = confinement(bwrap, policy, ctx.workspace.roots, self._environ())
        cwd = ctx.workspace.cwd
        if not cwd.is_dir():
            raise ToolError(f"Cannot run the command: the working directory {cwd} does not exist")
        if args.run_in_background:
            return await self._background(args, ctx, confine, policy if confine else None, problem)
        timeout_ms = args.timeout_ms or DEFAULT_TIMEOUT_MS
        capture = OutputCapture()
        reporter = asyncio.ensure_future(_report(capture, args.command, ctx.report))
        env = self._environ() if self.env else None
        try:
            if ctx.jobs is None:
                finished = await run_command(
                    args.command,
                    cwd,
                    timeout=timeout_ms / 1000,
                    cancelled=ctx.cancelled,
                    capture=capture,
                    confine=confine,
                    env=env,
                )
            else:
                ran = await run_detachable(
                    args.command,
                    cwd,
                    jobs=ctx.jobs,
                    tool_call_id=ctx.tool_call_id,
                    timeout=timeout_ms / 1000,
                    cancelled=ctx.cancelled,
                    capture=capture,
                    confine=confine,
                    env=env,
                )
                if ran.job is not None:
                    return moved_value(args.command, str(cwd), ran.job, policy if confine else None)
                assert ran.finished is not None
                finished = ran.finished
        except OSError as exc:
            raise ToolError(f"Cannot run the command: {exc}") from exc
        finally:
            reporter.cancel()
        sandbox = policy if confine is not None else None
        created: list[str] = []
        defused: tuple[Defused, ...] = ()
        if confine is not None:
            created, defused = await asyncio.to_thread(
                created_and_defused, confine, ctx.workspace.roots
            )
        return BashValue(
            command=args.command,
            cwd=str(cwd),
            card=capture.card(),
            model=capture.model(),
            exit_code=finished.exit_code,
            signal=None if finished.signal is None else signal_name(finished.signal),
            stopped=finished.stopped,
            timeout_ms=timeout_ms,
            detached=finished.detached,
            leftovers=finished.leftovers,
            survivors=finished.survivors,
            limits=limits_hit(capture.model().text(), sandbox, finished.stopped),
            created_protected=tuple(created),
            defused=defused,
            sandbox=sandbox,
            sandbox_problem=problem,
        )

    async def _background(
        self,
        args: BashArgs,
        ctx: ToolContext,
        confine: Confinement | None,
        sandbox: SandboxPolicy | None,
        problem: str | None,
    ) -> BashValue:
        """Start the command as the session's next job; return with its first output."""
        import asyncio

        from tether.tools.bash.group import signal_name
        from tether.tools.bash.value import BashValue

        if ctx.jobs is None:
            raise ToolError(NO_BACKGROUND)
        job = await ctx.jobs.start(
            args.command,
            ctx.workspace.cwd,
            confine=confine,
            env=self._environ() if self.env else None,
            tool_call_id=ctx.tool_call_id,
        )
        deadline = asyncio.get_running_loop().time() + FIRST_OUTPUT_SECONDS
        while job.running and not job.capture.version:
            if asyncio.get_running_loop().time() >= deadline:
                break
            await asyncio.sleep(0.05)
        first = ctx.jobs.read(job.id)
        ended = job.finished()
        job.shown = job.capture.version  # the card below shows the output up to here
        return BashValue(
            command=args.command,
            cwd=str(ctx.workspace.cwd),
            card=job.capture.card(),
            model=first.output,
            exit_code=ended.exit_code if ended is not None else None,
            signal=signal_name(ended.signal) if ended and ended.signal is not None else None,
            stopped=ended.stopped if ended is not None else None,
            timeout_ms=0,
            detached=False,
            sandbox=sandbox,
            sandbox_problem=problem,
            background=job.id,
        )

    def render(self, args: BashArgs, value: BashValue) -> list[ContentBlock]:
        """The output without escape sequences (at most 30,000 characters) and how it ended."""
        from tether.tools.bash.value import model_text  # loaded by the run that made `value`

        return [TextContent(text=model_text(value))]

    def presentation_meta(self, args: BashArgs, value: BashValue) -> JsonValue:
        """`{command, cwd, output, exitCode | signal, timedOut?, cancelled?, stoppedProcesses?,
        survivingProcesses?}`."""
        from tether.tools.bash.value import card_meta  # loaded by the run that made `value`

        return card_meta(value)

    def failed(self, args: BashArgs, result: ToolResult) -> bool:
        """A command that was cancelled, timed out or killed by a signal failed; one that
        exited, whatever its code, completed (its exit code is the model's to judge)."""
        meta = result.meta
        if result.is_error or not isinstance(meta, dict):
            return result.is_error
        return (
            meta.get("signal") is not None
            or meta.get("timedOut") is True
            or meta.get("cancelled") is True
        )

    def __init__(
        self, sandbox: SandboxPolicy | None = None, env: Mapping[str, str] | None = None
    ) -> None:
        self._sandbox = sandbox
        self.env = dict(env or {})
        """Variables set for every command on top of tether's own environment (the settings'
        `env`); inside the sandbox, secret-looking names still need `sandbox.env`."""

    @property
    def sandbox(self) -> SandboxPolicy:
        """How commands are confined (by default: workspace writable, no network); a session's
        can be switched (an ACP config option) between calls."""
        if self._sandbox is None:
            # Made when first asked for: a replay's cards name the binding stored with each
            # call, and load no sandbox policy (nor its mounts) to show them.
            from tether.sandbox.policy import SandboxPolicy

            self._sandbox = SandboxPolicy()
        return self._sandbox

    @sandbox.setter
    def sandbox(self, policy: SandboxPolicy) -> None:
        self._sandbox = policy

    def _label(self) -> str:
        """The sandbox's label; the default policy's is said without making the policy (a
        replay of calls stored without their binding)."""
        if self._sandbox is None:
            return mode_label(DEFAULT_SANDBOX_MODE, allow_network=False)  # `SandboxPolicy()`'s
        return self._sandbox.label()

    def _environ(self) -> dict[str, str]:
        return {**os.environ, **self.env}

    def binding(self, planning: bool = False) -> str:
        """How a command runs now: the sandbox's label (read-only while planning), or
        `unsandboxed` where it cannot start."""
        from tether.sandbox.bwrap import find_bwrap  # with the session, not a replay's cards

        policy = replace(self.sandbox, mode="read-only") if planning else self.sandbox
        if policy.sandboxed and not find_bwrap().works:
            return UNSANDBOXED
        return policy.label()

    def present_call(self, args: BashArgs, context: CardContext) -> TerminalCallView:
        """A terminal card titled by the command, with where and how it runs.

        How is the stored binding; a call stored without one gets the sandbox's own label.
        """
        how = UNSANDBOXED if args.unsandboxed else context.binding or self._label()
        # The arguments were validated and the context is typed: made without a second check.
        return trusted(TerminalCallView)(
            title=args.command, description=args.description, cwd=context.cwd, sandbox=how
        )

    def present_result(
        self, args: BashArgs, result: ToolResult, context: CardContext
    ) -> ToolResultView | None:
        """The terminal card from the stored meta; `None` (the generic card) if it is unusable."""
        meta = result.meta
        if result.is_error or not isinstance(meta, dict):
            return None
        output = meta.get("output")
        exit_code = meta.get("exitCode")
        sig = meta.get("signal")
        if not isinstance(output, str):
            return None
        if exit_code is not None and (
            isinstance(exit_code, bool) or not isinstance(exit_code, int)
        ):
            return None
        if sig is not None and not isinstance(sig, str):
            return None
        background = meta.get("background")
        if (exit_code is None) == (sig is None) and not isinstance(background, str):
            return None
        if exit_code is not None and sig is not None:
            return None
        notes = card_notes(meta)
        if isinstance(background, str) and exit_code is None and sig is None:
            notes = (*notes, f"running in the background as {background}")
        # Each value was checked above (a replay makes one per command): not validated again.
        return trusted(views.TerminalResultView)(
            title=args.command,
            output=output,
            exit_code=exit_code,
            signal=sig,
            notes=notes or None,
        )


async def _report(
    capture: OutputCapture, title: str, report: Callable[[ToolResultView], None]
) -> None:
    """Send the tail of the output whenever it changed, at most once per interval."""
    import asyncio

    seen = 0
    while True:
        await asyncio.sleep(REPORT_INTERVAL)
        if capture.version != seen:
            seen = capture.version
            report(views.TerminalResultView(title=title, output=capture.recent(RUNNING_TAIL_CHARS)))


_noticed: set[str] = set()


def _notice_once(problem: str) -> None:
    """Say once per process, where people look (the terminal, an editor's log), why."""
    if problem not in _noticed:
        _noticed.add(problem)
        log.warning("the sandbox cannot start (%s); commands run unsandboxed", problem)
