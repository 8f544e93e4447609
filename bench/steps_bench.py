"""Benchmark what one step of a long session costs, early and late, in one `tether run`.

A scripted model (no network, no thinking time) answers every request with one `read` of a
60-line file and a sentence, for N steps; `tether run --mode auto` runs them all as one
prompt. Each step's cost is the time between two `assistant/message` events in the log (what
tether does between two model answers: the tool, the log, the history and budget of the
next request, the card). Compares the median step around step 100 with the median of the last
100 steps. Goal: the late step within 1.2x of step 100 (the cost of a step does not grow with
the session).

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
        done = subprocess.run(
            [*command, *flags, *limit], env=env, stdout=subprocess.DEVNULL, check=False
        )
        elapsed = time.perf_counter() - start
        assert done.returncode == 0, done.returncode
        [log] = (root / "home" / "sessions").glob("*.jsonl")
        steps = step_times(log)
    early = statistics.median(steps[90:110])
    late = statistics.median(steps[-100:])
    print(f"{len(steps) + 1} steps in {elapsed:.1f} s")
    print(f"step ~100:        median {early * 1000:.1f} ms")
    print(f"last 100 steps:   median {late * 1000:.1f} ms")
    print(f"ratio: {late / early:.2f} (goal <= 1.2)")


if __name__ == "__main__":
    main()
