"""Benchmark what the sandbox adds to a command: `true` through the bash tool, both ways.

In one run, alternating so that both see the same machine load, runs `true` N times through
the real `bash` tool sandboxed (`workspace-write`, bubblewrap) and N times unsandboxed
(`--sandbox off`), in a temporary workspace. Prints the median and mean milliseconds per
command of each and the difference: what the sandbox costs a command. Goal: under 15 ms.

Usage: python bench/sandbox_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tether.sandbox.bwrap import find_bwrap
from tether.sandbox.policy import SandboxPolicy
from tether.tools import ToolContext, Workspace, invoke
from tether.tools.bash import BashArgs, BashTool

GOAL_MS = 15.0


async def timed(tool: BashTool, ctx: ToolContext) -> float:
    """Milliseconds for one `true` through the tool; fails unless it exited 0."""
    start = time.perf_counter()
    result = await invoke(tool, BashArgs(command="true"), ctx)
    elapsed = (time.perf_counter() - start) * 1000
    if result.is_error or not result.text().endswith("Exit code: 0"):
        raise SystemExit(f"`true` failed: {result.text()}")
    return elapsed


async def main(runs: int) -> int:
    """Run the benchmark and print the figures; non-zero when the goal is missed."""
    bwrap = find_bwrap()
    if not bwrap.works:
        print(f"the sandbox cannot start here: {bwrap.problem}", file=sys.stderr)
        return 1
    sandboxed = BashTool(sandbox=SandboxPolicy("workspace-write"))
    unsandboxed = BashTool(sandbox=SandboxPolicy("off"))
    with tempfile.TemporaryDirectory(prefix="tether-sandbox-bench-") as tmp:
        ctx = ToolContext(workspace=Workspace.at(Path(tmp)))
        for tool in (sandboxed, unsandboxed):  # warm caches: the probe, the page cache
            await timed(tool, ctx)
        inside: list[float] = []
        outside: list[float] = []
        for _ in range(runs):
            inside.append(await timed(sandboxed, ctx))
            outside.append(await timed(unsandboxed, ctx))
    added = statistics.median(inside) - statistics.median(outside)
    print(f"`true` x {runs} through the bash tool ({bwrap.path})")
    for name, times in (("sandboxed", inside), ("unsandboxed", outside)):
        print(
            f"  {name:<12} median {statistics.median(times):6.2f} ms"
            f"  mean {statistics.fmean(times):6.2f} ms"
        )
    print(f"  added by the sandbox: {added:.2f} ms per command (goal < {GOAL_MS:g} ms)")
    return 0 if added < GOAL_MS else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=200, help="commands each way (default 200)")
    raise SystemExit(asyncio.run(main(parser.parse_args().runs)))
