"""The process pool: `--workers N` processes, each running many tasks one after another.

A worker is started once and imports tether once; the driver hands it one task at a time
over a pipe and gets its result line back. The driver alone writes `results.jsonl`.

Ctrl-C (SIGINT, or SIGTERM) stops handing out tasks and passes the signal on to the busy
workers, whose prompts end as cancelled turns and come back as `cancelled` lines; a second
Ctrl-C kills the workers at once. A worker that dies mid-task (killed, out of memory) is
replaced and its task run again, up to `retries` times.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Semaphore
from pathlib import Path
from types import FrameType

from tether.batch.results import NO_USAGE, TaskResult
from tether.batch.runner import BatchOptions, run_task
from tether.batch.tasks import BatchTask

__all__ = ["HARD_TIMEOUT_GRACE_S", "Pool", "PoolEvents"]

HARD_TIMEOUT_GRACE_S = 60.0
"""How long past its time limit a task may take to wind down before its worker is killed."""

_POLL_S = 0.25


@dataclass
class PoolEvents:
    """What the driver tells whoever watches: a task started, a task ended (its line)."""

    started: Callable[[BatchTask], None]
    finished: Callable[[TaskResult], None]
    tick: Callable[[], None] = lambda: None


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    task: BatchTask | None = None
    attempt: int = 0
    since: float = 0.0
    signalled: bool = False


@dataclass
class Pool:
    """Runs tasks on `workers` processes; `run` returns once every task has a line (or the
    batch was cancelled)."""

    options: BatchOptions
    out: Path
    workers: int
    retries: int = 1
    max_concurrency: int | None = None
    cancelled: bool = False
    """Whether Ctrl-C stopped the batch."""
    _workers: list[_Worker] = field(default_factory=list)
    _interrupts: int = 0

    def run(self, tasks: list[BatchTask], events: PoolEvents) -> None:
        """Run `tasks`, reporting each start and each result line to `events`."""
        if not tasks:
            return
        context = multiprocessing.get_context("spawn")
        semaphore = context.Semaphore(self.max_concurrency) if self.max_concurrency else None
        queue: deque[tuple[BatchTask, int]] = deque((task, 1) for task in tasks)
        previous = {
            sig: signal.signal(sig, self._interrupt) for sig in (signal.SIGINT, signal.SIGTERM)
        }
        try:
            while (queue and not self.cancelled) or self._busy():
                self._hand_out(queue, context, semaphore, events)
                self._collect(queue, events)
                self._enforce_time_limits(events)
                events.tick()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            self._stop_all()

    def _busy(self) -> list[_Worker]:
        return [w for w in self._workers if w.task is not None]

    def _hand_out(
        self,
        queue: deque[tuple[BatchTask, int]],
        context: multiprocessing.context.SpawnContext,
        semaphore: Semaphore | None,
        events: PoolEvents,
    ) -> None:
        """Give each idle worker a task, starting workers as long as there is work for them."""
        if self.cancelled:
            return
        while queue and len(self._workers) < min(self.workers, len(queue) + len(self._busy())):
            self._workers.append(self._start(context, semaphore))
        for worker in self._workers:
            if not queue:
                return
            if worker.task is None and worker.process.is_alive():
                task, attempt = queue.popleft()
                try:
                    worker.conn.send((task, attempt))
                except (BrokenPipeError, OSError):
                    queue.appendleft((task, attempt))  # the worker is gone: `_collect` sees it
                    continue
                worker.task, worker.attempt, worker.since = task, attempt, time.monotonic()
                events.started(task)

    def _start(
        self, context: multiprocessing.context.SpawnContext, semaphore: Semaphore | None
    ) -> _Worker:
        ours, theirs = context.Pipe()
        process = context.Process(
            target=_worker_main,
            args=(theirs, self.options, self.out, semaphore),
            name="tether-batch-worker",
            daemon=True,
        )
        process.start()
        theirs.close()
        return _Worker(process, ours)

    def _collect(self, queue: deque[tuple[BatchTask, int]], events: PoolEvents) -> None:
        """Take the results that came back; retry or report the tasks of workers that died."""
        watched: list[Connection | int] = [w.conn for w in self._workers]
        watched += [w.process.sentinel for w in self._workers]
        ready = set(wait(watched, timeout=_POLL_S))
        for worker in list(self._workers):
            if worker.conn in ready:
                try:
                    result: TaskResult = worker.conn.recv()
                except (EOFError, OSError):
                    pass  # it died: seen below through its sentinel
                else:
                    worker.task = None
                    events.finished(result)
                    continue
            if worker.process.sentinel in ready or not worker.process.is_alive():
                self._lost(worker, queue, events)

    def _lost(
        self, worker: _Worker, queue: deque[tuple[BatchTask, int]], events: PoolEvents
    ) -> None:
        """A worker died: its task runs again while it has retries left."""
        worker.process.join(timeout=5)
        worker.conn.close()
        self._workers.remove(worker)
        task = worker.task
        if task is None:
            return
        code = worker.process.exitcode
        why = f"its worker process died (exit status {code})"
        if self.cancelled:
            events.finished(_line(task, "cancelled", worker, f"cancelled: {why}"))
        elif worker.attempt <= self.retries:
            queue.appendleft((task, worker.attempt + 1))
        else:
            events.finished(_line(task, "error", worker, why))

    def _enforce_time_limits(self, events: PoolEvents) -> None:
        """Kill a worker whose task is far past its time limit (its prompt would not stop)."""
        now = time.monotonic()
        for worker in self._busy():
            assert worker.task is not None
            limit = worker.task.timeout_s or self.options.timeout_s
            if limit is not None and now - worker.since > limit + HARD_TIMEOUT_GRACE_S:
                task = worker.task
                worker.task = None
                worker.process.kill()
                events.finished(
                    _line(task, "timeout", worker, f"killed {limit:g} s past its limit")
                )

    def _interrupt(self, signum: int, _frame: FrameType | None) -> None:
        """First Ctrl-C: stop handing out tasks and cancel the running ones; second: kill."""
        self._interrupts += 1
        self.cancelled = True
        for worker in self._busy():
            if self._interrupts > 1:
                worker.process.kill()
            elif not worker.signalled and worker.process.pid is not None:
                worker.signalled = True
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.process.pid, signal.SIGINT)

    def _stop_all(self) -> None:
        """Tell every worker to leave, and make sure each has."""
        for worker in self._workers:
            with contextlib.suppress(BrokenPipeError, OSError):
                worker.conn.send(None)
        for worker in self._workers:
            worker.process.join(timeout=10)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(timeout=10)
            worker.conn.close()
        self._workers.clear()


def _line(task: BatchTask, status: str, worker: _Worker, error: str) -> TaskResult:
    """The line of a task whose worker could not give one."""
    assert status in ("cancelled", "error", "timeout")
    return TaskResult(
        id=task.id,
        status=status,  # type: ignore[arg-type]
        usage=NO_USAGE,
        duration_ms=round((time.monotonic() - worker.since) * 1000),
        attempts=worker.attempt,
        error=error,
        line=task.line,
    )


# What runs in each worker process.


class _SemaphoreGate:
    """`ModelGate` over a semaphore every worker process shares."""

    def __init__(self, semaphore: Semaphore) -> None:
        self.semaphore = semaphore

    async def acquire(self) -> None:
        """Wait for a place, polling: a cancelled wait leaves nothing behind (a thread would)."""
        while not self.semaphore.acquire(block=False):
            await asyncio.sleep(0.02)

    async def release(self) -> None:
        """Give the place back."""
        self.semaphore.release()


class _WorkerProcess:
    """The worker's side: runs each task the driver sends; Ctrl-C cancels the running one."""

    def __init__(self, options: BatchOptions, out: Path, semaphore: Semaphore | None) -> None:
        from tether.session import SessionStore

        self.options = options
        self.out = out
        self.store = SessionStore(out)
        self.gate = _SemaphoreGate(semaphore) if semaphore is not None else None
        self.stopping = False
        self.current: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = None

    def on_signal(self, _signum: int, _frame: FrameType | None) -> None:
        """Ctrl-C reached this worker: cancel the running task, start no other."""
        self.stopping = True
        if self.current is not None:
            loop, stop = self.current
            with contextlib.suppress(RuntimeError):  # closed: the next task sees `stopping`
                loop.call_soon_threadsafe(stop.set)

    def serve(self, conn: Connection) -> None:
        """Run tasks until the driver sends `None` or goes away."""
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError, KeyboardInterrupt):
                return
            if message is None:
                return
            task, attempt = message
            try:
                result = asyncio.run(self.one(task, attempt))
            except Exception as exc:
                # A defect, not the task's doing: said in full on stderr, the task an error.
                traceback.print_exc()
                result = TaskResult(
                    id=task.id,
                    status="error",
                    usage=NO_USAGE,
                    duration_ms=0,
                    attempts=attempt,
                    error=f"internal error: {exc!r}",
                    line=task.line,
                )
            conn.send(result)

    async def one(self, task: BatchTask, attempt: int) -> TaskResult:
        """One task, cancelled by a signal."""
        stop = asyncio.Event()
        self.current = (asyncio.get_running_loop(), stop)
        if self.stopping:  # checked after `current` is set: a signal in between is not lost
            stop.set()
        try:
            return await run_task(
                task,
                self.options,
                store=self.store,
                workspaces=self.out / "workspaces",
                stop=stop,
                attempt=attempt,
                gate=self.gate,
                leave_out=self.out,
            )
        finally:
            self.current = None


def _worker_main(
    conn: Connection, options: BatchOptions, out: Path, semaphore: Semaphore | None
) -> None:
    """A worker process's life: tasks from `conn` until told to leave."""
    worker = _WorkerProcess(options, out, semaphore)
    signal.signal(signal.SIGINT, worker.on_signal)
    signal.signal(signal.SIGTERM, worker.on_signal)
    # stdout is the driver's: nothing a task does may write there.
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the life of the process
    worker.serve(conn)
