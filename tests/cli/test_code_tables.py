"""`tether show`'s table of dataclass code, filled at install (`tether.cli.code_tables`).

The fill runs as `scripts/setup` runs it, where bytecode is not written at run time
(`PYTHONDONTWRITEBYTECODE`); then `tether show`, in both forms, over a log with a call of
most tools, must find every class's code in the table (a process that compiled any anew would
add it to the table at its exit). Bytecode and the table go under a temporary
`PYTHONPYCACHEPREFIX`, so the checkout's own are left alone.
"""

from __future__ import annotations

import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path

import tether
from tests.cli.support import TETHER
from tests.pycache import linked_bytecode

SESSIONS = Path(__file__).parent / "show" / "sessions"
SESSION = "01a244467926cab9335b"
"""The golden log with calls of ten tools: reads, edits, a command, a search, a plan..."""
EMPTY = "01a2ffffffffffffffff"
"""A session with its header alone, written by the test."""


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(
        command, env=env, capture_output=True, stdin=subprocess.DEVNULL, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout or command[1] == "-m"


def test_show_compiles_no_dataclass_code_after_the_fill(tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(SESSIONS, home / "sessions")
    (home / "sessions" / f"{EMPTY}.jsonl").write_text(
        f'{{"type":"session","version":1,"id":"{EMPTY}","cwd":"/ws",'
        '"createdAt":"2026-12-05T03:36:38.951Z"}\n'
    )
    cache = linked_bytecode(tmp_path / "cache")  # the modules' bytecode, not compiled again
    env = {
        **os.environ,
        "TETHER_HOME": str(home),
        "PYTHONPYCACHEPREFIX": str(cache),
        "PYTHONDONTWRITEBYTECODE": "1",
        "COLUMNS": "100",
    }
    _run([sys.executable, "-m", "tether.cli.code_tables"], env)
    _run([sys.executable, "-m", "tether.cli.code_tables", "schemas"], env)  # as set-up does
    [table] = cache.rglob("dataclasses-show.*.marshal")
    filled = _code_texts(table)
    assert filled
    # The modules both processes loaded are kept in the table of modules' bytecode too.
    [modules] = cache.rglob("modules.*.table")
    held = modules.read_bytes()
    for module in ("cli/show_json.py", "session/replay.py", "models/openai_compat.py"):
        assert str(Path(tether.__file__).parent / module).encode() in held, module
    # Bytecode written from here on, as a person's `tether show`: anything compiled anew
    # would be saved to the table at exit.
    writing = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # A session that was started and left compiles nothing anew, not even a regular
    # expression's program (argparse's, as it parses the command line).
    kept = _entries(table)
    _run([str(TETHER), "show", EMPTY, "--json"], {**writing, "NO_COLOR": "1"})
    assert _entries(table) == kept
    _run([str(TETHER), "show", SESSION, "--json"], {**writing, "NO_COLOR": "1"})
    _run(
        [str(TETHER), "show", SESSION, "--verbose"],
        {**writing, "FORCE_COLOR": "1", "COLORTERM": "truecolor"},
    )
    # Regular expressions' programs may be added (a lexer's patterns, compiled as a card
    # highlights its language): no class's code, nor a forward reference, may be.
    assert _code_texts(table) == filled


def _code_texts(table: Path) -> set[tuple[str, str]]:
    """The dataclass methods' and forward references' texts the table holds."""
    return {key for key in _entries(table) if key[0] in ("exec", "eval")}


def _entries(table: Path) -> set[tuple[str, str]]:
    """Every text the table holds: code's and regular expressions' patterns'."""
    _, _, entries = marshal.loads(table.read_bytes())
    return set(entries)
