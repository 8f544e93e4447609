"""`DIR/results.jsonl`: one line per finished task, appended as each one ends.

A rerun with the same `--out` skips the ids whose last line is final (anything but
`cancelled`), so an interrupted batch resumes where it stopped.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal

from pydantic import ConfigDict, TypeAdapter, ValidationError, computed_field

from tether.bounded import read_bounded
from tether.session.headless import RunUsage
from tether.session.log.events import TurnEndReason
from tether.wire import WIRE_CONFIG, Opt

__all__ = [
    "MAX_RESULTS_BYTES",
    "NO_USAGE",
    "RESULTS_FILE",
    "TASK_RESULT",
    "ResultsFile",
    "TaskResult",
    "TaskStatus",
]

RESULTS_FILE = "results.jsonl"
MAX_RESULTS_BYTES = 4 * 1024**3
"""The largest results file read back to resume (a larger one is an error, not a crash)."""

TaskStatus = Literal["done", "failed", "timeout", "cancelled", "error"]
"""How a task ended: its prompt finished, failed (the model, a stop short of the end), ran out
of time, was cancelled (Ctrl-C), or could not run at all (a bad line, its workspace, its setup)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class TaskResult:
    """One line of `results.jsonl`."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    id: str
    status: TaskStatus
    stop_reason: Opt[TurnEndReason] = None
    usage: RunUsage
    duration_ms: int
    attempts: int
    """Times the task was started (more than one when a worker was lost mid-task)."""
    result: str = ""
    """The model's final text."""
    diff: str = ""
    """The workspace's change as a unified diff (git's format, binary files named)."""
    diff_truncated: Opt[bool] = None
    """True when the diff was too big to keep: `diff` lists the files changed instead."""
    session_id: Opt[str] = None
    num_turns: int = 0
    error: Opt[str] = None
    """Why the task failed or could not run."""
    line: Opt[int] = None
    """The task's line in the task file."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def is_error(self) -> bool:
        """Whether the task did not finish normally: named as in `run`'s `result` line."""
        return self.status != "done"


TASK_RESULT: TypeAdapter[TaskResult] = TypeAdapter(TaskResult)
"""Writes and reads one line."""

NO_USAGE = RunUsage(input_tokens=0, output_tokens=0)
"""The usage of a task that never reached the model."""


class ResultsFile:
    """The results of one output folder: read once, then appended to by one writer."""

    def __init__(self, out: Path) -> None:
        self.path = out / RESULTS_FILE
        self.unreadable: list[int] = []
        """Line numbers that could not be read (a line cut short by a crash, say)."""

    def read(self) -> dict[str, TaskResult]:
        """The last result of each id (an id may be cancelled, then run again).

        Raises `UnreadableFile` when the file is not a regular one (a FIFO would never end,
        a device never stop) or is too large."""
        found: dict[str, TaskResult] = {}
        try:
            data = read_bounded(self.path, limit=MAX_RESULTS_BYTES)
        except FileNotFoundError:
            return found
        for number, raw in enumerate(data.splitlines(), 1):
            if not raw.strip():
                continue
            try:
                result = TASK_RESULT.validate_json(raw)
            except ValidationError:
                self.unreadable.append(number)
                continue
            found[result.id] = result
        return found

    def finished(self) -> set[str]:
        """The ids a rerun skips: those whose last line is not `cancelled`."""
        return {id_ for id_, result in self.read().items() if result.status != "cancelled"}

    def append(self, results: Iterable[TaskResult]) -> None:
        """Add lines, each whole and on disk before this returns."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("ab") as file:
            if file.tell() and not _ends_with_newline(self.path):
                file.write(b"\n")  # a line cut short by a crash stays alone on its line
            for result in results:
                file.write(TASK_RESULT.dump_json(result, by_alias=True) + b"\n")
            file.flush()
            os.fsync(file.fileno())


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as file:
        file.seek(-1, os.SEEK_END)
        return file.read(1) == b"\n"
