"""Benchmark `grep` on a 50,000-file tree (about 500 MB) against plain `rg`: wall time ratio.

Builds, once, in a temporary directory removed afterwards, 500 directories of 100 source-like
files of about 10 KB each, one file in fifty holding a few lines that match the pattern.
Then alternates runs of the real grep tool (in this process, as a session runs it) and of
plain `rg PATTERN` (the same bundled binary, default output captured through a pipe) on the
same tree and pattern, swapping which goes first each round so a busy machine slows both
alike, and prints the medians and their ratio (and the best times' ratio, the least noisy
on a shared machine), with the CPU time (user + system) of each beside its wall time: the
tool's is this process's plus ripgrep's. Goal: ratio <= 1.2.

Then the same search as a fresh process would make it (a new interpreter importing the tool),
against a fresh `rg`, alternating, with CPU beside wall; it has no goal of its own here: what
it adds to the above is the interpreter's start and tether's imports.

Usage: python bench/search_bench.py [--runs N] [--files N] [--fresh-runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tether.tools import ToolContext, Workspace, invoke
from tether.tools.search import GrepArgs, GrepTool
from tether.tools.search.rg import rg_binary

PATTERN = r"handle_\w+_request"
FILE_BYTES = 10_000
PER_DIR = 100
_WORDS = "value result index count buffer status config client server token item node".split()


def _filler(rng: random.Random) -> bytes:
    """About FILE_BYTES of plausible code lines that never match the pattern."""
    lines, size = [], 0
    while size < FILE_BYTES:
        a, b, c = rng.choice(_WORDS), rng.choice(_WORDS), rng.choice(_WORDS)
        line = f"    {a}_{b} = compute_{c}({a}, {b}) + {rng.randrange(1000)}\n"
        lines.append(line)
        size += len(line)
    return "".join(lines).encode()


def build(root: Path, files: int) -> tuple[int, int]:
    """Write the tree; returns its size in bytes and the number of matching lines."""
    rng = random.Random(7)
    # A few distinct bodies keep the build fast while no two neighbours are identical.
    bodies = [_filler(rng) for _ in range(32)]
    size = matches = 0
    for i in range(files):
        directory = root / f"pkg{i // PER_DIR:03}"
        if i % PER_DIR == 0:
            directory.mkdir()
        body = bodies[i % len(bodies)]
        if i % 50 == 0:
            extra = f"def handle_{_WORDS[i % len(_WORDS)]}_request(req):\n    return req\n" * 3
            body = extra.encode() + body
            matches += 3
        (directory / f"mod{i % PER_DIR:03}.py").write_bytes(body)
        size += len(body)
    return size, matches


def _children_cpu() -> float:
    """CPU seconds (user + system) of the children waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


async def time_tool(root: Path) -> tuple[float, float, str]:
    """One grep through the real tool: wall time, CPU time (ours and ripgrep's), its footer."""
    ctx = ToolContext(workspace=Workspace.at(root))
    children, cpu, start = _children_cpu(), time.process_time(), time.perf_counter()
    result = await invoke(GrepTool(), GrepArgs(pattern=PATTERN), ctx)
    elapsed = time.perf_counter() - start
    used = time.process_time() - cpu + _children_cpu() - children
    return elapsed, used, result.text().rsplit("\n", 1)[-1]


def time_rg(root: Path) -> tuple[float, float]:
    """One plain `rg PATTERN` on the tree, its output read through a pipe: wall and CPU time."""
    children, start = _children_cpu(), time.perf_counter()
    subprocess.run([str(rg_binary()), PATTERN], cwd=root, capture_output=True, check=True)
    return time.perf_counter() - start, _children_cpu() - children


_FRESH = """
import asyncio, sys
from tether.tools import ToolContext, Workspace, invoke
from tether.tools.search import GrepArgs, GrepTool

ctx = ToolContext(workspace=Workspace.at(sys.argv[2]))
result = asyncio.run(invoke(GrepTool(), GrepArgs(pattern=sys.argv[1]), ctx))
sys.exit(1 if result.is_error else 0)
"""


def time_fresh(root: Path) -> tuple[float, float]:
    """One grep in a fresh interpreter: wall and CPU time (the interpreter's and ripgrep's)."""
    children, start = _children_cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-c", _FRESH, PATTERN, str(root)], check=True)
    return time.perf_counter() - start, _children_cpu() - children


def fresh_rows(root: Path, runs: int) -> None:
    """A fresh process's grep against a fresh `rg`, alternating; print the medians."""
    fresh: list[tuple[float, float]] = []
    plains: list[tuple[float, float]] = []
    for round_ in range(runs):
        if round_ % 2:
            plains.append(time_rg(root))
        fresh.append(time_fresh(root))
        if not round_ % 2:
            plains.append(time_rg(root))
    wall, rg_wall = (statistics.median(w for w, _ in rows) for rows in (fresh, plains))
    cpu, rg_cpu = (statistics.median(c for _, c in rows) for rows in (fresh, plains))
    print(
        f"grep in a fresh process {wall:.3f} s, rg {rg_wall:.3f} s, ratio {wall / rg_wall:.2f} "
        f"(median of {runs}); CPU {cpu:.3f} s vs {rg_cpu:.3f} s, ratio {cpu / rg_cpu:.2f} "
        f"(load average {os.getloadavg()[0]:.1f})"
    )


def main() -> None:
    """Build the tree, warm the cache, alternate the two searches, print the medians."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument("--fresh-runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="search-bench-") as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        size, matches = build(root, args.files)
        built = time.perf_counter() - start
        print(
            f"tree: {args.files} files, {size / 1e6:.0f} MB, {matches} matching lines "
            f"(built in {built:.1f} s)"
        )
        time_rg(root)  # warm the page cache
        tools: list[float] = []
        tool_cpus: list[float] = []
        loads: list[float] = []
        plains: list[tuple[float, float]] = []
        footer = ""
        loop = asyncio.new_event_loop()
        for round_ in range(args.runs):
            if round_ % 2:
                plains.append(time_rg(root))
            seconds, cpu, footer = loop.run_until_complete(time_tool(root))
            tools.append(seconds)
            tool_cpus.append(cpu)
            if not round_ % 2:
                plains.append(time_rg(root))
            loads.append(os.getloadavg()[0])
        loop.close()
        walls = [wall for wall, _ in plains]
        tool_s, rg_s = statistics.median(tools), statistics.median(walls)
        tool_cpu = statistics.median(tool_cpus)
        rg_cpu = statistics.median(cpu for _, cpu in plains)
        print(
            f"grep tool {tool_s:.3f} s, plain rg {rg_s:.3f} s, ratio {tool_s / rg_s:.2f} "
            f"(goal <= 1.2; median of {args.runs}); best {min(tools):.3f} s vs "
            f"{min(walls):.3f} s, ratio {min(tools) / min(walls):.2f}; CPU {tool_cpu:.3f} s vs "
            f"{rg_cpu:.3f} s, ratio {tool_cpu / rg_cpu:.2f} (load average "
            f"{min(loads):.1f}-{max(loads):.1f})"
        )
        print(f"the tool's footer: {footer}")
        fresh_rows(root, args.fresh_runs)


if __name__ == "__main__":
    main()
