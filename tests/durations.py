"""How long each long test file takes, so that `scripts/test` hands out the long ones first.

`durations.txt` beside this module lists the files that took at least `MIN_SECONDS` in a full
run on two workers, the longest first. Refresh it from such a run's report:

    .venv/bin/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder --durations=0 \\
        -p no:cacheprovider -q > report.txt
    .venv/bin/python -m tests.durations < report.txt
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

TABLE = Path(__file__).with_name("durations.txt")
MIN_SECONDS = 2.0
"""A shorter file goes by its number of tests (`tests/conftest.py`): its place hardly moves
when the run ends."""

_LINE = re.compile(r"^(\d+(?:\.\d+)?)s (?:setup|call|teardown)\s+(\S[^:]*)::")
_HEADER = "# seconds per test file in a full run on two workers (tests/durations.py)\n"


def file_seconds(report: Iterable[str]) -> dict[str, float]:
    """Each file's seconds (set-up, call and teardown of its tests) in a `--durations=0`
    report."""
    seconds: dict[str, float] = defaultdict(float)
    for line in report:
        match = _LINE.match(line)
        if match:
            seconds[match.group(2)] += float(match.group(1))
    return dict(seconds)


def table_text(seconds: dict[str, float]) -> str:
    """The table of the files of at least `MIN_SECONDS`, longest first."""
    long = sorted(
        ((value, path) for path, value in seconds.items() if value >= MIN_SECONDS),
        key=lambda row: (-row[0], row[1]),
    )
    return _HEADER + "".join(f"{round(value)} {path}\n" for value, path in long)


def load(table: Path = TABLE) -> dict[str, int]:
    """The table's seconds by file path (relative to the repository)."""
    rows = (line.split(" ", 1) for line in table.read_text().splitlines() if line[:1] != "#")
    return {path: int(value) for value, path in rows}


if __name__ == "__main__":
    TABLE.write_text(table_text(file_seconds(sys.stdin)))
