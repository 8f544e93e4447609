"""Benchmark one whole headless run, `tether run` against `opencode run`, on the same model.

Both talk to the same loopback OpenAI-compatible server (`bench/loopback_model.py`), which
answers the first request with one call of the client's `read` tool on a file and the next
with a short answer. Each run is timed from spawn to exit, for a 10 KB and a 50 MB file,
alternating tether and opencode run after run; the medians and their ratio are printed
(goal: tether <= 0.35 of opencode's time), with the median CPU time each run used (user and
system, its child processes included), which a loaded machine changes far less than the
wall time.

opencode runs when the `opencode` command is on PATH (the npm package `opencode-ai` installs
it), with a home of its own, its config in the workspace pointing at the loopback server,
and its fetch of models.dev turned off (nothing leaves the machine); without it, only
tether's times are printed, and the comparison is said to be skipped.

Usage: python bench/e2e_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from loopback_model import ANSWER, MODEL, LoopbackModel

RATIO_GOAL = 0.35
RUN_TIMEOUT = 300
PROMPT = "Read {name} and tell me what it holds."
SIZES = {"10 KB": 10 * 1024, "50 MB": 50 * 1024 * 1024}


def write_file(path: Path, size: int) -> None:
    """A text file of about `size` bytes, in numbered lines of code."""
    line = "value_{n:08d} = compute({n}, scale=2.5)  # a line of generated code\n"
    per = len(line.format(n=0))
    with path.open("w") as out:
        for start in range(0, size // per + 1, 10_000):
            end = min(start + 10_000, size // per + 1)
            out.write("".join(line.format(n=n) for n in range(start, end)))


def _clean_env(**extra: str) -> dict[str, str]:
    """No key that could reach a provider; bytecode written as an installed program has it."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.endswith("_API_KEY") and k != "PYTHONDONTWRITEBYTECODE"
    }
    return {**env, **extra}


def _cpu() -> float:
    """CPU seconds (user and system) of every child process waited for so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _timed(
    argv: list[str], cwd: Path, env: dict[str, str], model: LoopbackModel
) -> tuple[float, float]:
    """Seconds from spawn to exit of one run that must have read the file and answered, and
    the CPU seconds it used."""
    before = len(model.arrivals)
    cpu = _cpu()
    start = time.perf_counter()
    done = subprocess.run(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )
    elapsed = time.perf_counter() - start
    used = _cpu() - cpu
    if done.returncode != 0 or ANSWER not in done.stdout:
        raise RuntimeError(f"{argv[0]} failed ({done.returncode}): {done.stderr[-2000:]}")
    if len(model.arrivals) < before + 2:
        raise RuntimeError(f"{argv[0]} did not read the file and answer")
    return elapsed, used


def tether_run(home: Path, workspace: Path, model: LoopbackModel, name: str) -> tuple[float, float]:
    """One `tether run` (auto mode: nothing to approve), spawn to exit."""
    argv = [
        *(sys.executable, "-m", "tether", "run", "--mode", "auto"),
        *("--model", f"openai:{MODEL}", "--base-url", model.base_url),
        PROMPT.format(name=name),
    ]
    return _timed(argv, workspace, _clean_env(TETHER_HOME=str(home)), model)


def opencode_setup(root: Path, workspace: Path, model: LoopbackModel) -> dict[str, str]:
    """opencode's environment: a home of its own, and its config pointing at the model."""
    home = root / "opencode-home"
    config = {
        "$schema": "https://opencode.ai/config.json",
        "provider": {
            "loop": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "loop",
                "options": {"baseURL": model.base_url, "apiKey": "x"},
                "models": {MODEL: {"name": MODEL}},
            }
        },
        "model": f"loop/{MODEL}",
        "autoupdate": False,
        "share": "disabled",
    }
    (workspace / "opencode.json").write_text(json.dumps(config))
    return _clean_env(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        OPENCODE_DISABLE_MODELS_FETCH="1",
        OPENCODE_DISABLE_AUTOUPDATE="1",
    )


def opencode_run(
    opencode: str, env: dict[str, str], workspace: Path, model: LoopbackModel, name: str
) -> tuple[float, float]:
    """One `opencode run`, spawn to exit."""
    argv = [opencode, "run", "--model", f"loop/{MODEL}", PROMPT.format(name=name)]
    # opencode finds its project (and the config in it) from $PWD, not from its cwd.
    return _timed(argv, workspace, {**env, "PWD": str(workspace)}, model)


def main() -> None:
    """Run both, alternating, for each file size; print medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each, for each size")
    args = parser.parse_args()
    opencode = shutil.which("opencode")
    root = Path(tempfile.mkdtemp(prefix="tether-e2e-"))
    rows: list[tuple[str, list[tuple[float, float]], list[tuple[float, float]]]] = []
    try:
        for label, size in SIZES.items():
            workspace = root / label.replace(" ", "")
            workspace.mkdir()
            name = "data.py"
            write_file(workspace / name, size)
            model = LoopbackModel(str(workspace / name))
            try:
                env = opencode_setup(root, workspace, model) if opencode else {}
                home = root / "tether-home"
                tether_run(home, workspace, model, name)  # warm caches and bytecode
                if opencode:
                    opencode_run(opencode, env, workspace, model, name)
                mine: list[tuple[float, float]] = []
                theirs: list[tuple[float, float]] = []
                for _ in range(args.runs):
                    mine.append(tether_run(home, workspace, model, name))
                    if opencode:
                        theirs.append(opencode_run(opencode, env, workspace, model, name))
            finally:
                model.close()
            rows.append((label, mine, theirs))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{args.runs} runs each, interleaved; medians, spawn to exit (CPU time used)")
    for label, mine, theirs in rows:
        wall, cpu = _medians(mine)
        if not theirs:
            print(
                f"{label}: tether run {wall * 1000:.0f} ms (CPU {cpu * 1000:.0f} ms); "
                "opencode not on PATH: skipped"
            )
            continue
        their_wall, their_cpu = _medians(theirs)
        ratio = wall / their_wall
        verdict = "met" if ratio <= RATIO_GOAL else "NOT met"
        print(
            f"{label}: tether run {wall * 1000:.0f} ms (CPU {cpu * 1000:.0f} ms), "
            f"opencode run {their_wall * 1000:.0f} ms (CPU {their_cpu * 1000:.0f} ms), "
            f"ratio {ratio:.2f} (goal <= {RATIO_GOAL}: {verdict})"
        )


def _medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """The median wall time and the median CPU time of some runs."""
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


if __name__ == "__main__":
    main()
