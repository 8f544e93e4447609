"""ACP agents spawned for the start-up bench: time and CPU from spawn to each answer.

One spawn of an agent gives three figures: the wall time from spawn to its `initialize`
answer and to its `session/new` answer, the CPU (user + system) its process tree had used at
each answer, and its resident memory once `session/new` is answered.

The agents:

- `tether acp`, with its own `TETHER_HOME` and no key that could reach a provider;
- claude-code-acp (`@zed-industries/claude-code-acp`), the floor, when installed. It runs
  Claude Code, which refuses to start without a key and, as root, without `IS_SANDBOX=1`; it
  gets a placeholder key, an endpoint on 127.0.0.1's discard port and a home of its own.
  Claude Code still looks up api.anthropic.com at start, so both agents run in a network
  namespace of their own (`unshare -n`, which has no way out): nothing leaves the machine.
  Where that namespace cannot be made, claude-code-acp is not run (`offline` is `None`).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

ANSWER_TIMEOUT = 60.0
"""Seconds an agent has to answer one request."""

_TICK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Answers:
    """One spawn's figures (seconds, and MB for memory)."""

    initialize_wall: float
    initialize_cpu: float
    new_wall: float
    new_cpu: float
    rss_mb: float


@dataclass(frozen=True)
class AcpAgent:
    """How to spawn one agent."""

    name: str
    argv: list[str]
    env: dict[str, str]


@functools.cache
def offline() -> list[str] | None:
    """The command prefix that runs a program without a network (`None`: not allowed here)."""
    prefix = ["unshare", "-n"]
    try:
        done = subprocess.run([*prefix, "true"], capture_output=True, timeout=30, check=False)
    except OSError:
        return None
    return prefix if done.returncode == 0 else None


def tether_agent(home: Path) -> AcpAgent:
    """`tether acp` by this Python, with its sessions under `home`."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.endswith("_API_KEY") and k != "PYTHONDONTWRITEBYTECODE"
    }
    env.update(TETHER_HOME=str(home), DEEPSEEK_API_KEY="bench-no-request")
    command = [sys.executable, "-m", "tether", "acp"]
    return AcpAgent("tether acp", [*(offline() or []), *command], env)


def claude_code_agent(command: str, home: Path) -> AcpAgent | None:
    """claude-code-acp at `command`, kept on this machine (see the module's text); `None`
    when no network namespace can be made to keep it there."""
    prefix = offline()
    if prefix is None:
        return None
    home.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(
        HOME=str(home),
        IS_SANDBOX="1",
        ANTHROPIC_API_KEY="bench-no-request",
        ANTHROPIC_BASE_URL="http://127.0.0.1:9",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_TELEMETRY="1",
        DISABLE_AUTOUPDATER="1",
        DISABLE_ERROR_REPORTING="1",
    )
    return AcpAgent("claude-code-acp", [*prefix, command], env)


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
        if message.get("id") == request_id and "method" not in message:
            if "error" in message:
                raise RuntimeError(f"request {request_id} failed: {message['error']}")
            return message
    raise RuntimeError(f"no answer to request {request_id} within 1000 messages")


def _tree(pid: int) -> list[int]:
    """`pid` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rpartition(")")[2].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        found.append(todo.pop())
        todo.extend(children.get(found[-1], []))
    return found


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by `pid`'s process tree, reaped children too."""
    total = 0
    for one in _tree(pid):
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    return total / _TICK


def tree_rss_mb(pid: int) -> float:
    """Resident memory of `pid`'s process tree, in MB."""
    total = 0
    for one in _tree(pid):
        try:
            status = Path(f"/proc/{one}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def answers(agent: AcpAgent, workspace: Path) -> Answers:
    """Spawn `agent`, ask `initialize` then `session/new` in `workspace`, and stop it."""
    start = time.perf_counter()
    process = subprocess.Popen(
        agent.argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=agent.env,
        cwd=workspace,
        start_new_session=True,  # its helpers, too, are stopped with it
    )
    assert process.stdin is not None and process.stdout is not None
    # An agent that stops answering is killed, which ends the reads below.
    watchdog = threading.Timer(2 * ANSWER_TIMEOUT, _kill, (process,))
    watchdog.start()
    try:
        hello = {
            "protocolVersion": 1,
            "clientCapabilities": {"fs": {"readTextFile": True, "writeTextFile": True}},
            "clientInfo": {"name": "startup-bench", "version": "1"},
        }
        _send(process.stdin, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
        _answer(process.stdout, 1)
        initialize_wall, initialize_cpu = time.perf_counter() - start, tree_cpu(process.pid)
        new = {"cwd": str(workspace), "mcpServers": []}
        _send(process.stdin, {"jsonrpc": "2.0", "id": 2, "method": "session/new", "params": new})
        _answer(process.stdout, 2)
        new_wall, new_cpu = time.perf_counter() - start, tree_cpu(process.pid)
        rss = tree_rss_mb(process.pid)
        return Answers(initialize_wall, initialize_cpu, new_wall, new_cpu, rss)
    finally:
        watchdog.cancel()
        _stop(process)


def _stop(process: subprocess.Popen[bytes]) -> None:
    assert process.stdin is not None
    process.stdin.close()  # an agent ends when its client closes stdin
    try:
        process.wait(timeout=ANSWER_TIMEOUT)
    except subprocess.TimeoutExpired:
        _kill(process)
        process.wait()
    _kill(process)  # whatever it left running in its group


def _kill(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
