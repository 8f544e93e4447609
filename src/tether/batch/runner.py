"""One task, start to end, in the process that runs it: its workspace, its session, its line.

The pool's workers and the Ray tasks both call `run_task`; they differ only in where the
session logs go and in what tells a task to stop (a signal, the Ray driver).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path

from tether.agents.catalog import load_agents
from tether.batch.gate import GatedModel, ModelGate, gated
from tether.batch.results import NO_USAGE, TaskResult, TaskStatus
from tether.batch.tasks import BatchTask
from tether.batch.workspaces import Workspace, prepare_workspace
from tether.content import TextContent
from tether.errors import ModelError, PromptFailed, SettingsError, SetupTimeout, WorkspaceError
from tether.models.messages import ThinkingLevel
from tether.models.script import ScriptModel
from tether.policy import PolicyMode
from tether.session import Session, SessionConfig, SessionStore
from tether.session.headless import prompt_result
from tether.session.updates import ClientUpdate
from tether.settings import SettingsFlags, load_settings
from tether.settings.values import SandboxModeName
from tether.skills import load_skills
from tether.surface import Launch, first_model, session_config

__all__ = ["DEFAULT_BATCH_MODE", "DEFAULT_BATCH_MODEL", "BatchOptions", "run_task"]

DEFAULT_BATCH_MODE: PolicyMode = "auto"
"""Tasks run unattended, inside the sandbox: auto mode unless the task or `--mode` says."""

DEFAULT_BATCH_MODEL = "openai"
"""The model when neither the task, `--model`, `$TETHER_MODEL` nor the settings name one."""


@dataclass(frozen=True, kw_only=True)
class BatchOptions:
    """What every task of a batch shares (sent to each worker: plain, picklable data)."""

    home: Path
    """The person's tether folder: their settings, agents and skills."""
    model: str | None = None
    thinking: ThinkingLevel | None = None
    base_url: str | None = None
    mode: PolicyMode | None = None
    sandbox: SandboxModeName | None = None
    allow_network: bool = False
    max_steps: int = 50
    timeout_s: float | None = None
    """A task's time limit when its line gives none (`None`: no limit)."""
    keep_workspaces: bool = False


async def run_task(
    task: BatchTask,
    options: BatchOptions,
    *,
    store: SessionStore,
    workspaces: Path,
    stop: asyncio.Event,
    attempt: int = 1,
    gate: ModelGate | None = None,
    leave_out: Path | None = None,
) -> TaskResult:
    """Run `task` in its own workspace under `workspaces`, its log in `store`; its result line.

    `stop` set while the task runs cancels its prompt (the log ends with a cancelled turn);
    set before, the task does not start. A copied folder leaves `leave_out` out (the batch's
    output folder). Nothing is raised for what the task itself did.
    """
    started = time.monotonic()

    def ended(status: TaskStatus, error: str) -> TaskResult:
        return TaskResult(
            id=task.id,
            status=status,
            usage=NO_USAGE,
            duration_ms=_ms_since(started),
            attempts=attempt,
            error=error,
            line=task.line,
        )

    if stop.is_set():
        return ended("cancelled", "cancelled before it started")
    try:
        workspace = await asyncio.to_thread(prepare_workspace, task, workspaces, leave_out)
    except (SetupTimeout, WorkspaceError) as exc:
        # Ctrl-C at a terminal reaches the setup command too: what it ended is a cancel.
        if stop.is_set():
            return ended("cancelled", f"cancelled while its workspace was prepared: {exc}")
        return ended("timeout" if isinstance(exc, SetupTimeout) else "error", str(exc))
    try:
        return await _prompt(
            task,
            options,
            workspace,
            store=store,
            stop=stop,
            gate=gate,
            started=started,
            attempt=attempt,
        )
    except (SettingsError, ModelError, WorkspaceError, ValueError, OSError) as exc:
        return ended("error", str(exc))
    finally:
        if not options.keep_workspaces:
            await asyncio.to_thread(workspace.remove)


async def _prompt(
    task: BatchTask,
    options: BatchOptions,
    workspace: Workspace,
    *,
    store: SessionStore,
    stop: asyncio.Event,
    gate: ModelGate | None,
    started: float,
    attempt: int,
) -> TaskResult:
    """The task's prompt in a new session of `store`, and its result."""
    config = _config(task, options, workspace.path, gate)
    session = Session.create(store, workspace.path, config)
    timeout = task.timeout_s or options.timeout_s
    timed_out = False
    error: str | None = None

    def time_up() -> None:
        nonlocal timed_out
        timed_out = True
        session.cancel()

    loop = asyncio.get_running_loop()
    clock = loop.call_later(timeout, time_up) if timeout is not None else None
    stopping = asyncio.ensure_future(stop.wait())
    stopping.add_done_callback(lambda _: session.cancel())
    try:
        if stop.is_set():
            stop_reason = "cancelled"
        else:
            prompt = session.prompt([TextContent(text=task.prompt)], _ignore)
            stop_reason = await prompt
    except PromptFailed as exc:
        stop_reason, error = "error", str(exc)
    finally:
        if clock is not None:
            clock.cancel()
        stopping.cancel()
        await session.aclose()
    change = await asyncio.to_thread(workspace.diff)
    summary = prompt_result(
        session.id,
        session.events,
        duration_ms=_ms_since(started),
        is_error=stop_reason != "end_turn",
    )
    status: TaskStatus
    if stop_reason == "end_turn":
        status = "done"
    elif stop_reason == "cancelled":
        status = "timeout" if timed_out else "cancelled"
        error = f"no answer within {timeout:g} s" if timed_out and timeout else None
    else:
        status = "failed"
        error = summary.error or error or f"the prompt stopped: {stop_reason}"
    return TaskResult(
        id=task.id,
        status=status,
        stop_reason=summary.stop_reason,
        usage=summary.usage,
        duration_ms=summary.duration_ms,
        attempts=attempt,
        result=summary.result,
        diff=change.text,
        diff_truncated=change.truncated or None,
        session_id=session.id,
        num_turns=summary.num_turns,
        error=error,
        line=task.line,
    )


def _config(
    task: BatchTask, options: BatchOptions, cwd: Path, gate: ModelGate | None
) -> SessionConfig:
    """The session's model, tools and policy: the person's settings, the task's choices on top."""
    flags = SettingsFlags(
        mode=task.mode or options.mode or DEFAULT_BATCH_MODE,
        model=task.model or options.model,
        thinking=options.thinking,
        sandbox_mode=options.sandbox,
        allow_network=True if options.allow_network else None,
    )
    # Never trusted: the workspace is a copy the task file's folder or repository made, at a
    # path that may have been trusted for something else (its settings' hooks would run
    # unsandboxed, its allow rules and mode apply).
    settings = load_settings(cwd.resolve(), options.home, flags=flags, trusted=False)
    launch = Launch(
        default_model=DEFAULT_BATCH_MODEL,
        base_url=options.base_url,
        max_steps=task.max_steps or options.max_steps,
        # The batch's own diff is the record of the change; snapshots would only cost time.
        checkpoints=False,
    )
    model = first_model(settings, launch)
    if isinstance(model, ScriptModel):
        gate = None  # a script calls no endpoint (and its agents replay their own scripts)
    return session_config(
        settings,
        launch,
        asker=None,  # no one is there to ask: what the mode does not allow is refused
        model=GatedModel(model, gate) if gate is not None else model,
        models=gated(launch.model, gate),
        # The person's agents and skills, although the logs are kept in the batch's folder.
        agents=load_agents(cwd, options.home),
        skills=load_skills(cwd, options.home),
    )


def _ignore(_update: ClientUpdate) -> None:
    return None


def _ms_since(started: float) -> int:
    return round((time.monotonic() - started) * 1000)
