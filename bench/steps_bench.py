"""Benchmark what one step of a long session costs, early and late, in one `tether run`.

A scripted model (no network, no thinking time) answers every request with one `read` of a
60-line file and a sentence, for N steps; `tether run --mode auto` runs them all as one
prompt. Each step's cost is the time between two `assistant/message` events in the log (what
tether does between two model answers: the tool, the log, the history and budget of the
next request, the card). Compares the median step around step 100 with the median of the last
100 steps. Goal: the late step within 1.2x of step 100 (the cost of a step does not grow with
the session).

Because wall time on a loaded machine says more about the neighbours than about tether, the
bench also samples the process's own CPU time (user + system, from /proc) against the number
of answers in its log as it runs, and reports CPU per step over the same two windows.

Usage: python bench/steps_bench.py [--steps N]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path


def script(steps: int) -> dict[str, object]:
    """N turns, each a read of `code.py` with a line of text, then a closing answer."""
    turns: list[dict[str, object]] = [
        {
            "text": f"Step {n}: reading the module again.",
            "toolCalls": [{"id": f"c{n}", "name": "read", "arguments": {"path": "code.py"}}],
        }
        for n in range(steps)
    ]
    turns.append({"text": "Done."})
    return {"turns": turns}


def step_times(log: Path) -> list[float]:
    """Seconds between consecutive `assistant/message` events."""
    stamps = []
    for line in log.read_text().splitlines()[1:]:
        event = json.loads(line)
        if event["type"] == "assistant/message":
            stamps.append(datetime.fromisoformat(event["time"].replace("Z", "+00:00")))
    return [(b - a).total_seconds() for a, b in itertools.pairwise(stamps)]


def answers(log: Path, seen: int, offset: int) -> tuple[int, int]:
    """The count of `assistant/message` events so far, reading only what was appended."""
    with log.open("rb") as file:
        file.seek(offset)
        tail = file.read()
    complete = tail.rfind(b"\n") + 1
    return seen + tail[:complete].count(b'"type":"assistant/message"'), offset + complete


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of a running process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_per_step(samples: list[tuple[int, float]], low: int, high: int) -> float:
    """CPU seconds per step between the samples nearest to steps `low` and `high`."""
    first = min(samples, key=lambda sample: abs(sample[0] - low))
    last = min(samples, key=lambda sample: abs(sample[0] - high))
    return (last[1] - first[1]) / max(last[0] - first[0], 1)


def run_sampled(command: list[str], env: dict[str, str], home: Path) -> list[tuple[int, float]]:
    """Run `command`, sampling (answers so far, CPU seconds) until it exits."""
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    samples: list[tuple[int, float]] = []
    seen = offset = 0
    while child.poll() is None:
        time.sleep(0.05)
        logs = list((home / "sessions").glob("*.jsonl")) if (home / "sessions").is_dir() else []
        try:
            cpu = cpu_seconds(child.pid)
        except OSError:
            break
        if logs:
            seen, offset = answers(logs[0], seen, offset)
            samples.append((seen, cpu))
    assert child.wait() == 0, child.returncode
    return samples


def main() -> None:
    """Run the long session, then print the medians early and late and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=4000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        workspace = root / "ws"
        workspace.mkdir()
        (workspace / "code.py").write_text(
            "".join(f"def f{n}(x):\n    return x * {n}  # line {n}\n" for n in range(30))
        )
        model = root / "model.json"
        model.write_text(json.dumps(script(options.steps)))
        env = {**os.environ, "TETHER_HOME": str(root / "home"), "NO_COLOR": "1"}
        command = [sys.executable, "-m", "tether", "run", "read it over and over"]
        flags = ["--model", f"script:{model}", "--mode", "auto", "--cwd", str(workspace)]
        limit = ["--max-steps", str(options.steps + 1), "--context-window", "100000000"]
        start = time.perf_counter()
        samples = run_sampled([*command, *flags, *limit], env, root / "home")
        elapsed = time.perf_counter() - start
        [log] = (root / "home" / "sessions").glob("*.jsonl")
        steps = step_times(log)
    early = statistics.median(steps[90:110])
    late = statistics.median(steps[-100:])
    print(f"{len(steps) + 1} steps in {elapsed:.1f} s")
    print(f"step ~100:        median {early * 1000:.1f} ms")
    print(f"last 100 steps:   median {late * 1000:.1f} ms")
    print(f"ratio: {late / early:.2f} (goal <= 1.2)")
    total = len(steps) + 1
    cpu_early = cpu_per_step(samples, 50, 150)
    cpu_late = cpu_per_step(samples, total - 110, total - 10)
    print(f"CPU per step, steps 50-150:   {cpu_early * 1000:.1f} ms")
    print(f"CPU per step, 100 steps before the last 10: {cpu_late * 1000:.1f} ms")
    print(f"CPU ratio: {cpu_late / cpu_early:.2f} (goal <= 1.2)")
    # A full collection of the oldest generation costs with the heap and lands in one window
    # or another: over 500 steps its share is amortized as it is over a session.
    wide_early = cpu_per_step(samples, 50, 550)
    wide_late = cpu_per_step(samples, total - 510, total - 10)
    print(f"CPU per step, steps 50-550 vs the last 500: {wide_early * 1000:.1f} ms vs", end=" ")
    print(f"{wide_late * 1000:.1f} ms, ratio {wide_late / wide_early:.2f}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
