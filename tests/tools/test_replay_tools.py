"""The tools a stored session is shown with: `default_tools()`'s, each made on first use."""

from __future__ import annotations

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
