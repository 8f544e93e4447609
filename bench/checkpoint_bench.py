"""Benchmark checkpoints on the search bench's tree (50,000 files, about 500 MB).

Prints:
- the first checkpoint of a fresh workspace (every file hashed and stored), against `git init
  && git add -A && git write-tree` on a plain copy, alternating (goal: ratio <= 1.2);
- the median time of a checkpoint after a step that changed 3 files, against
  `git add -A && git write-tree` on a plain copy of the same tree given the same changes, in
  the same run, alternating which goes first each round (goal: ratio <= 1.2);
- the disk used by 100 checkpoints of small changes (3 files get a line each), against the
  bytes those changes wrote (goal: <= 2x plus git's per-object overhead).

The tree is built once in a temporary directory removed afterwards. Its files repeat 32
bodies (as the search bench's do), so the first checkpoint stores few distinct blobs but still
reads and hashes every byte.

Usage: python bench/checkpoint_bench.py [--runs N] [--files N] [--first-runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tether.checkpoints import open_store

sys.path.insert(0, str(Path(__file__).parent))
from search_bench import PER_DIR, build

_PLAIN_ENV = {
    **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, env=_PLAIN_ENV, check=True, capture_output=True)


def _cpu() -> float:
    """CPU seconds (user + system) of this process and of the children it waited for."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _plain_checkpoint(root: Path) -> float:
    """`git add -A && git write-tree` in the plain copy (its own repository)."""
    start = time.perf_counter()
    _git(root, "add", "-A")
    _git(root, "write-tree")
    return time.perf_counter() - start


def _fresh_plain(root: Path) -> float:
    """`git add -A && git write-tree` in a repository made just before (not timed)."""
    shutil.rmtree(root / ".git", ignore_errors=True)
    _git(root, "init", "-q")
    return _plain_checkpoint(root)


def _first_checkpoints(base: Path, tree: Path, plain: Path, runs: int) -> None:
    """The first checkpoint of a fresh workspace against a fresh `git add -A && git write-tree`,
    alternating which goes first; print the medians and their ratio."""
    firsts, fresh, first_cpus, fresh_cpus = [], [], [], []

    def plain_round() -> None:
        # CPU includes `git init` (untimed in wall): a few milliseconds.
        cpu = _cpu()
        fresh.append(_fresh_plain(plain))
        fresh_cpus.append(_cpu() - cpu)

    for round_ in range(runs):
        # Each round from nothing: a store of its own, a repository of its own.
        if round_ % 2:
            plain_round()
        store = open_store(base / f"home{round_}", tree)
        cpu, start = _cpu(), time.perf_counter()
        store.snapshot(None)
        firsts.append(time.perf_counter() - start)
        first_cpus.append(_cpu() - cpu)
        shutil.rmtree(base / f"home{round_}")
        if not round_ % 2:
            plain_round()
    first_s, fresh_s = statistics.median(firsts), statistics.median(fresh)
    first_cpu, fresh_cpu = statistics.median(first_cpus), statistics.median(fresh_cpus)
    print(
        f"first checkpoint of a fresh workspace: {first_s:.2f} s, git init && git add -A && "
        f"git write-tree {fresh_s:.2f} s, ratio {first_s / fresh_s:.2f} (goal <= 1.2; median "
        f"of {runs}); CPU {first_cpu:.2f} s vs {fresh_cpu:.2f} s, ratio "
        f"{first_cpu / fresh_cpu:.2f} (load average {os.getloadavg()[0]:.1f})"
    )


def _change(roots: list[Path], files: int, round_: int) -> int:
    """Append a line to 3 files spread over the tree (in every root); the bytes written."""
    written = 0
    for k in range(3):
        i = (round_ * 7919 + k * 104729) % files
        relative = Path(f"pkg{i // PER_DIR:03}") / f"mod{i % PER_DIR:03}.py"
        for root in roots:
            with (root / relative).open("a") as handle:
                handle.write(f"# change {round_}.{k}\n")
        written += (roots[0] / relative).stat().st_size
    return written


def _disk(directory: Path) -> int:
    """Bytes of disk the files under `directory` take (blocks, not sizes)."""
    return sum(p.lstat().st_blocks * 512 for p in directory.rglob("*") if p.is_file())


def main() -> None:
    """Build the tree, time the first checkpoint, then the alternating rounds, then disk use."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument("--first-runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="checkpoint-bench-") as tmp:
        base = Path(tmp)
        tree, plain, home = base / "tree", base / "plain", base / "home"
        tree.mkdir()
        start = time.perf_counter()
        size, _ = build(tree, args.files)
        shutil.copytree(tree, plain)
        built = time.perf_counter() - start
        print(f"tree: {args.files} files, {size / 1e6:.0f} MB (built in {built:.1f} s)")

        _first_checkpoints(base, tree, plain, args.first_runs)
        store = open_store(home, tree)
        first = store.snapshot(None)
        _git(plain, "init", "-q")
        _plain_checkpoint(plain)

        ours, theirs = [], []
        previous = first.tree
        for round_ in range(args.runs):
            _change([tree, plain], args.files, round_)
            if round_ % 2:
                theirs.append(_plain_checkpoint(plain))
            start = time.perf_counter()
            snapshot = store.snapshot(previous)
            ours.append(time.perf_counter() - start)
            assert len(snapshot.changed) == 3, snapshot.changed
            previous = snapshot.tree
            if not round_ % 2:
                theirs.append(_plain_checkpoint(plain))
        ours_s, theirs_s = statistics.median(ours), statistics.median(theirs)
        print(
            f"checkpoint after a 3-file step: {ours_s * 1000:.0f} ms, git add -A && git write-tree "
            f"{theirs_s * 1000:.0f} ms, ratio {ours_s / theirs_s:.2f} (median of {args.runs}); "
            f"best {min(ours) * 1000:.0f} ms vs {min(theirs) * 1000:.0f} ms, "
            f"ratio {min(ours) / min(theirs):.2f}"
        )

        objects = home / "snapshots"
        disk_before = _disk(objects)
        written = 0
        for round_ in range(100):
            written += _change([tree], args.files, 1000 + round_)
            previous = store.snapshot(previous).tree
        used = _disk(objects) - disk_before
        print(
            f"100 checkpoints of 3 changed files: {used / 1e6:.2f} MB of disk for "
            f"{written / 1e6:.2f} MB of changed files, ratio {used / written:.2f}"
        )


if __name__ == "__main__":
    main()
