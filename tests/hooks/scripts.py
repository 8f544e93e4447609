"""Real hook scripts, bash and Python, written where a test wants them, and settings to run
them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tether.settings import Settings, load_settings

GUARD = """\
input=$(cat)
case "$input" in
  *'rm -rf'*) echo "rm -rf is not allowed here" >&2; exit 2;;
esac
"""
"""The classic guard: a PreToolUse hook that refuses any command holding `rm -rf`."""

RECORDER = """\
import json, sys
data = json.load(sys.stdin)
with open(sys.argv[1], "a") as out:
    out.write(json.dumps(data) + "\\n")
"""
"""Appends what it read on stdin, as one JSON line, to the file its first argument names."""


def bash_hook(folder: Path, name: str, body: str) -> str:
    """A bash script; the command that runs it."""
    path = folder / f"{name}.sh"
    path.write_text(body)
    return f"bash {path}"


def python_hook(folder: Path, name: str, body: str, *arguments: object) -> str:
    """A Python script; the command that runs it (with `arguments`)."""
    path = folder / f"{name}.py"
    path.write_text(body)
    return " ".join([sys.executable, str(path), *(str(a) for a in arguments)])


def recorder(folder: Path) -> tuple[str, Path]:
    """A Python hook that records its input; the command and the file it writes."""
    out = folder / "inputs.jsonl"
    return python_hook(folder, "record", RECORDER, out), out


def recorded(path: Path) -> list[dict[str, Any]]:
    """Every input the recorder was given, in order."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def group(
    command: str,
    matcher: str | None = None,
    timeout: float | None = None,
    sandbox: bool | None = None,
) -> dict[str, Any]:
    """One matcher group of one command hook, as the settings write it."""
    hook: dict[str, Any] = {"type": "command", "command": command}
    if timeout is not None:
        hook["timeout"] = timeout
    if sandbox is not None:
        hook["sandbox"] = sandbox
    entry: dict[str, Any] = {"hooks": [hook]}
    if matcher is not None:
        entry["matcher"] = matcher
    return entry


def user_hooks(home: Path, ws: Path, hooks: dict[str, list[dict[str, Any]]]) -> Settings:
    """`hooks` in `$TETHER_HOME/settings.json` (the user's own: trusted), loaded for `ws`."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text(json.dumps({"hooks": hooks}))
    return load_settings(ws, home)
