"""Shared by the command line's tests: running `tether`, a scripted model, the sessions listed,
the one session's logged records, printed cards read as words."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tests.conftest import REPO

__all__ = [
    "TETHER",
    "flat",
    "into_head",
    "logged_records",
    "piped",
    "scripted_model",
    "sessions_listed",
    "tether",
]

TETHER = REPO / ".venv" / "bin" / "tether"


def writing_bytecode(environment: dict[str, str], kept: Mapping[str, str] | None = None) -> None:
    """Let the `tether` started with `environment` write bytecode, unless `kept` (what the
    test itself set) says otherwise.

    tether keeps the code its dataclasses compile (about a quarter of an interactive start's
    CPU) in a table beside its own bytecode, and writes none where `PYTHONDONTWRITEBYTECODE`
    is set (`tether.dataclass_code`), as it is on CI and on this machine: every `tether` a test
    started compiled all of it again. With the table written by the first, the others read it:
    the processes under test start as they do for a person who has run tether before.
    """
    if not kept or "PYTHONDONTWRITEBYTECODE" not in kept:
        environment.pop("PYTHONDONTWRITEBYTECODE", None)


def tether(home: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run `tether ARGS` with `TETHER_HOME=home`, stdin closed, a wide fixed terminal."""
    env = {**os.environ, "TETHER_HOME": str(home), "COLUMNS": "120", "NO_COLOR": "1"}
    env.pop("TETHER_MODEL", None)
    writing_bytecode(env)
    return subprocess.run(
        [str(TETHER), *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )


def scripted_model(path: Path, *turns: dict[str, Any]) -> str:
    """A `--model` spec for a script of `turns`, written to `path`."""
    path.write_text(json.dumps({"turns": list(turns)}))
    return f"script:{path}"


def sessions_listed(
    home: Path, run: Callable[..., subprocess.CompletedProcess[str]] = tether
) -> list[dict[str, Any]]:
    """`tether sessions --json` in `home`, parsed; `run` runs it (`in_process.tether_in_process`
    runs it in the test's own process)."""
    listed = run(home, "sessions", "--json")
    assert listed.returncode == 0, listed.stderr
    rows: list[dict[str, Any]] = json.loads(listed.stdout)
    return rows


def piped(home: Path, lines: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `tether ARGS` with `lines` on its input (a pipe, not a terminal)."""
    env = {**os.environ, "TETHER_HOME": str(home), "COLUMNS": "100", "NO_COLOR": "1"}
    env.pop("TETHER_MODEL", None)
    writing_bytecode(env)
    return subprocess.run(
        [str(TETHER), *args],
        env=env,
        input=lines,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def into_head(env: Mapping[str, str], *args: str) -> str:
    """`tether ARGS | head -c 10` in bash, with `env` for tether: the reader got its ten
    characters and tether, its pipe closed, ended quietly with the status a shell gives it
    (141, no traceback). What it wrote on stderr, its status last."""
    pipeline = subprocess.run(
        f"'{TETHER}' {' '.join(args)} | head -c 10; echo \"${{PIPESTATUS[0]}}\" >&2",
        shell=True,
        executable="/bin/bash",
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert len(pipeline.stdout) == 10
    assert pipeline.stderr.splitlines()[-1] == "141", pipeline.stderr
    assert "Traceback" not in pipeline.stderr
    return pipeline.stderr


def logged_records(home: Path) -> list[dict[str, Any]]:
    """Each line of the one session log under `home` (its header first), as JSON."""
    [path] = (home / "sessions").glob("*.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


def flat(text: str) -> str:
    """Printed cards as one line of words: borders dropped, wrapped lines joined."""
    return " ".join(re.sub("[│╭╮╰╯─]", " ", text).split())
