"""Benchmark `tether batch`: the process pool and Ray against a loop of `tether run`, one run.

Every task is the same scripted one (read a file, edit it, run a command in the sandbox, then
answer) in a fresh copy of a small folder. Rows:

- a sequential loop of `tether run` processes, each in its own copy of the folder (made by
  the loop, as the batch makes its copies): the floor a shell script gives;
- `tether batch --workers W` (the process pool): goal >= 1.8x the loop's tasks per second;
- `tether batch --ray ADDRESS --workers W` on a local cluster of W CPUs started beforehand
  (loopback only): its per-task overhead over the pool, goal <= 50 ms. Overhead per task =
  (Ray's wall time - the pool's - a Ray driver's start) x W / tasks: the extra time each task
  held a worker. The driver's start (importing Ray and joining the cluster) is measured on its
  own and printed.

Everything lives in a temporary folder removed afterwards; `TETHER_HOME` points inside it.

Each of the pool and Ray runs `--rounds` times, alternating which goes first; the best of
each counts (the machine's load comes and goes).

Usage: python bench/batch_bench.py [--tasks N] [--loop-tasks N] [--workers W] [--rounds R]
       [--no-ray]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

VENV = Path(sys.executable).parent
TETHER = str(VENV / "tether")

SCRIPT = {
    "turns": [
        {
            "toolCalls": [
                {"id": "r", "name": "read", "arguments": {"path": "app.py"}},
                {
                    "id": "e",
                    "name": "edit",
                    "arguments": {
                        "path": "app.py",
                        "old_string": "return 1",
                        "new_string": "return 2",
                    },
                },
                {"id": "b", "name": "bash", "arguments": {"command": "grep -c return app.py"}},
            ],
            "usage": {"inputTokens": 1000, "outputTokens": 50},
        },
        {"text": "Changed it to 2.", "usage": {"inputTokens": 1100, "outputTokens": 10}},
    ]
}


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.pop("TETHER_MODEL", None)
    env.pop("RAY_ADDRESS", None)
    return {**env, "TETHER_HOME": str(home), "NO_COLOR": "1"}


def _folder(root: Path) -> Path:
    folder = root / "project"
    folder.mkdir()
    (folder / "app.py").write_text("def one():\n    return 1\n")
    (folder / "README.md").write_text("# Project\n\nA small one.\n")
    for n in range(20):
        (folder / f"mod{n}.py").write_text(f"VALUE = {n}\n" * 20)
    return folder


def _loop(root: Path, folder: Path, model: str, tasks: int) -> float:
    """Seconds for `tasks` sequential `tether run` processes, each in a fresh copy."""
    home = root / "loop-home"
    start = time.perf_counter()
    for n in range(tasks):
        copy = root / "loop" / f"t{n}"
        shutil.copytree(folder, copy, symlinks=True)
        done = subprocess.run(
            [TETHER, "run", "--model", model, "--mode", "auto", "--cwd", str(copy), "edit"],
            env=_env(home),
            capture_output=True,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"tether run failed: {done.stderr.decode()[-2000:]}")
        shutil.rmtree(copy)
    return time.perf_counter() - start


def _batch(root: Path, tasks_file: Path, name: str, *flags: str) -> float:
    """Seconds for `tether batch` over the task file; checks every task is done."""
    out = root / name
    start = time.perf_counter()
    done = subprocess.run(
        [TETHER, "batch", str(tasks_file), "--out", str(out), *flags],
        env=_env(root / f"{name}-home"),
        capture_output=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"tether batch ({name}) failed: {done.stderr.decode()[-2000:]}")
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert all(line["status"] == "done" and "+    return 2" in line["diff"] for line in lines)
    return elapsed


def _ray_driver_start(address: str, root: Path) -> float:
    """Seconds for a fresh process to import Ray and join the cluster (what each batch pays)."""
    code = (
        "import time; t = time.perf_counter(); import ray; "
        f"ray.init(address={address!r}, log_to_driver=False); "
        "print(time.perf_counter() - t); ray.shutdown()"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=_env(root), capture_output=True, text=True, check=True
    )
    return float(done.stdout.split()[-1])


def main() -> None:
    """Run the three and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=200)
    parser.add_argument("--loop-tasks", type=int, default=None, help="default: --tasks")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument(
        "--rounds", type=int, default=2, help="pool and Ray runs, alternating; the best counts"
    )
    args = parser.parse_args()
    loop_tasks = args.loop_tasks or args.tasks
    root = Path(tempfile.mkdtemp(prefix="tether-batch-bench-"))
    try:
        folder = _folder(root)
        script = root / "script.json"
        script.write_text(json.dumps(SCRIPT))
        model = f"script:{script}"
        tasks_file = root / "tasks.jsonl"
        tasks_file.write_text(
            "".join(
                json.dumps({"id": f"t{n}", "prompt": "edit", "cwd": str(folder), "model": model})
                + "\n"
                for n in range(args.tasks)
            )
        )
        print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        loop_s = _loop(root, folder, model, loop_tasks)
        loop_rate = loop_tasks / loop_s
        print(f"loop of tether run: {loop_tasks} tasks in {loop_s:.1f} s = {loop_rate:.2f} tasks/s")
        with _cluster(root, args.workers, enabled=not args.no_ray) as address:
            pool: list[float] = []
            ray: list[float] = []
            for round_ in range(args.rounds):
                # Alternate which goes first, so a change of the machine's load hits both.
                order = ("pool", "ray") if round_ % 2 == 0 else ("ray", "pool")
                for name in order:
                    if name == "pool":
                        flags = ("--workers", str(args.workers))
                        pool.append(_batch(root, tasks_file, f"pool{round_}", *flags))
                    elif address is not None:
                        ray.append(_batch(root, tasks_file, f"ray{round_}", "--ray", address))
            pool_s = min(pool)
            pool_rate = args.tasks / pool_s
            print(
                f"pool, {args.workers} workers: {args.tasks} tasks in {pool_s:.1f} s "
                f"(best of {_runs(pool)}) = {pool_rate:.2f} tasks/s = "
                f"{pool_rate / loop_rate:.2f}x the loop (goal >= 1.8x)"
            )
            if address is not None:
                _ray_row(
                    root,
                    address,
                    ray_s=min(ray),
                    runs=_runs(ray),
                    tasks=args.tasks,
                    workers=args.workers,
                    pool_s=pool_s,
                )
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def _cluster(root: Path, workers: int, *, enabled: bool) -> Iterator[str | None]:
    """A local Ray cluster of `workers` CPUs on loopback for the block; its address."""
    if not enabled:
        yield None
        return
    import ray

    context = ray.init(
        num_cpus=workers,
        include_dashboard=False,
        log_to_driver=False,
        _temp_dir=str(root / "ray"),
        _node_ip_address="127.0.0.1",
    )
    try:
        yield str(context.address_info["gcs_address"])
    finally:
        ray.shutdown()


def _runs(seconds: list[float]) -> str:
    return ", ".join(f"{s:.1f}" for s in seconds) + " s"


def _ray_row(
    root: Path, address: str, *, ray_s: float, runs: str, tasks: int, workers: int, pool_s: float
) -> None:
    joined = _ray_driver_start(address, root)
    overhead_ms = (ray_s - pool_s - joined) * workers / tasks * 1000
    raw_ms = (ray_s - pool_s) * workers / tasks * 1000
    print(
        f"ray, local cluster of {workers} CPUs: {tasks} tasks in {ray_s:.1f} s (best of {runs})"
        f" = {tasks / ray_s:.2f} tasks/s; a Ray driver's start {joined:.1f} s; "
        f"overhead per task over the pool {overhead_ms:.0f} ms (goal <= 50 ms; "
        f"{raw_ms:.0f} ms with the driver's start spread over the tasks)"
    )


if __name__ == "__main__":
    main()
