"""Benchmark how fast each `tether` command starts, each against its floor in the same run.

Rows (each spawn is a fresh process; tether and its floor alternate, run after run):

- `tether --version` against `python -c pass`: goal <= 100 ms and <= 3x;
- `tether --help` against `python -c pass`: goal <= 60 ms (it loads no settings, policy or
  session: the flags' defaults come from leaf modules);
- `tether sessions` on 1,000 stored sessions against importing rich and reading the 1,000
  headers: goal <= 1.5x; `tether sessions -n 0`, listing all 1,000: goal <= 3x;
- `tether run`, spawn to its first model request, against `import httpx` (what sending a
  request cannot avoid): goal <= floor + 150 ms;
- `tether acp`, spawn to its `initialize` answer and to its `session/new` answer, against
  claude-code-acp's (`bench/acp_agents.py`), wall and CPU: goal <= 1.0x on each; and its
  memory once `session/new` is answered: goal <= 55 MB. Without claude-code-acp installed
  (`npm install @zed-industries/claude-code-acp`; `--claude-code-acp PATH` or on `PATH`), the
  floor is the figure issue 46 measured for it: 0.28 s to `initialize` (its `session/new`
  was not measured there, so that row has no goal).

`tether --version`, `--help` and `sessions` run the installed `tether` command, as a person
does. `tether run` talks to a loopback OpenAI-compatible server (`bench/loopback_model.py`) and
is timed until that server gets its first request, its CPU read from `/proc` at that moment.
The rows print CPU (user + system, children included) beside wall, since the machine may be
shared, and the load average before and after. Sessions go to a temporary `TETHER_HOME`
removed afterwards; nothing leaves the machine.

Usage: python bench/startup_bench.py [--runs N] [--only NAME ...] [--claude-code-acp PATH]
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
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import acp_agents
from loopback_model import MODEL, LoopbackModel

RSS_GOAL_MB = 55.0
CLAUDE_CODE_INITIALIZE = 0.28
"""Seconds claude-code-acp took to answer `initialize` when issue 46 measured it."""
STORED_SESSIONS = 1000
PYTHON = sys.executable

_HEADERS_FLOOR = """
import json, os, sys
import rich.console, rich.table
folder = sys.argv[1]
for name in os.listdir(folder):
    if not name.endswith(".jsonl"):
        continue
    with open(os.path.join(folder, name), "rb") as log:
        json.loads(log.readline())
"""
"""What listing sessions cannot avoid: rich, and each log's first line, parsed."""


@dataclass
class Row:
    """One command, its floor, and how its goal is judged."""

    name: str
    floor_name: str
    tether: Callable[[], float]
    floor: Callable[[], float]
    goal: str
    met: Callable[[float, float], bool]
    cpu: Callable[[], float | None] | None = None
    """The CPU seconds of tether's last run, when not the whole process's (`None`: the whole)."""


def _environ(home: Path, **extra: str) -> dict[str, str]:
    """Tether's environment: its own data directory, no key that could reach a provider, and
    bytecode written (an installed tether has it; compiling every module each run is not
    what anyone measures)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.endswith("_API_KEY") and k != "PYTHONDONTWRITEBYTECODE"
    }
    return {**env, "TETHER_HOME": str(home), **extra}


def _timed(argv: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> float:
    """Seconds for a process to run to its end (its output thrown away)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        argv,
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # A blocking wait, the time limit kept by a timer: waiting with a timeout polls in sleeps
    # that double up to 50 ms, so every time came out as one of 64, 114, 164... ms.
    limit = threading.Timer(120, process.kill)
    limit.start()
    try:
        status = process.wait()
    finally:
        limit.cancel()
    elapsed = time.perf_counter() - start
    if status != 0:
        raise subprocess.CalledProcessError(status, argv)
    return elapsed


def _python(code: str, *args: str) -> Callable[[], float]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return lambda: _timed([PYTHON, "-c", code, *args], env=env)


TETHER = Path(PYTHON).with_name("tether")
"""The command pip installs beside the interpreter (the same script for a wheel as for an
editable install): what a person runs. `python -m tether` would add `runpy`'s imports."""


def _tether(home: Path, *args: str) -> Callable[[], float]:
    command = [str(TETHER)] if TETHER.exists() else [PYTHON, "-m", "tether"]
    return lambda: _timed([*command, *args], env=_environ(home))


# --- sessions --------------------------------------------------------------------------------


def store_sessions(home: Path, workspace: Path, count: int) -> Path:
    """`count` stored sessions: one real run's log, copied under fresh ids."""
    script = home.parent / "hello.json"
    script.write_text(json.dumps({"turns": [{"text": "Hello there."}]}))
    subprocess.run(
        [PYTHON, "-m", "tether", "run", "--model", f"script:{script}", "say hello"],
        check=True,
        timeout=120,
        cwd=workspace,
        env=_environ(home),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    folder = home / "sessions"
    [log] = folder.glob("*.jsonl")
    first, _, rest = log.read_bytes().partition(b"\n")
    header = json.loads(first)
    for n in range(count - 1):
        session_id = f"{n:012x}bench{n:04d}"
        copy = json.dumps({**header, "id": session_id}, separators=(",", ":")).encode()
        (folder / f"{session_id}.jsonl").write_bytes(copy + b"\n" + rest)
    return folder


# --- run -------------------------------------------------------------------------------------


def time_run_to_request(home: Path, workspace: Path, model: LoopbackModel) -> float:
    """Seconds from spawning `tether run` to the loopback model's first request (its CPU
    seconds by then: `first_request_cpu`)."""
    before = len(model.arrivals)
    start = time.perf_counter()
    model.client_pid = None
    run = subprocess.Popen(
        [
            *(PYTHON, "-m", "tether", "run", "--model", f"openai:{MODEL}"),
            *("--base-url", model.base_url, "--mode", "auto", "read the file"),
        ],
        cwd=workspace,
        env=_environ(home),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    model.client_pid = run.pid  # long before its first request: the interpreter is starting
    try:
        if run.wait(timeout=120) != 0:
            raise RuntimeError(f"tether run exited with {run.returncode}")
    except subprocess.TimeoutExpired:
        run.kill()
        run.wait()
        raise
    if len(model.arrivals) <= before:
        raise RuntimeError("tether run made no model request")
    _first_request_cpu[:] = [model.cpu_at[before]]
    return model.arrivals[before] - start


_first_request_cpu: list[float | None] = [None]
"""The CPU seconds the last `time_run_to_request` read at its first request."""


def first_request_cpu() -> float | None:
    """The CPU seconds of the last timed `tether run` when it made its first request."""
    return _first_request_cpu[0]


# --- acp -------------------------------------------------------------------------------------


def acp_table(root: Path, runs: int, claude_code: str | None) -> None:
    """`tether acp` and claude-code-acp, spawn after spawn, to their `initialize` and
    `session/new` answers; medians of wall and CPU, and tether's memory after `session/new`."""
    workspace = root / "workspace"
    agents = [acp_agents.tether_agent(root / "acp")]
    if claude_code is not None:
        floor_agent = acp_agents.claude_code_agent(claude_code, root / "claude-home")
        if floor_agent is None:
            print("claude-code-acp is not run: no network namespace can be made to hold it")
            claude_code = None
        else:
            agents.append(floor_agent)
    for agent in agents:  # warm the page cache and the bytecode
        acp_agents.answers(agent, workspace)
    seen: dict[str, list[acp_agents.Answers]] = {agent.name: [] for agent in agents}
    for _ in range(runs):
        for agent in agents:
            seen[agent.name].append(acp_agents.answers(agent, workspace))

    def median(name: str, field: str) -> float:
        return float(statistics.median(getattr(a, field) for a in seen[name]))

    floor = "claude-code-acp" if claude_code is not None else "issue 46's claude-code-acp"
    load = " ".join(f"{n:.1f}" for n in os.getloadavg())
    print(f"\n{runs} spawns each, interleaved; medians from spawn; floor: {floor}; load {load}")
    print("| answer      | tether wall | CPU    | floor wall | CPU    | wall ratio | goal")
    print("|-------------|-------------|--------|------------|--------|------------|------")
    for label, wall, cpu in (
        ("initialize", "initialize_wall", "initialize_cpu"),
        ("session/new", "new_wall", "new_cpu"),
    ):
        mine, mine_cpu = median("tether acp", wall), median("tether acp", cpu)
        if claude_code is not None:
            theirs = median("claude-code-acp", wall)
            theirs_cpu = f"{median('claude-code-acp', cpu) * 1000:4.0f}ms"
        elif label == "initialize":
            theirs, theirs_cpu = CLAUDE_CODE_INITIALIZE, "   ?  "
        else:
            print(f"| {label:<11} | {mine * 1000:9.0f}ms | {mine_cpu * 1000:4.0f}ms | (none)")
            continue
        verdict = "met" if mine <= theirs else "NOT met"
        print(
            f"| {label:<11} | {mine * 1000:9.0f}ms | {mine_cpu * 1000:4.0f}ms "
            f"| {theirs * 1000:8.0f}ms | {theirs_cpu} | {mine / theirs:10.2f} | <= 1.0x ({verdict})"
        )
    rss = median("tether acp", "rss_mb")
    line = f"memory of tether acp after session/new: {rss:.1f} MB (goal <= {RSS_GOAL_MB:.0f} MB"
    if claude_code is not None:
        line += f"; claude-code-acp's process tree: {median('claude-code-acp', 'rss_mb'):.1f} MB"
    print(line + ")")


# --- the table -------------------------------------------------------------------------------


def rows(root: Path, model: LoopbackModel) -> list[Row]:
    """Every row, with what it needs set up under `root`."""
    listed_home, run_home = root / "listed", root / "run"
    workspace = root / "workspace"
    workspace.mkdir()
    (workspace / "notes.txt").write_text("x = 1\n" * 1700)  # about 10 KB
    folder = store_sessions(listed_home, workspace, STORED_SESSIONS)
    return [
        Row(
            "tether --version",
            "python -c pass",
            _tether(run_home, "--version"),
            _python("pass"),
            "<= 100 ms, <= 3x",
            lambda t, f: t <= 0.100 and t <= 3 * f,
        ),
        Row(
            "tether --help",
            "python -c pass",
            _tether(run_home, "--help"),
            _python("pass"),
            "<= 60 ms",
            lambda t, f: t <= 0.060,
        ),
        Row(
            f"tether sessions ({STORED_SESSIONS} stored)",
            "rich + read the headers",
            _tether(listed_home, "sessions"),
            _python(_HEADERS_FLOOR, str(folder)),
            "<= 1.5x",
            lambda t, f: t <= 1.5 * f,
        ),
        Row(
            f"tether sessions -n 0 ({STORED_SESSIONS} listed)",
            "rich + read the headers",
            _tether(listed_home, "sessions", "-n", "0"),
            _python(_HEADERS_FLOOR, str(folder)),
            "<= 3x",
            lambda t, f: t <= 3 * f,
        ),
        Row(
            "tether run -> 1st request",
            "import httpx",
            lambda: time_run_to_request(run_home, workspace, model),
            _python("import httpx"),
            "<= floor + 150 ms",
            lambda t, f: t <= f + 0.150,
            cpu=first_request_cpu,
        ),
    ]


Samples = list[tuple[float, float]]
"""(wall, CPU) seconds of each run."""


def _children_cpu() -> float:
    """CPU seconds of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _sample(
    run: Callable[[], float], cpu: Callable[[], float | None] | None
) -> tuple[float, float]:
    """(wall, CPU) seconds of one run: the CPU its process used, or what `cpu` reads."""
    before = _children_cpu()
    wall = run()
    used = _children_cpu() - before
    if cpu is not None:
        used = cpu() or used
    return wall, used


def _load() -> str:
    return " ".join(f"{n:.2f}" for n in os.getloadavg())


def main() -> None:
    """Run the rows interleaved, then print medians, ratios and whether each goal is met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="spawns of each kind")
    parser.add_argument(
        "--only", nargs="*", default=None, help="rows whose command starts with these words"
    )
    parser.add_argument(
        "--claude-code-acp",
        default=shutil.which("claude-code-acp"),
        help="claude-code-acp's command, the floor of the acp rows (default: on PATH)",
    )
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="tether-startup-"))
    model = LoopbackModel(str(root / "workspace" / "notes.txt"))
    try:
        table = rows(root, model)
        if args.only:
            table = [r for r in table if any(r.name.startswith(o) for o in args.only)]
        for row in table:  # warm the page cache and the bytecode of both sides
            row.tether()
            row.floor()
        loads = [_load()]
        times: dict[str, tuple[Samples, Samples]] = {r.name: ([], []) for r in table}
        for _ in range(args.runs):
            for row in table:
                times[row.name][0].append(_sample(row.tether, row.cpu))
                times[row.name][1].append(_sample(row.floor, None))
        loads.append(_load())
        print_table(table, times, args.runs, loads)
        if not args.only or any("tether acp".startswith(o) for o in args.only):
            acp_table(root, args.runs, args.claude_code_acp)
    finally:
        model.close()
        shutil.rmtree(root, ignore_errors=True)


def print_table(
    table: list[Row], times: dict[str, tuple[Samples, Samples]], runs: int, loads: list[str]
) -> None:
    """Medians of wall and CPU, ratios and verdicts of the rows (each goal judged on both)."""
    print(f"{runs} runs each, interleaved; medians of wall and of CPU (user + system)")
    print(f"load average (1, 5, 15 min): {loads[0]} before, {loads[-1]} after")
    print(
        f"| {'command':<34} | {'wall':>6} | {'CPU':>6} | {'floor':<29} | {'wall':>6} "
        f"| {'CPU':>6} | ratio | goal (on wall; on CPU)"
    )
    print(f"|{'-' * 36}|{'-' * 8}|{'-' * 8}|{'-' * 31}|{'-' * 8}|{'-' * 8}|-------|------")
    for row in table:
        mine, floor = times[row.name]
        wall, cpu = (statistics.median(s[i] for s in mine) for i in (0, 1))
        floor_wall, floor_cpu = (statistics.median(s[i] for s in floor) for i in (0, 1))
        verdicts = [
            "met" if row.met(t, f) else "NOT met" for t, f in ((wall, floor_wall), (cpu, floor_cpu))
        ]
        print(
            f"| {row.name:<34} | {wall * 1000:4.0f}ms | {cpu * 1000:4.0f}ms | {row.floor_name:<29} "
            f"| {floor_wall * 1000:4.0f}ms | {floor_cpu * 1000:4.0f}ms | {wall / floor_wall:5.2f} "
            f"| {row.goal} ({'; '.join(verdicts)})"
        )


if __name__ == "__main__":
    main()
