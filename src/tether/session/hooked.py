"""A session's hooks: run at its events, every run logged as a `hook/run` event and shown as
a notice, and what each decision means for the turn.

| event              | when                                    | a block                 |
|--------------------|-----------------------------------------|-------------------------|
| `SessionStart`     | a session's first prompt in the process | (context only)          |
|                    | (`startup`, `resume`, `clear`); after a |                         |
|                    | summary compacted it (`compact`)        |                         |
| `UserPromptSubmit` | each prompt (not `/compact`)            | drops the prompt        |
| `PreToolUse`       | before each call runs                   | refuses the call        |
| `PermissionRequest`| a call's question is about to be shown  | refuses (or allows what |
|                    |                                         | a rule could allow)     |
| `PostToolUse`      | after a call that succeeded             | gives feedback          |
| `PostToolUseFailure`| after a call that failed               | gives feedback          |
| `Notification`     | a person is asked for permission        | (nothing)               |
| `Stop`             | the model ends its turn                 | goes on (5 in a row)    |
| `SubagentStart`    | an agent (a `task` call's child) starts | (context only)          |
| `SubagentStop`     | an agent ends                           | goes on (5 in a row)    |
| `PreCompact`       | before compacting                       | cancels a `/compact`    |
| `SessionEnd`       | the session closes                      | (nothing)               |

A child session runs only the hooks about its calls, `SubagentStart`, `SubagentStop` and
`Notification` (through its parent's asker); the others belong to the session a person
started.

Hooks run in the session's sandbox; one that runs outside it (`"sandbox": false`) and whose
files changed after a tool call is asked about here, as the session asks for a tool's
access (`tether.hooks.guard`).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, Literal

from tether.content import ContentBlock, TextContent
from tether.errors import PermissionDenied
from tether.hooks import HookRun, Hooks, SessionFacts, tool_fields, tool_response
from tether.hooks.config import ConfiguredHook
from tether.hooks.engine import not_run
from tether.hooks.guard import HookGuard
from tether.hooks.transcript import ClaudeTranscript
from tether.policy import (
    DelegatedAccess,
    PermissionAnswer,
    PermissionChoice,
    PermissionQuestion,
    PolicyGate,
    RejectWithMessage,
    ServerStart,
    WorkspaceTrust,
)
from tether.sandbox.policy import SandboxPolicy
from tether.session.log.eventlog import EventLog
from tether.session.log.events import HookRunEvent
from tether.session.replay import hook_update
from tether.session.updates import ClientUpdate
from tether.settings.schema import HookEvent
from tether.tools.access import HookVerdict, UnsandboxedAccess
from tether.tools.result import ToolResult
from tether.tools.workspace import Workspace

__all__ = ["MAX_STOP_CONTINUATIONS", "OnUpdate", "SessionHooks"]

MAX_STOP_CONTINUATIONS = 5
"""Times in a row `Stop` (or `SubagentStop`) hooks may make the model go on; then it stops."""

OnUpdate = Callable[[ClientUpdate], None]

StartSource = Literal["startup", "resume", "clear", "compact"]

HOOK_RUN_OPTIONS = (
    PermissionChoice("allow_once", "Run it as it is now"),
    PermissionChoice("reject", "Do not run it"),
)
"""What a person may answer about an unsandboxed hook whose files changed."""


class SessionHooks:
    """Runs one session's hooks and logs them; the session asks it at each event."""

    def __init__(
        self,
        log_: EventLog,
        gate: PolicyGate,
        workspace: Workspace,
        *,
        child: bool,
        sandbox: Callable[[], SandboxPolicy | None],
        guard: HookGuard,
        agent: str | None = None,
    ) -> None:
        self._log = log_
        self._gate = gate
        self._cwd = workspace.cwd
        self.child = child
        self.agent = agent or "general"
        """The agent a child runs as: its `SubagentStart` and `SubagentStop` hooks' subject."""
        self._calls: dict[str, tuple[str, str]] = {}
        """The calls running now, by id: their tool and arguments (a `PermissionRequest`'s)."""
        self._transcript = ClaudeTranscript(
            log_.path, log_.header.id, workspace.cwd, sidechain=child
        )
        self.engine = Hooks(
            lambda: gate.settings,
            self._facts,
            sandbox=sandbox,
            workspace=workspace,
            guard=guard,
            approve=self._approve,
            before=self._transcript.update,
        )
        self.stopped: str | None = None
        """Set when a hook stopped the turn (`"continue": false`): why."""
        self.started = False
        """Whether `SessionStart` ran for this session in this process."""
        self.start_source: StartSource | None = None
        """What the first `SessionStart` is told when it is neither `startup` nor `resume`:
        `clear` for a session that replaces one the person cleared."""
        self._background: set[asyncio.Future[list[HookRun]]] = set()

    @property
    def screens_prompts(self) -> bool:
        """Whether `UserPromptSubmit` hooks would see (and may block) a prompt now."""
        return not self.child and bool(self.engine.configured("UserPromptSubmit"))

    async def opening(
        self, prompt: Sequence[ContentBlock], emit: OnUpdate, *, resumed: bool, command: bool
    ) -> bool:
        """Before the model sees a prompt: `SessionStart` the first time, then
        `UserPromptSubmit` (not for a `command` such as `/compact`). `False`: a hook blocked it.
        Every hook's notice goes to `emit` (as in every method here: the prompt's output)."""
        self.stopped = None
        if self.child:
            if not self.started:
                self.started = True
                # What it adds reaches the agent with its prompt; it cannot stop the agent.
                await self._run("SubagentStart", self._agent_fields(), emit, subject=self.agent)
            return True
        if not self.started:
            self.started = True
            source = self.start_source or ("resume" if resumed else "startup")
            await self._run("SessionStart", {"source": source}, emit, subject=source)
        if command:
            return True
        text = "\n".join(b.text for b in prompt if isinstance(b, TextContent))
        runs = await self._run("UserPromptSubmit", {"prompt": text}, emit)
        return not any(r.decision in ("block", "stop") for r in runs)

    async def compacted(self, emit: OnUpdate) -> None:
        """`SessionStart` with source `compact`: a summary replaced the conversation, and what
        the hooks add follows it (as after a start, their context is not lost with the rest)."""
        if not self.child:
            await self._run("SessionStart", {"source": "compact"}, emit, subject="compact")

    async def before_call(
        self, call_id: str, name: str, arguments: str, emit: OnUpdate
    ) -> ToolResult | HookVerdict | None:
        """`PreToolUse`: the error result when a hook refuses the call; otherwise whether a
        hook allows it or asks, which goes with the call to the gate (`None`: neither)."""
        # From now on a change to what an unsandboxed hook runs may be this call's doing.
        self.engine.guard.arm()
        self._calls[call_id] = (name, arguments)
        fields = tool_fields(name, arguments, call_id, self._cwd)
        runs = await self._run("PreToolUse", fields, emit, subject=name, tool_call_id=call_id)
        for run in runs:
            if run.decision == "stop":
                why = f": {run.reason}" if run.reason else ""
                return ToolResult.error(
                    f"The PreToolUse hook `{run.command}` stopped the turn{why}. "
                    "The call did not run."
                )
        denied = [run for run in runs if run.decision == "deny"]
        if denied:
            return ToolResult.error("\n".join(_denial(run) for run in denied))
        asking = [run for run in runs if run.decision == "ask"]
        if asking:
            why = "; ".join(_said(run) for run in asking)
            return HookVerdict("ask", f"the PreToolUse hook asks ({why})")
        if any(run.decision == "allow" for run in runs):
            return HookVerdict("allow")
        return None

    def forget(self, call_id: str) -> None:
        """The call ran: it is no longer one whose hooks may be asked about."""
        self._calls.pop(call_id, None)

    async def after_call(
        self, call_id: str, name: str, arguments: str, result: ToolResult, emit: OnUpdate
    ) -> None:
        """`PostToolUse` after a call that succeeded, `PostToolUseFailure` after one that
        failed (what a hook says follows its result)."""
        fields = tool_fields(name, arguments, call_id, self._cwd)
        if result.is_error:
            meta = result.meta if isinstance(result.meta, dict) else {}
            fields["error"] = result.text()
            fields["is_interrupt"] = bool(meta.get("cancelled"))
            await self._run("PostToolUseFailure", fields, emit, subject=name, tool_call_id=call_id)
            return
        fields["tool_response"] = tool_response(name, result, fields["tool_input"])
        await self._run("PostToolUse", fields, emit, subject=name, tool_call_id=call_id)

    async def permission_request(
        self, request: PermissionQuestion, emit: OnUpdate
    ) -> PermissionAnswer | None:
        """`PermissionRequest`, as a call's question is about to be shown: the answer a hook
        gave (`None`: ask the person). A hook's `allow` answers only a question an allow rule
        could have settled; `deny` any."""
        subject = request.subject
        if isinstance(subject, DelegatedAccess | ServerStart | WorkspaceTrust):
            return None  # not a call of this session's (an agent's names its `task` call)
        known = self._calls.get(subject.tool_call_id)
        if known is None:
            return None
        call_id = subject.tool_call_id
        name, arguments = known
        fields = tool_fields(name, arguments, call_id, self._cwd)
        fields["permission_suggestions"] = []
        runs = await self.engine.run(
            "PermissionRequest", fields, subject=name, tool_call_id=call_id
        )
        answer: PermissionAnswer | None = None
        for index, run in enumerate(runs):
            if run.decision in ("deny", "stop") and answer is None:
                answer = RejectWithMessage(run.reason) if run.reason else "reject"
            elif run.decision == "allow" and not request.allowable:
                note = "not followed: only a person may allow this (no allow rule could)"
                runs[index] = dataclasses.replace(run, note=note)
        if answer is None and any(r.decision == "allow" for r in runs) and request.allowable:
            answer = "allow_once"
        self._record(runs, emit)
        return answer

    async def stop(self, continued: int, emit: OnUpdate) -> bool:
        """`Stop` (`SubagentStop` in a child) as the model ends: whether it must go on."""
        event: HookEvent = "SubagentStop" if self.child else "Stop"
        fields: dict[str, Any] = {"stop_hook_active": continued > 0}
        if self.child:
            fields |= self._agent_fields()
            fields["agent_transcript_path"] = str(self._transcript.path)
        runs = await self.engine.run(event, fields, subject=self.agent if self.child else None)
        if any(run.decision == "stop" for run in runs):
            self._record(runs, emit)
            return False
        wanted = any(run.decision == "block" for run in runs)
        if wanted and continued >= MAX_STOP_CONTINUATIONS:
            note = (
                f"not followed: {event} hooks already made the model go on "
                f"{MAX_STOP_CONTINUATIONS} times in a row"
            )
            runs = [
                dataclasses.replace(run, context=None, note=note)
                if run.decision == "block"
                else run
                for run in runs
            ]
            wanted = False
        self._record(runs, emit)
        return wanted

    async def pre_compact(
        self, trigger: Literal["manual", "auto"], focus: str | None, emit: OnUpdate
    ) -> bool:
        """`PreCompact`: whether a hook blocked it (only a manual compaction can be)."""
        fields = {"trigger": trigger, "custom_instructions": focus or ""}
        runs = await self.engine.run("PreCompact", fields, subject=trigger)
        if trigger == "auto":
            note = "not followed: an automatic compaction is not blocked"
            runs = [
                dataclasses.replace(run, note=note) if run.decision == "block" else run
                for run in runs
            ]
        self._record(runs, emit)
        return trigger == "manual" and any(r.decision in ("block", "stop") for r in runs)

    def notify(self, message: str, emit: OnUpdate) -> None:
        """`Notification`: a person is asked; the hooks run beside the question."""
        fields = {"message": message, "notification_type": "permission_prompt"}
        running = self._run("Notification", fields, emit, subject="permission_prompt")
        task = asyncio.ensure_future(running)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def settle(self) -> None:
        """Wait for the hooks that run beside the turn (a notification's), so their runs are
        logged before it ends."""
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    def drop_background(self) -> None:
        """The turn ended before they did: stop the hooks that ran beside it."""
        for task in list(self._background):
            task.cancel()

    async def end(self, reason: str, emit: OnUpdate) -> None:
        """`SessionEnd`, as the session closes."""
        if not self.child:
            await self._run("SessionEnd", {"reason": reason}, emit, subject=reason)

    async def _run(
        self,
        event: HookEvent,
        fields: dict[str, Any],
        emit: OnUpdate,
        *,
        subject: str | None = None,
        tool_call_id: str | None = None,
    ) -> list[HookRun]:
        runs = await self.engine.run(event, fields, subject=subject, tool_call_id=tool_call_id)
        self._record(runs, emit)
        return runs

    def _record(self, runs: Sequence[HookRun], emit: OnUpdate) -> None:
        for run in runs:
            if run.decision == "stop":
                self.stopped = run.reason or f"the {run.event} hook stopped the turn"
            logged = self._log.append(_event(run))
            emit(hook_update(logged))

    async def _approve(
        self, hook: ConfiguredHook, changed: list[str], tool_call_id: str | None
    ) -> str | None:
        """Ask whether an unsandboxed hook may run on files that changed; why not, if not."""
        # The gate's own asker, not a turn's `NotifyingAsker`: a question about a hook must
        # not run the `Notification` hooks again.
        asker = self._gate.asker
        if asker is None:
            return not_run(changed, "there is no one to ask in this session")
        shown = "\n".join(changed)
        reason = (
            f"the {hook.event} hook ({hook.source}) runs outside the sandbox, and what it runs "
            f"changed after a tool call of this session:\n{shown}"
        )
        question = PermissionQuestion(
            subject=UnsandboxedAccess(command=hook.command),
            options=HOOK_RUN_OPTIONS,
            reason=reason,
        )
        try:
            answer = await asker.ask(question)
        except PermissionDenied as exc:
            return not_run(changed, str(exc))
        if answer in ("allow_once", "allow_always", "allow_project"):
            return None
        return not_run(changed, "the person said not to run it")

    def _agent_fields(self) -> dict[str, Any]:
        return {"agent_id": self._log.header.id, "agent_type": self.agent}

    def _facts(self) -> SessionFacts:
        return SessionFacts(
            self._log.header.id,
            self._transcript.path,
            self._cwd,
            self._gate.mode,
            log_path=self._log.path,
        )


def _said(run: HookRun) -> str:
    return f"`{run.command}`" + (f": {run.reason}" if run.reason else "")


def _denial(run: HookRun) -> str:
    said = f": {run.reason}" if run.reason else "."
    return f"The PreToolUse hook `{run.command}` blocked this call{said}"


def _event(run: HookRun) -> HookRunEvent:
    return HookRunEvent(
        event=run.event,
        command=run.command,
        source=run.source,
        exit_code=run.exit_code,
        duration_ms=run.duration_ms,
        decision=run.decision,
        reason=run.reason or None,
        system_message=run.system_message,
        context=run.context,
        note=run.note,
        stdout=run.stdout,
        stderr=run.stderr,
        error=run.error,
        tool_call_id=run.tool_call_id,
    )
