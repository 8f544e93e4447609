"""A batch from its task file to its output folder, on whichever runner: what is already done
is skipped, bad lines are recorded as `error`, each result line is written as it arrives."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from rich.console import Console

from tether.batch.pool import PoolEvents
from tether.batch.progress import BatchProgress
from tether.batch.results import NO_USAGE, ResultsFile, TaskResult
from tether.batch.tasks import BadTask, BatchTask, TaskLine
from tether.render.theme import printable

__all__ = ["BatchRun", "Runner", "run_batch"]


class Runner(Protocol):
    """Runs tasks somewhere (the process pool, a Ray cluster), reporting to `events`."""

    cancelled: bool

    def run(self, tasks: list[BatchTask], events: PoolEvents) -> None:
        """Run every task, or stop early when cancelled."""
        ...


@dataclass
class BatchRun:
    """What one invocation did."""

    results: list[TaskResult] = field(default_factory=list)
    """The lines this run wrote."""
    skipped: int = 0
    """Tasks already finished by an earlier run into the same folder."""
    cancelled: bool = False
    elapsed_s: float = 0.0

    @property
    def status(self) -> int:
        """130 when cancelled, 1 when a task did not end `done`, else 0."""
        if self.cancelled:
            return 130
        return 0 if all(result.status == "done" for result in self.results) else 1


def run_batch(lines: Sequence[TaskLine], out: Path, runner: Runner, err: Console) -> BatchRun:
    """Run the lines not finished in `out` yet on `runner`; the lines written.

    Raises `UnreadableFile` when `out`'s results file is not one (see `ResultsFile.read`)."""
    started = time.monotonic()
    results = ResultsFile(out)
    finished = results.finished()
    for number in results.unreadable:
        err.print(
            printable(f"tether: warning: {results.path} line {number} is not a result line")
            + " (ignored)",
            style="yellow",
            markup=False,
        )
    todo = [line for line in lines if line.id not in finished]
    run = BatchRun(skipped=len(lines) - len(todo))
    (out / "sessions").mkdir(parents=True, exist_ok=True)

    def record(result: TaskResult) -> None:
        results.append([result])
        run.results.append(result)
        progress.finished(result)

    with BatchProgress(err, len(todo), skipped=run.skipped) as progress:
        for line in todo:
            if isinstance(line, BadTask):
                err.print(
                    printable(f"tether: error: task file line {line.line}: {line.message}"),
                    markup=False,
                    soft_wrap=True,
                )
                record(_bad(line))
        tasks = [line for line in todo if isinstance(line, BatchTask)]
        runner.run(tasks, PoolEvents(progress.started, record, progress.tick))
    run.cancelled = runner.cancelled
    run.elapsed_s = time.monotonic() - started
    return run


def _bad(line: BadTask) -> TaskResult:
    return TaskResult(
        id=line.id,
        status="error",
        usage=NO_USAGE,
        duration_ms=0,
        attempts=0,
        error=f"line {line.line}: {line.message}",
        line=line.line,
    )
