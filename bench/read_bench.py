"""Benchmark `read` on 1 GB files against `wc -l`: wall time ratio and peak memory.

Creates, in a temporary directory removed afterwards, a 1 GB file of 10M lines and a 1 GB
file of one line, reads each at offset 5,000,000 through the real tool in a subprocess, and
prints the median wall time of a few runs (of a first read in a fresh process, and of a second
read in the same process, as a session's later reads are), the median of `wc -l` on the same
file, their ratios, the CPU time (user + system) of each beside it, and the subprocess's peak
RSS. Goals: ratio <= 1.5 for a first read, <= 1.0
warm, and peak RSS < 100 MB.

Usage: python bench/read_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OFFSET = 5_000_000
GIB = 1 << 30

_CHILD = """
import asyncio, json, sys, time
from tether.tools import ToolContext, Workspace, invoke
from tether.tools.fs.read import ReadArgs, ReadTool

async def main() -> None:
    path, offset = sys.argv[1], int(sys.argv[2])
    ctx = ToolContext(workspace=Workspace.at(sys.argv[3]))
    start, cpu = time.perf_counter(), time.process_time()
    result = await invoke(ReadTool(), ReadArgs(path=path, offset=offset), ctx)
    elapsed, first_cpu = time.perf_counter() - start, time.process_time() - cpu
    # Again in the same process: a session's later reads (numpy imported, code warm).
    start, cpu = time.perf_counter(), time.process_time()
    await invoke(ReadTool(), ReadArgs(path=path, offset=offset), ctx)
    warm, warm_cpu = time.perf_counter() - start, time.process_time() - cpu
    # VmHWM, not ru_maxrss: after a fork the latter starts from the parent's peak.
    rss_kib = int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1])
    print(json.dumps({"seconds": elapsed, "cpu": first_cpu, "warm": warm, "warm_cpu": warm_cpu,
                      "rss_kib": rss_kib, "error": result.is_error, "head": result.text()[:160]}))

asyncio.run(main())
"""


def make_many_lines(path: Path) -> None:
    """10M lines of 100 bytes (1 GB), written in large blocks."""
    block = (b"x" * 99 + b"\n") * 100_000
    with path.open("wb") as handle:
        for _ in range(100):
            handle.write(block)


def make_one_line(path: Path) -> None:
    """One 1 GB line, no newline at all."""
    block = b"y" * (16 << 20)
    with path.open("wb") as handle:
        for _ in range(GIB // len(block)):
            handle.write(block)


def time_read(path: Path) -> dict[str, object]:
    """One read in a fresh interpreter: its wall time in the tool and its peak RSS."""
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path), str(OFFSET), str(path.parent)],
        capture_output=True,
        text=True,
        check=True,
    )
    report: dict[str, object] = json.loads(out.stdout)
    return report


def time_wc(path: Path) -> tuple[float, float]:
    """Wall time of `wc -l` on the file, and its CPU seconds (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(["wc", "-l", str(path)], capture_output=True, check=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def bench(name: str, path: Path, runs: int) -> None:
    """Warm the page cache, then alternate reads and `wc -l` runs and print the medians."""
    time_wc(path)
    reads, cpus, warms, warm_cpus, wcs, wc_cpus, rss = [], [], [], [], [], [], []
    head = ""
    for _ in range(runs):
        report = time_read(path)
        reads.append(float(str(report["seconds"])))
        cpus.append(float(str(report["cpu"])))
        warms.append(float(str(report["warm"])))
        warm_cpus.append(float(str(report["warm_cpu"])))
        rss.append(int(str(report["rss_kib"])))
        head = str(report["head"]).splitlines()[-1] if report["error"] else "ok"
        wc_wall, wc_cpu = time_wc(path)
        wcs.append(wc_wall)
        wc_cpus.append(wc_cpu)
    read_s, wc_s = statistics.median(reads), statistics.median(wcs)
    warm_s = statistics.median(warms)
    wc_cpu = statistics.median(wc_cpus)
    read_cpu, warm_cpu = statistics.median(cpus), statistics.median(warm_cpus)
    print(
        f"{name}: first read {read_s:.3f} s, wc -l {wc_s:.3f} s, ratio {read_s / wc_s:.2f} "
        f"(goal <= 1.5; CPU {read_cpu:.3f} s vs {wc_cpu:.3f} s, {read_cpu / wc_cpu:.2f}x); "
        f"warm read {warm_s:.3f} s, ratio {warm_s / wc_s:.2f} (goal <= 1.0; CPU "
        f"{warm_cpu:.3f} s, {warm_cpu / wc_cpu:.2f}x); peak RSS {max(rss) / 1024:.1f} MB "
        f"({head}; load average {os.getloadavg()[0]:.1f})"
    )


def main() -> None:
    """Build both files, bench them, clean up."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="read-bench-") as tmp:
        root = Path(tmp)
        lines, single = root / "lines.txt", root / "single.txt"
        make_many_lines(lines)
        bench("10M lines", lines, args.runs)
        lines.unlink()
        make_one_line(single)
        bench("1 line", single, args.runs)


if __name__ == "__main__":
    main()
