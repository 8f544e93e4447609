"""`tether show`'s text, pinned byte for byte over logs of every card kind.

The logs in `show/sessions/` were written by real runs: a call of every tool (MCP ones, an
agent's, a notebook edit, a background command and its job updates, a skill, plan mode's
exit), thinking, hooks, trust, checkpoints and a restore, a child session, a command typed at
the prompt, a failed presenter; `json/sessions/` adds images, resources, compaction and every
permission outcome. Each is shown plain (a pipe), in colour with `--verbose` (a terminal of
100 columns) and as JSON, so a faster way of drawing or dumping a card must give the same
bytes.
"""

from __future__ import annotations

import io
import re
import shutil
import sys
from pathlib import Path

import pytest

from tests.golden import check_golden
from tether.cli import main

HERE = Path(__file__).parent
LOGS = (HERE / "show" / "sessions", HERE / "json" / "sessions")
MODES = {
    "plain": ([], {"NO_COLOR": "1"}),
    "colour-verbose": (["--verbose"], {"FORCE_COLOR": "1", "COLORTERM": "truecolor"}),
    "json": (["--json"], {"NO_COLOR": "1"}),
}
LINK_ID = re.compile(r"\x1b]8;id=\d+;")
"""A terminal hyperlink's id, which rich draws at random."""


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    for logs in LOGS:
        shutil.copytree(logs, home / "sessions", dirs_exist_ok=True)
    return home


def shown(session: str, args: list[str]) -> str:
    """What `tether show SESSION ARGS` writes to stdout and stderr, and its exit status."""
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = stdout, stderr
    try:
        status = main(["show", session, *args])
    finally:
        sys.stdout, sys.stderr = saved
    text = LINK_ID.sub("\x1b]8;id=0;", out.getvalue().decode())
    return (
        f"=== {session} {' '.join(args)} (exit {status})\n"
        f"{text}--- stderr\n{err.getvalue().decode()}"
    )


@pytest.mark.parametrize("mode", MODES)
def test_show_and_show_json_print_every_card_kind_as_before(
    home: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    args, env = MODES[mode]
    for name in ("NO_COLOR", "FORCE_COLOR", "COLORTERM", "TETHER_MODEL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in {**env, "TETHER_HOME": str(home), "COLUMNS": "100"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("TERM", "xterm-256color")
    sessions = sorted(path.stem for path in (home / "sessions").glob("*.jsonl"))
    assert len(sessions) == 23
    text = "".join(shown(session, args) for session in sessions)
    check_golden(HERE / "show" / f"{mode}.txt", text)
