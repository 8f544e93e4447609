"""What a person sees of a batch: a live bar at a terminal (a line per task elsewhere), then a
summary table."""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Sequence

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from tether.batch.results import TaskResult, TaskStatus
from tether.batch.tasks import BatchTask
from tether.figures import dollars
from tether.render.theme import printable

__all__ = ["BatchProgress", "percentile", "summary_table"]

_STATUSES: tuple[TaskStatus, ...] = ("done", "failed", "timeout", "cancelled", "error")


class BatchProgress:
    """Counts tasks as they start and end, and shows them on `console` (stderr)."""

    def __init__(self, console: Console, total: int, *, skipped: int = 0) -> None:
        self.console = console
        self.total = total
        self.skipped = skipped
        self.running: set[str] = set()
        self.counts: Counter[TaskStatus] = Counter()
        self.tokens = 0
        self.started_at = time.monotonic()
        self._bar: Progress | None = None
        self._id: TaskID | None = None

    def __enter__(self) -> BatchProgress:
        if self.console.is_terminal:
            self._bar = Progress(
                TextColumn("[bold]batch"),
                BarColumn(),
                TextColumn("{task.completed}/{task.total}"),
                TextColumn("{task.fields[counts]}"),
                TimeElapsedColumn(),
                TextColumn("ETA {task.fields[eta]}"),
                console=self.console,
                transient=False,
            )
            self._bar.start()
            self._id = self._bar.add_task("batch", total=self.total, counts="", eta="-")
        return self

    def __exit__(self, *_exc: object) -> None:
        self.tick()
        if self._bar is not None:
            self._bar.stop()

    def started(self, task: BatchTask) -> None:
        """A task began (again, after a lost worker)."""
        self.running.add(task.id)

    def finished(self, result: TaskResult) -> None:
        """A task has its line."""
        self.running.discard(result.id)
        self.counts[result.status] += 1
        self.tokens += result.usage.total
        if self._bar is None:
            ended = sum(self.counts.values())
            detail = f": {result.error}" if result.error else ""
            self.console.print(
                # What a task's git or setup said may hold escape sequences: shown, not obeyed.
                printable(
                    f"[{ended}/{self.total}] {result.id} {result.status} "
                    f"({result.duration_ms / 1000:.1f} s){detail}"
                ),
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
        self.tick()

    def tick(self) -> None:
        """Redraw the bar (counts, tokens, elapsed time, ETA)."""
        if self._bar is None or self._id is None:
            return
        ended = sum(self.counts.values())
        elapsed = time.monotonic() - self.started_at
        left = self.total - ended
        eta = f"{elapsed / ended * left:.0f}s" if ended and left else "-"
        failed = sum(self.counts[s] for s in ("failed", "timeout", "error"))
        counts = (
            f"done {self.counts['done']} · failed {failed} · running {len(self.running)}"
            f" · {self.tokens} tokens"
        )
        self._bar.update(self._id, completed=ended, counts=counts, eta=eta)


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which `fraction` of `values` lie (nearest rank); 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def summary_table(results: Sequence[TaskResult], *, skipped: int, elapsed_s: float) -> Table:
    """Status counts, tokens, and the task times' p50 and p95 of this run."""
    counts = Counter(result.status for result in results)
    seconds = [result.duration_ms / 1000 for result in results]
    table = Table(title="tether batch", show_header=False, title_justify="left")
    table.add_column("")
    table.add_column("", justify="right")
    for status in _STATUSES:
        table.add_row(status, str(counts[status]))
    if skipped:
        table.add_row("skipped (already done)", str(skipped))
    input_tokens = sum(result.usage.input_tokens for result in results)
    output_tokens = sum(result.usage.output_tokens for result in results)
    table.add_row("tokens in / out", f"{input_tokens} / {output_tokens}")
    costs = [result.usage.cost_usd for result in results]
    known = None if any(cost is None for cost in costs) else sum(c or 0.0 for c in costs)
    table.add_row("cost", dollars(known))
    table.add_row("task time p50", f"{percentile(seconds, 0.5):.2f} s")
    table.add_row("task time p95", f"{percentile(seconds, 0.95):.2f} s")
    table.add_row("wall time", f"{elapsed_s:.1f} s")
    return table
