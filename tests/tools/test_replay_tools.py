"""The tools a stored session is shown with: `default_tools()`'s, each made on first use."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.fresh import printed
from tether.tools.defaults import default_tools, replay_tools
from tether.tools.deferred import DeferredTool
from tether.tools.registry import ToolsOnFirstUse


def test_replay_tools_are_the_default_tools_each_made_when_first_asked_for() -> None:
    made, replay = default_tools(), replay_tools()
    assert [tool.name for tool in replay] == [tool.name for tool in made]
    assert all(isinstance(tool, DeferredTool) for tool in replay)
    for tool in made:
        own = replay.get(tool.name)
        assert type(own) is type(made.get(tool.name)), tool.name
        assert own is replay.get(tool.name)  # made once


def test_replay_tools_are_stated_when_first_asked_for() -> None:
    asked: list[int] = []
    later = ToolsOnFirstUse(lambda: asked.append(1) or list(default_tools()))
    assert asked == []  # a replay that never asks (a session that called no tool)
    eager = default_tools()
    assert [tool.name for tool in later.offered()] == [tool.name for tool in eager.offered()]
    assert later.names() == eager.names() and len(later) == len(eager)
    assert type(later.get("read")) is type(eager.get("read"))
    assert later.withheld() == eager.withheld()
    assert asked == [1]  # made once
    try:
        later.unknown  # noqa: B018
    except AttributeError:
        pass
    else:
        raise AssertionError("a name the registry lacks is not made up")


_EMPTY_SHOW = """
import sys
from tether.cli import main
from tether.tools import deferred, schema
sys.argv = ["tether", "show", sys.argv[1], "--json"]
main()
print(schema.stored_specs.cache_info().currsize, deferred._stand_in_class.cache_info().currsize)
"""


def test_show_of_a_session_that_called_no_tool_states_none(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    session = "01a2ffffffffffffffff"
    (sessions / f"{session}.jsonl").write_text(
        f'{{"type":"session","version":1,"id":"{session}","cwd":"/ws",'
        '"createdAt":"2026-12-05T03:36:38.951Z"}\n'
    )
    env = {**os.environ, "TETHER_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", _EMPTY_SHOW, session],
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "0 0"  # neither the specs read nor a tool stated


_CARD_MODULES = """
import importlib, sys
from tether.lazy import defer_imports
from tether.tools.defaults import DEFERRED_HOMES
defer_imports()
for name, home in DEFERRED_HOMES.items():
    if name not in ("bash_output", "kill_shell"):  # a job's cards read the job's own types
        importlib.import_module(home.rpartition(".")[0])
print(sorted(name for name in ("asyncio", "subprocess") if name in sys.modules))
"""


def test_a_replayed_cards_tool_loads_no_event_loop_or_processes() -> None:
    # A stored call's cards are made by its tool from what the log kept (`tether show`): the
    # modules that run calls (the event loop, processes) load with the first call run.
    assert printed(_CARD_MODULES, dict(os.environ)) == ["[]"]
