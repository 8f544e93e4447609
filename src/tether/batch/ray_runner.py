"""`tether batch --ray [ADDRESS]`: the tasks as Ray tasks, on a running cluster or a local one.

Ray is imported here only, and only when a batch asks for it. Each task runs on whichever
worker Ray picks, in a temporary folder of that machine, and returns its result line, its
session logs and its diff through the object store: the driver needs no shared disk. A
worker lost mid-task is retried by Ray (`retries`); one small actor, the coordinator,
counts the attempts, holds the `--max-concurrency` gate for the whole cluster, and carries
Ctrl-C to the running tasks (they poll it and cancel their prompts).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import shutil
import signal
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from tether.batch.pool import PoolEvents
from tether.batch.results import NO_USAGE, TaskResult, TaskStatus
from tether.batch.runner import BatchOptions, run_task
from tether.batch.tasks import BatchTask

__all__ = ["CANCEL_POLL_S", "Coordinator", "RayRunner", "ray_missing"]

CANCEL_POLL_S = 1.0
"""How often a running task asks the coordinator whether the batch was cancelled (a task
shorter than this makes one call to the coordinator in all: every call costs CPU that the
tasks share)."""

_STARTS_POLL_S = 0.5
"""How often the driver asks which tasks started (for the running count of the bar)."""

_MAX_LOG_BYTES = 512 * 1024 * 1024
"""A task's logs returned through the object store at most (the rest stays on the worker)."""


def ray_missing() -> str | None:
    """Why `--ray` cannot be used here, or `None` when Ray is installed."""
    if importlib.util.find_spec("ray") is None:
        return "--ray needs Ray: pip install 'tether[ray]'"
    return None


class Coordinator:
    """The batch's shared state on the cluster (run as an async actor): attempts per task,
    the model-request gate, and whether the batch was cancelled."""

    def __init__(self, max_concurrency: int | None) -> None:
        self.attempts: Counter[str] = Counter()
        self.began: list[str] = []
        self.gate = asyncio.Semaphore(max_concurrency) if max_concurrency else None
        self.stopped = False

    async def begin(self, task_id: str) -> tuple[int, bool]:
        """Count one more start of `task_id`; its attempt number, and whether the batch was
        cancelled already."""
        self.attempts[task_id] += 1
        self.began.append(task_id)
        return self.attempts[task_id], self.stopped

    async def began_since(self, seen: int) -> list[str]:
        """The ids started after the first `seen` starts (for the driver's progress)."""
        return self.began[seen:]

    async def attempts_of(self, task_id: str) -> int:
        """How many times `task_id` was started."""
        return self.attempts[task_id]

    async def acquire(self) -> None:
        """Wait for a place at the gate."""
        if self.gate is not None:
            await self.gate.acquire()

    async def release(self) -> None:
        """Give a place back."""
        if self.gate is not None:
            self.gate.release()

    async def cancel(self) -> None:
        """Ctrl-C: the running tasks cancel, the others do not start."""
        self.stopped = True

    async def cancelled(self) -> bool:
        """Whether the batch was cancelled."""
        return self.stopped


class _ActorGate:
    """`ModelGate` held by the coordinator, for every worker of the cluster."""

    def __init__(self, coordinator: Any) -> None:
        self.coordinator = coordinator

    async def acquire(self) -> None:
        await self.coordinator.acquire.remote()

    async def release(self) -> None:
        await self.coordinator.release.remote()


def remote_task(
    task: BatchTask, options: BatchOptions, coordinator: Any, gated: bool, keep: str | None
) -> tuple[TaskResult, dict[str, bytes]]:
    """What runs on a Ray worker: the task in a folder of its own; its line and its logs."""
    scratch = Path(tempfile.mkdtemp(prefix="tether-batch-"))
    try:
        result = asyncio.run(
            _remote(task, options, coordinator, gated=gated, scratch=scratch, keep=keep)
        )
        logs: dict[str, bytes] = {}
        total = 0
        for log in sorted((scratch / "sessions").glob("*.jsonl")):
            data = log.read_bytes()
            total += len(data)
            if total > _MAX_LOG_BYTES:
                break
            logs[log.name] = data
        return result, logs
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


async def _remote(
    task: BatchTask,
    options: BatchOptions,
    coordinator: Any,
    *,
    gated: bool,
    scratch: Path,
    keep: str | None,
) -> TaskResult:
    from tether.session import SessionStore

    attempt, cancelled = await coordinator.begin.remote(task.id)
    stop = asyncio.Event()

    async def watch() -> None:
        while True:
            await asyncio.sleep(CANCEL_POLL_S)
            if await coordinator.cancelled.remote():
                stop.set()
                return

    if cancelled:
        stop.set()
    watcher = asyncio.ensure_future(watch())
    try:
        return await run_task(
            task,
            options,
            store=SessionStore(scratch),
            # Kept workspaces go where the driver asked: a path on storage the workers share.
            workspaces=Path(keep) if keep is not None else scratch / "workspaces",
            stop=stop,
            attempt=attempt,
            gate=_ActorGate(coordinator) if gated else None,
        )
    finally:
        watcher.cancel()


@dataclass
class RayRunner:
    """Runs tasks as Ray tasks; `run` returns once every task has a line (or was cancelled)."""

    options: BatchOptions
    out: Path
    address: str | None = None
    """The cluster (`ray://HOST:PORT` or a GCS address); `None`: `$RAY_ADDRESS`'s, else a
    new local one."""
    retries: int = 1
    max_concurrency: int | None = None
    num_cpus: int | None = None
    """CPUs of the local cluster started without `address` (`None`: all of them)."""
    cancelled: bool = False
    _coordinator: Any = field(default=None, repr=False)
    _seen: int = 0
    _looked: float = 0.0

    def run(self, tasks: list[BatchTask], events: PoolEvents) -> None:
        """Submit every task, then write each line (and its logs) as it comes back."""
        if not tasks:
            return
        import ray

        started_here = not ray.is_initialized()
        if started_here:
            self._init(ray)
        try:
            self._run(ray, tasks, events)
        finally:
            if started_here:
                ray.shutdown()

    def _init(self, ray: Any) -> None:
        if self.address is None and os.environ.get("RAY_ADDRESS"):
            # Inside a Ray job (or told where the cluster is): join it.
            ray.init(log_to_driver=False)
        elif self.address is None:
            ray.init(
                num_cpus=self.num_cpus,
                include_dashboard=False,
                log_to_driver=False,  # stdout is the batch's: its table alone
                _node_ip_address="127.0.0.1",  # a local cluster listens on loopback only
            )
        else:
            ray.init(address=self.address, log_to_driver=False)

    def _run(self, ray: Any, tasks: list[BatchTask], events: PoolEvents) -> None:
        coordinator_class = ray.remote(num_cpus=0, max_concurrency=10_000)(Coordinator)
        self._coordinator = coordinator_class.remote(self.max_concurrency)
        run_remote = ray.remote(num_cpus=1, max_retries=self.retries, retry_exceptions=False)(
            remote_task
        )
        keep = str(self.out / "workspaces") if self.options.keep_workspaces else None
        gated = self.max_concurrency is not None
        pending: dict[Any, BatchTask] = {}
        submitted = time.monotonic()
        for task in tasks:
            ref = run_remote.remote(task, self.options, self._coordinator, gated, keep)
            pending[ref] = task
        in_main = threading.current_thread() is threading.main_thread()
        signals = (signal.SIGINT, signal.SIGTERM) if in_main else ()
        previous = {sig: signal.signal(sig, self._interrupt) for sig in signals}
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.25)
                for ref in ready:
                    task = pending.pop(ref)
                    result = self._collect(ray, ref, task, submitted)
                    if result is not None:
                        events.finished(result)
                self._starts(ray, pending, events)
                events.tick()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            with contextlib.suppress(Exception):
                ray.kill(self._coordinator)

    def _starts(self, ray: Any, pending: dict[Any, BatchTask], events: PoolEvents) -> None:
        """Report the tasks that started on a worker since the last look."""
        now = time.monotonic()
        if now - self._looked < _STARTS_POLL_S:
            return
        self._looked = now
        began: list[str] = ray.get(self._coordinator.began_since.remote(self._seen))
        self._seen += len(began)
        waiting = {task.id: task for task in pending.values()}
        for task_id in began:
            if task_id in waiting:
                events.started(waiting[task_id])

    def _collect(self, ray: Any, ref: Any, task: BatchTask, submitted: float) -> TaskResult | None:
        """The line of a task that came back, its logs written; `None` for one that never
        started because the batch was cancelled."""
        try:
            result: TaskResult
            logs: dict[str, bytes]
            result, logs = ray.get(ref)
        except ray.exceptions.RayError as exc:
            attempts = ray.get(self._coordinator.attempts_of.remote(task.id))
            status: TaskStatus = "cancelled" if self.cancelled else "error"
            lost = not isinstance(exc, ray.exceptions.RayTaskError)
            how = (
                f"lost on the cluster after {attempts} attempts" if lost else "failed on its worker"
            )
            return TaskResult(
                id=task.id,
                status=status,
                usage=NO_USAGE,
                duration_ms=round((time.monotonic() - submitted) * 1000),
                attempts=attempts,
                error=f"{how}: {_first_line(exc)}",
                line=task.line,
            )
        sessions = self.out / "sessions"
        for name, data in logs.items():
            (sessions / name).write_bytes(data)
        if result.status == "cancelled" and result.session_id is None:
            return None  # it never started: a rerun runs it
        return result

    def _interrupt(self, _signum: int, _frame: FrameType | None) -> None:
        """Ctrl-C: tell the coordinator; the running tasks cancel and come back."""
        self.cancelled = True
        if self._coordinator is not None:
            self._coordinator.cancel.remote()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
