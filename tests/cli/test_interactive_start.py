"""How the interactive `tether` starts, seen from inside its own process, in a real pty."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

from tests.cli.support import scripted_model
from tests.cli.tui import Tui

_WATCHED = """
import gc, json, os, signal, sys
written = sys.argv[1]
collections = []
def seen(phase, info):
    if phase == "start" and "prompt_toolkit" in sys.modules and not gc.get_freeze_count():
        collections.append(info["generation"])
gc.callbacks.append(seen)
def say(signum, frame):
    state = {"collections": len(collections), "enabled": gc.isenabled(),
             "frozen": gc.get_freeze_count()}
    with open(written + ".part", "w") as f:
        json.dump(state, f)
    os.replace(written + ".part", written)
signal.signal(signal.SIGUSR1, say)
from tether.cli import main
sys.argv = ["tether", *sys.argv[2:]]
sys.exit(main())
"""
"""`tether ARGS` run by `python -c _WATCHED FILE ARGS`: on SIGUSR1, the collector's state so
far is written to FILE: the collections started once the screen's modules began to load and
before anything was set aside (frozen), whether it runs, the objects set aside."""


def test_nothing_is_collected_while_the_session_loads_and_the_collector_runs_after(
    tmp_path: Path, ws: Path, tuis: list[Tui]
) -> None:
    """What starting makes stays for the session: the collector waits until it is loaded,
    sets it aside (frozen), then runs for the session's own objects."""
    state = tmp_path / "gc.json"
    model = scripted_model(tmp_path / "s.json", {"text": "Hello."})
    program = [sys.executable, "-c", _WATCHED, str(state)]
    tui = Tui(tmp_path / "home", ["--model", model], cwd=ws, program=program)
    tuis.append(tui)
    tui.wait_for("script:s.json")  # the session is loaded
    os.kill(tui.child.pid, signal.SIGUSR1)  # the interpreter itself: no shell around it
    tui.wait(state.exists, "the collector's state written")
    loaded = json.loads(state.read_text())
    assert loaded == {"collections": 0, "enabled": True, "frozen": loaded["frozen"]}
    assert loaded["frozen"] > 10_000  # the modules, classes and schemas of the start
    tui.line("hello")
    tui.wait_for("Hello.")
    tui.press("ctrl-d")
    assert tui.finish() == 0
