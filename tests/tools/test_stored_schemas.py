"""The built-in tools' stored specs (`src/tether/tools/specs.json`): each one is what its tool
says of itself, stating the tools builds none of their models, and a tool held as its
`DeferredTool` loads its module with its first use only.

`TETHER_SNAPSHOT=refresh` rewrites the file after a change to a tool's description or
arguments.
"""

from __future__ import annotations

import json
import os
from typing import Any

from tests.fresh import printed
from tests.golden import check_golden
from tether.tools.defaults import DEFERRED_HOMES, default_tools
from tether.tools.deferred import DeferredTool
from tether.tools.schema import STORED_SPECS, plain_schema, schema_key


def _made() -> list[Any]:
    """Every default tool, made (a deferred one through `get`, as a call gets it)."""
    tools = default_tools()
    return [tools.get(name) for name in tools.names()]


def test_the_stored_specs_are_the_tools_own() -> None:
    computed = {
        tool.name: {
            "description": type(tool).description,
            "onlyInMode": tool.only_in_mode,
            "arguments": schema_key(tool.args_model),
            "parameters": plain_schema(tool.args_model.model_json_schema()),
        }
        for tool in _made()
    }
    check_golden(STORED_SPECS, json.dumps(computed, indent=1, ensure_ascii=False) + "\n")
    # A deferred tool stands for the class it names, and a made tool states its stored schema.
    for tool in _made():
        if tool.name in DEFERRED_HOMES:
            assert f"{type(tool).__module__}.{type(tool).__qualname__}" == DEFERRED_HOMES[tool.name]
        assert tool.parameters_schema() == computed[tool.name]["parameters"]


def test_a_deferred_tool_tells_the_model_what_its_tool_does() -> None:
    tools = default_tools()
    made = {tool.name: tool for tool in _made()}
    deferred = [tool for tool in tools if isinstance(tool, DeferredTool)]
    assert sorted(t.name for t in deferred) == sorted(DEFERRED_HOMES)
    for stand_in in deferred:
        tool = made[stand_in.name]
        assert not isinstance(tool, DeferredTool)
        assert stand_in.describe() == tool.describe()
        assert stand_in.parameters_schema() == tool.parameters_schema()
        assert stand_in.unavailable() == tool.unavailable()
        assert stand_in.only_in_mode == tool.only_in_mode
    # Offered in each mode as before; `get` hands out the tool itself, kept from then on.
    for mode in ("ask", "plan", None):
        assert [t.name for t in tools.offered(mode)] == [
            t.name for t in _made() if t.unavailable() is None and t.only_in_mode in (None, mode)
        ]
    read = tools.get("read")
    assert type(read).__name__ == "ReadTool"
    assert tools.get("read") is read
    assert read.aliases  # what a call's arguments are read with: the tool's own
    fetch = tools.get("web_fetch")
    assert getattr(fetch, "allow_private", None) is False  # made with the options it was given


def test_stating_the_tools_builds_none_of_their_models_nor_loads_the_deferred() -> None:
    # A fresh interpreter: what the first request pays for. The arguments' models are built
    # by the first call that validates them, the deferred tools' modules load with it, and
    # then a call validates as before.
    code = (
        "import sys\n"
        "from tether.tools.arguments import ToolArguments\n"
        "from tether.tools.defaults import DEFERRED_HOMES, default_tools\n"
        "tools = default_tools()\n"
        "schemas = [(t.name, t.describe(), t.parameters_schema()) for t in tools.offered('ask')]\n"
        "def models(cls):\n"
        "    for sub in cls.__subclasses__():\n"
        "        yield sub\n"
        "        yield from models(sub)\n"
        "print(sorted(m.__name__ for m in models(ToolArguments) if m.__pydantic_complete__))\n"
        "homes = {home.rpartition('.')[0] for home in DEFERRED_HOMES.values()}\n"
        "print(sorted(homes & set(sys.modules)))\n"
        "read = tools.get('read').args_model\n"
        "print(read.model_validate({'path': 'a.py'}).model_dump(exclude_none=True))\n"
        "print(read.__pydantic_complete__, 'tether.tools.fs.read' in sys.modules)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    built, loaded, validated, complete = printed(code, env)
    assert built == "[]"
    assert loaded == "[]"
    assert "'path': 'a.py'" in validated
    assert complete == "True True"


def test_a_deferred_tool_hands_every_question_to_its_tool() -> None:
    # A method a tool gains must reach the tool itself; only what the spec answers is the
    # stand-in's own (`describe` and `unavailable`, checked against each tool above).
    from tether.tools.base import Tool

    asked = {
        name for name, value in vars(Tool).items() if callable(value) and not name.startswith("_")
    }
    answered_by_the_spec = {"describe", "unavailable"}
    assert asked - set(vars(DeferredTool)) == answered_by_the_spec
