"""The built-in tools' stored schemas (`src/tether/tools/schemas.json`): each one is what its
arguments model says, and stating the tools builds none of the models.

`TETHER_SNAPSHOT=refresh` rewrites the file after a change to a tool's arguments.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.golden import check_golden
from tether.tools.defaults import default_tools
from tether.tools.schema import STORED_SCHEMAS, plain_schema, schema_key


def test_the_stored_schemas_are_the_tools_own() -> None:
    computed = {
        schema_key(tool.args_model): plain_schema(tool.args_model.model_json_schema())
        for tool in default_tools()
    }
    check_golden(STORED_SCHEMAS, json.dumps(computed, indent=1, ensure_ascii=False) + "\n")
    # And a tool states exactly that schema.
    for tool in default_tools():
        assert tool.parameters_schema() == computed[schema_key(tool.args_model)]


def test_stating_the_tools_builds_none_of_their_models() -> None:
    # A fresh interpreter: what the first request pays for. The arguments' models are built
    # by the first call that validates them, and then a call validates as before.
    code = (
        "from tether.tools.arguments import ToolArguments\n"
        "from tether.tools.defaults import default_tools\n"
        "tools = default_tools()\n"
        "schemas = [(t.name, t.describe(), t.parameters_schema()) for t in tools]\n"
        "def models(cls):\n"
        "    for sub in cls.__subclasses__():\n"
        "        yield sub\n"
        "        yield from models(sub)\n"
        "print(sorted(m.__name__ for m in models(ToolArguments) if m.__pydantic_complete__))\n"
        "read = tools.get('read').args_model\n"
        "print(read.model_validate({'path': 'a.py'}).model_dump(exclude_none=True))\n"
        "print(read.__pydantic_complete__)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    built, validated, complete = done.stdout.splitlines()
    assert built == "[]"
    assert "'path': 'a.py'" in validated
    assert complete == "True"
