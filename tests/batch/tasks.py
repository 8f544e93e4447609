"""Task files, scripts and repositories for the batch tests, and a worker killed mid-task."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.batch.model_server import Counting, counting_model
from tests.cli.in_process import tether_in_process
from tests.cli.support import scripted_model
from tests.conftest import REPO
from tests.gitrepo import git
from tests.polling import eventually

TETHER = REPO / ".venv" / "bin" / "tether"


def work(path: Path, file: str, old: str, new: str, *, command: str = "echo ran > ran.txt") -> str:
    """A script that reads `file`, replaces `old` by `new` in it, runs `command`, then says so."""
    return scripted_model(
        path,
        {
            "toolCalls": [
                {"id": "r", "name": "read", "arguments": {"path": file}},
                {
                    "id": "e",
                    "name": "edit",
                    "arguments": {"path": file, "old_string": old, "new_string": new},
                },
                {"id": "b", "name": "bash", "arguments": {"command": command}},
            ],
            "usage": {"inputTokens": 100, "outputTokens": 10},
        },
        {"text": f"Replaced {old} by {new}.", "usage": {"inputTokens": 120, "outputTokens": 5}},
    )


def git_repo(path: Path, files: dict[str, str]) -> Path:
    """A repository with one commit of `files`."""
    path.mkdir()
    for name, text in files.items():
        (path / name).write_text(text)
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "start"]):
        git(*command, cwd=path)
    return path


def write_tasks(path: Path, lines: list[dict[str, Any] | str]) -> Path:
    """A task file: objects as JSON lines, strings as they are (bad lines)."""
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return path


def results(out: Path) -> list[dict[str, Any]]:
    """Every line of `out/results.jsonl`, in order."""
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def log_events(out: Path, session_id: str) -> list[dict[str, Any]]:
    """The events of a session the batch wrote."""
    text = (out / "sessions" / f"{session_id}.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def batch_env(home: Path) -> dict[str, str]:
    """The environment a batch runs in: its own home, no model from the environment."""
    env = {**os.environ, "TETHER_HOME": str(home), "COLUMNS": "120", "NO_COLOR": "1"}
    env.pop("TETHER_MODEL", None)
    return env


def run_batch(
    home: Path, args: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`tether batch ARGS` to its end, run by the test's own process (its workers are processes
    of their own), with nothing to read on its input."""
    return tether_in_process(home, "batch", *args, cwd=cwd, env=env)


def gated_batch(
    tmp_path: Path, count: int, runner: list[str]
) -> tuple[subprocess.CompletedProcess[str], Counting]:
    """`count` one-step tasks against the counting model, run by `runner` (`--workers N` or
    `--ray ADDRESS`) with `--max-concurrency 1`; how the batch ended, and the model's counts."""
    (tmp_path / "folder").mkdir()
    lines: list[dict[str, Any] | str] = [
        {"id": f"t{n}", "prompt": "say done", "cwd": "folder"} for n in range(count)
    ]
    tasks = write_tasks(tmp_path / "tasks.jsonl", lines)
    with counting_model() as (url, counts):
        done = run_batch(
            tmp_path / "home",
            [
                *(str(tasks), "--out", str(tmp_path / "out")),
                *runner,
                *("--max-concurrency", "1"),
                *("--model", "openai:counting", "--base-url", url),
            ],
            env={"TETHER_API_KEY": "test-key"},
        )
    return done, counts


def in_a_thread(work: Callable[[Path], None], path: Path) -> Callable[[], None]:
    """Start `work(path)` in a thread; what waits for it and raises what it raised."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            work(path)
        except BaseException as exc:  # raised again in the test's thread, once joined
            failed.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def joined() -> None:
        thread.join()
        if failed:
            raise failed[0]

    return joined


def killed_once_setup(tmp_path: Path) -> str:
    """A setup command that records its worker's pid and, the first time only, waits long
    enough to be killed mid-task (its sleep's pid noted so the test can end it too).

    The sleep's pid is written beside its file and renamed onto it: the test waits for the
    file, and `echo > file` would let it see the file created but still empty.
    """
    pids, sleeper = tmp_path / "pids", tmp_path / "sleeper"
    return (
        f"echo $PPID >> {pids}; "
        f"if [ $(wc -l < {pids}) -eq 1 ]; then "
        f"sleep 120 & echo $! > {sleeper}.part && mv {sleeper}.part {sleeper}; wait; fi"
    )


def kill_first_worker(tmp_path: Path) -> None:
    """Wait for the first attempt's worker, then kill it (and its setup's sleep)."""
    pids, sleeper = tmp_path / "pids", tmp_path / "sleeper"
    asyncio.run(eventually(sleeper.is_file, "the first attempt's setup running", within=120))
    os.kill(int(pids.read_text().split()[0]), signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        os.kill(int(sleeper.read_text()), signal.SIGKILL)
