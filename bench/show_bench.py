"""Benchmark `tether show` and `show --json` as processes, against `json.loads` of the same log.

Builds, in a temporary directory removed afterwards, the realistic log of `replay_bench.py`
(streamed text, reads with windows, edits, bash runs; 20,000 events make 43 MB) and a log
whose one reply streamed in 100,000 chunks. Then, alternating run after run, times each
command to its exit (stdout to /dev/null) against a process that parses every line with
`json.loads`, and reads each one's peak memory. Goals: `show` <= 3x the floor, `show --json`
<= 2x, peak memory of `show` and `show --json` above an empty session's <= 2x the log's size,
and the 100,000-chunk reply within the same ratios (no cost that grows with the square of a
reply's chunks). CPU seconds are given beside the wall time: on a loaded machine the wall
time says more about the neighbours.

Usage: python bench/show_bench.py [--events N] [--chunks N] [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from replay_bench import build_log
from tether.content import TextContent
from tether.session import SessionStore
from tether.session.log.events import (
    AssistantChunk,
    AssistantMessageEvent,
    TurnEnd,
    TurnStart,
    UserMessageEvent,
)

FLOOR = "import json, sys\nfor line in open(sys.argv[1], 'rb'):\n    json.loads(line)\n"
TETHER = [sys.executable, "-c", "from tether.cli import main; raise SystemExit(main())"]


def chunked_log(home: Path, workspace: Path, chunks: int) -> Path:
    """A session whose one reply streamed in `chunks` chunks."""
    log = SessionStore(home).create(workspace)
    log.append(TurnStart())
    log.append(UserMessageEvent(content=(TextContent(text="Write it all out."),)))
    words = ("alpha ", "beta ", "gamma\n", "delta ", "`code` ", "**bold** ")
    text = []
    for number in range(chunks):
        word = words[number % len(words)]
        text.append(word)
        log.append(AssistantChunk(text=word))
    log.append(AssistantMessageEvent(text="".join(text)))
    log.append(TurnEnd(stop_reason="end_turn"))
    log.close()
    return log.path


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds from spawn to exit, and the CPU seconds (user + system) it used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False
    )
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, command
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return elapsed, cpu


def peak_kib(command: list[str], env: dict[str, str]) -> int:
    """The peak RSS of `command`, measured from a process of its own."""
    probe = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, *command], capture_output=True, text=True, env=env, check=True
    )
    return int(out.stdout)


def per_round(runs: list[tuple[float, float]], floors: list[tuple[float, float]]) -> str:
    """The wall ratio of each run to the floor's run of the same round, as a median and its
    quartiles: the floor's own time drifts by a quarter over minutes on a shared machine, and
    a run compared with its neighbour in time drifts with it."""
    ratios = sorted(wall / floor for (wall, _), (floor, _) in zip(runs, floors, strict=True))
    if len(ratios) < 2:
        return f"per round: {ratios[0]:.2f}x"
    low, middle, high = statistics.quantiles(ratios, n=4)
    return f"per round: median {middle:.2f}x, quartiles {low:.2f}x-{high:.2f}x"


def compare(name: str, path: Path, env: dict[str, str], runs: int, empty: str) -> None:
    """Time `show`, `show --json` and the floor on `path`, alternately; print the ratios."""
    session = path.stem
    show = [*TETHER, "show", session]
    show_json = [*show, "--json"]
    floor = [sys.executable, "-c", FLOOR, str(path)]
    times: dict[str, list[tuple[float, float]]] = {"show": [], "show --json": [], "floor": []}
    for _ in range(runs):
        times["floor"].append(timed(floor, env))
        times["show"].append(timed(show, env))
        times["show --json"].append(timed(show_json, env))
    medians = {k: statistics.median(wall for wall, _ in v) for k, v in times.items()}
    cpu = {k: statistics.median(used for _, used in v) for k, v in times.items()}
    size_mb = path.stat().st_size / 1e6
    grown_mb = {
        key: (peak_kib(command, env) - peak_kib([*TETHER, "show", empty, *flags], env)) / 1024
        for key, command, flags in (("show", show, []), ("show --json", show_json, ["--json"]))
    }
    print(f"{name}: {size_mb:.1f} MB log (load average {os.getloadavg()[0]:.1f})")
    print(
        f"  json.loads floor:  {medians['floor'] * 1000:7.0f} ms wall,"
        f" {cpu['floor'] * 1000:6.0f} ms CPU"
    )
    for key, goal in (("show", 3), ("show --json", 2)):
        ratio = medians[key] / medians["floor"]
        cpu_ratio = cpu[key] / cpu["floor"]
        print(
            f"  {key:<12}       {medians[key] * 1000:7.0f} ms wall {ratio:5.2f}x,"
            f" {cpu[key] * 1000:6.0f} ms CPU {cpu_ratio:5.2f}x (goal <= {goal}x)"
        )
        print(f"  {'':<12}       {per_round(times[key], times['floor'])}")
    for key, grown in grown_mb.items():
        print(
            f"  {key:<12}       peak memory above an empty session's: {grown:.0f} MB"
            f" = {grown / size_mb:.2f}x the log (goal <= 2x)"
        )


def main() -> None:
    """Build both logs, compare each, print medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "ws").mkdir()
        home = root / "home"
        env = {**os.environ, "TETHER_HOME": str(home), "NO_COLOR": "1"}
        build_log(home, root / "ws", options.events)
        [realistic] = (home / "sessions").glob("*.jsonl")
        chunked = chunked_log(home, root / "ws", options.chunks)
        empty = SessionStore(home).create(root / "ws")
        empty.close()
        nothing = empty.path.stem
        compare("realistic session", realistic, env, options.runs, nothing)
        compare(f"one reply of {options.chunks} chunks", chunked, env, options.runs, nothing)


if __name__ == "__main__":
    main()
