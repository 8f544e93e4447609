"""A pydantic dataclass's fields collected when first asked for (`tether.pydantic_fields`).

Each case runs a fresh interpreter (the deferral changes pydantic for the whole process):
stored sessions are shown with the fields of the log's events, cards and updates collected as
pydantic collects them, and with their collection deferred. Nothing is collected as the
classes are made, and everything made from them is the same: the output, the fields
themselves, the schemas and the JSON Schemas.
"""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.core_schemas import SESSION, SESSIONS, unfolded

_SHOW = """
import io, pickle, re, sys
from contextlib import redirect_stdout
from pathlib import Path
mode, out, session = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
if mode == "deferred":
    from pydantic._internal import _dataclasses
    from tether.pydantic_fields import defer_field_collection
    defer_field_collection(_dataclasses)
from tether.session.log import events
from tether.session import updates
from tether.views import call, result
modules = (events, updates, call, result)
classes = [
    v for m in modules for v in vars(m).values()
    if isinstance(v, type) and v.__module__ == m.__name__ and "__pydantic_fields__" in vars(v)
]
waiting = sorted(
    c.__name__ for c in classes if not isinstance(vars(c)["__pydantic_fields__"], dict)
)
from tether.cli import main
shown = io.StringIO()
with redirect_stdout(shown):
    assert main(["show", session, "--json"]) == 0
    assert main(["show", session, "--verbose"]) == 0
from tether.session.log.events import EVENT, HEADER
from tether.session.updates import CLIENT_UPDATE
from tether.views.codec import TOOL_VIEW
adapters = (EVENT, HEADER, CLIENT_UPDATE, TOOL_VIEW)
for adapter in adapters:
    adapter.rebuild()
def named(info):  # a function by its name: each process has it at its own address
    return re.sub(r" at 0x[0-9a-f]+", "", repr(info))
fields = {
    c.__qualname__: {name: named(info) for name, info in c.__pydantic_fields__.items()}
    for c in classes
}
schemas = [a.core_schema for a in adapters]
json_schemas = [a.json_schema() for a in adapters]
out.write_bytes(pickle.dumps((waiting, shown.getvalue(), fields, schemas, json_schemas)))
"""


def _shown(tmp_path: Path, mode: str) -> tuple[list[str], str, dict[str, Any], Any, Any]:
    home = tmp_path / "home"
    if not home.exists():
        shutil.copytree(SESSIONS, home / "sessions")
    out = tmp_path / mode
    env = {**os.environ, "TETHER_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-c", _SHOW, mode, str(out), SESSION],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    shown: tuple[list[str], str, dict[str, Any], Any, Any] = pickle.loads(out.read_bytes())
    return shown


def test_fields_are_collected_when_asked_for_and_make_the_same(tmp_path: Path) -> None:
    waiting, text, fields, schemas, json_schemas = _shown(tmp_path, "deferred")
    plain_waiting, plain_text, plain_fields, plain_schemas, plain_json = _shown(tmp_path, "plain")
    assert plain_waiting == []
    # None of the events, cards or updates had its fields collected as it was made.
    assert {"SessionHeader", "ToolResultEvent", "ReadResultView", "DiffCallView"} <= set(waiting)
    assert text == plain_text
    assert '"kind"' in text and "Read" in text
    assert fields == plain_fields
    assert [unfolded(s) for s in schemas] == [unfolded(s) for s in plain_schemas]
    assert json_schemas == plain_json
