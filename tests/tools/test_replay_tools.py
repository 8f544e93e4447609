"""The tools a stored session is shown with: `default_tools()`'s, each made on first use."""

from __future__ import annotations

import os

from tests.fresh import printed
from tether.tools.defaults import default_tools, replay_tools
from tether.tools.deferred import DeferredTool


def test_replay_tools_are_the_default_tools_each_made_when_first_asked_for() -> None:
    made, replay = default_tools(), replay_tools()
    assert [tool.name for tool in replay] == [tool.name for tool in made]
    assert all(isinstance(tool, DeferredTool) for tool in replay)
    for tool in made:
        own = replay.get(tool.name)
        assert type(own) is type(made.get(tool.name)), tool.name
        assert own is replay.get(tool.name)  # made once


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
