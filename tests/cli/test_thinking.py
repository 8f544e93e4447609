"""Thinking at the terminal: one dimmed line saying how long, the thought itself with
`--verbose`; `tether show` prints what the run printed; a bad `--thinking` is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.cli.in_process import tether_in_process
from tests.cli.support import scripted_model, sessions_listed

THOUGHT = "The file is small; one read is enough."


def test_a_thought_is_one_line_and_whole_with_verbose(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    model = scripted_model(tmp_path / "s.json", {"thinking": THOUGHT, "text": "Hello there."})
    run = tether_in_process(home, "run", "say hello", "--model", model, "--cwd", str(ws))
    assert run.returncode == 0, run.stderr
    assert re.search(r"✻ Thought for \d+(\.\d)? m?s\n", run.stdout)
    assert THOUGHT not in run.stdout
    assert run.stdout.index("Thought for") < run.stdout.index("Hello there.")
    [row] = sessions_listed(home, run=tether_in_process)

    show = tether_in_process(home, "show", row["id"])
    assert show.stdout == run.stdout
    verbose = tether_in_process(home, "show", row["id"], "--verbose")
    assert f"  {THOUGHT}" in verbose.stdout
    document = json.loads(tether_in_process(home, "show", row["id"], "--json").stdout)
    kinds = [u["kind"] for u in document["updates"]]
    assert kinds.count("agent_thought") == 3 and kinds.count("thought_finished") == 1
    finished = next(u for u in document["updates"] if u["kind"] == "thought_finished")
    assert finished["text"] == f"Thought for {_said(finished['durationMs'])}"


def test_a_level_that_does_not_exist_is_refused(tmp_path: Path, ws: Path) -> None:
    run = tether_in_process(
        tmp_path / "home", "run", "hi", "--model", "openai", "--thinking", "max"
    )
    assert run.returncode == 2
    assert "unknown thinking level 'max': use off, low, medium, high" in run.stderr


def _said(ms: int) -> str:
    return f"{ms} ms" if ms < 1000 else f"{ms / 1000:.1f} s"
