"""Benchmark how fast `tether acp` answers `initialize`, against importing ACP's schema alone.

In the same run, alternates:
- tether: spawn `python -m tether acp`, send `initialize`, stop the clock at its answer;
- baseline: spawn `python -c "import acp.schema"` and stop the clock when it exits (the
  protocol's own models, which any ACP agent in Python has to load).
Prints both medians and their ratio (goal: <= 1.15). Then opens a session (`session/new`)
and prints the agent's resident memory once it is idle (goal: <= 55 MB).

Sessions go to a temporary `TETHER_HOME` removed afterwards; no request reaches a model.

Usage: python bench/startup_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

RATIO_GOAL = 1.15
RSS_GOAL_MB = 55.0
ANSWER_TIMEOUT = 60.0


def _environ(home: Path) -> dict[str, str]:
    """The agent's environment: its own sessions directory and a key no request will use."""
    return {**os.environ, "TETHER_HOME": str(home), "DEEPSEEK_API_KEY": "bench-no-request"}


def _send(stdin: IO[bytes], message: dict[str, Any]) -> None:
    stdin.write(json.dumps(message).encode() + b"\n")
    stdin.flush()


def _answer(stdout: IO[bytes], request_id: int) -> dict[str, Any]:
    """The response to `request_id`, skipping notifications; fails when stdout closes."""
    for _ in range(1000):
        line = stdout.readline()
        if not line:
            raise RuntimeError(f"the agent closed stdout before answering request {request_id}")
        message: dict[str, Any] = json.loads(line)
        if message.get("id") == request_id:
            if "error" in message:
                raise RuntimeError(f"request {request_id} failed: {message['error']}")
            return message
    raise RuntimeError(f"no answer to request {request_id} within 1000 messages")


def _spawn_agent(home: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tether", "acp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=_environ(home),
    )


def _initialize(agent: subprocess.Popen[bytes]) -> None:
    assert agent.stdin is not None and agent.stdout is not None
    _send(
        agent.stdin,
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}},
    )
    _answer(agent.stdout, 1)


def _stop(agent: subprocess.Popen[bytes]) -> None:
    assert agent.stdin is not None
    agent.stdin.close()  # the agent ends when the client closes stdin
    try:
        agent.wait(timeout=ANSWER_TIMEOUT)
    except subprocess.TimeoutExpired:
        agent.kill()
        agent.wait()


def time_tether(home: Path) -> float:
    """Seconds from spawn to the `initialize` answer."""
    start = time.perf_counter()
    agent = _spawn_agent(home)
    try:
        _initialize(agent)
        return time.perf_counter() - start
    finally:
        _stop(agent)


def time_baseline() -> float:
    """Seconds for a process that imports `acp.schema` and exits."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import acp.schema"], check=True, timeout=60)
    return time.perf_counter() - start


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def idle_rss_mb(home: Path, workspace: Path) -> float:
    """Resident memory of `tether acp` after `initialize` and one `session/new`."""
    agent = _spawn_agent(home)
    assert agent.stdin is not None and agent.stdout is not None
    try:
        _initialize(agent)
        _send(
            agent.stdin,
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "session/new",
                "params": {"cwd": str(workspace), "mcpServers": []},
            },
        )
        _answer(agent.stdout, 2)
        return _rss_mb(agent.pid)
    finally:
        _stop(agent)


def main() -> None:
    """Run the benchmark and print medians, ratio and idle memory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="spawns of each kind")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tether-startup-") as tmp:
        home, workspace = Path(tmp) / "home", Path(tmp) / "workspace"
        workspace.mkdir()
        time_tether(home)  # warm the page cache and the bytecode of both programs
        time_baseline()
        tether_times: list[float] = []
        baseline_times: list[float] = []
        for _ in range(args.runs):
            tether_times.append(time_tether(home))
            baseline_times.append(time_baseline())
        rss = idle_rss_mb(home, workspace)
    tether_median = statistics.median(tether_times)
    baseline_median = statistics.median(baseline_times)
    ratio = tether_median / baseline_median
    print(f"tether acp, spawn -> initialize answer: median {tether_median * 1000:.0f} ms")
    print(f"python -c 'import acp.schema':         median {baseline_median * 1000:.0f} ms")
    print(f"ratio: {ratio:.2f} (goal <= {RATIO_GOAL})")
    print(f"idle RSS after session/new: {rss:.1f} MB (goal <= {RSS_GOAL_MB:.0f} MB)")


if __name__ == "__main__":
    main()
