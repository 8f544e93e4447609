"""Pydantic's core schemas of tether's types, generated at install (`tether.schema_table`).

The table is filled once into a temporary folder, as `scripts/setup` fills it; a fresh
interpreter then shows stored sessions with and without it. With it, pydantic generates no
schema, and everything it made from the kept ones is what it makes itself: the output, and
the schemas of the log's events, the updates and the cards.
"""

from __future__ import annotations

import marshal
import os
import pickle
import shutil
import subprocess
import sys
import types
from pathlib import Path
from typing import Any, Literal

import pytest

from tests.core_schemas import SESSION, SESSIONS, unfolded
from tether import schema_table
from tether.schema_table import names, schema_table_path
from tether.session.log.events import HEADER, SessionHeader

_FILL = """
import sys
from pathlib import Path
from tether.cli.code_tables import fill_schemas
print(fill_schemas(Path(sys.argv[1])))
"""

_SHOW = """
import io, pickle, sys
from contextlib import redirect_stdout
from pathlib import Path
from pydantic._internal import _generate_schema
table, out, session = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
generated = []
clean = _generate_schema.GenerateSchema.clean_schema
def counted(self, schema):
    generated.append(str(schema.get("ref", schema.get("type"))))  # each whole one, once
    return clean(self, schema)
_generate_schema.GenerateSchema.clean_schema = counted
if table != "-":
    from tether.schema_table import reuse_schemas
    reuse_schemas(_generate_schema, Path(table))
from tether.cli import main
shown = io.StringIO()
with redirect_stdout(shown):
    assert main(["show", session, "--json"]) == 0
    assert main(["show", session, "--verbose"]) == 0
shown_generated = list(generated)
from pydantic.dataclasses import rebuild_dataclass
from tether.session.log.events import EVENT, HEADER, SessionHeader
from tether.session.updates import CLIENT_UPDATE
from tether.tools.fs.read import ReadArgs
from tether.views.codec import TOOL_VIEW
adapters = (EVENT, HEADER, CLIENT_UPDATE, TOOL_VIEW)
for adapter in adapters:
    adapter.rebuild()
rebuild_dataclass(SessionHeader)
ReadArgs.model_rebuild()
schemas = [a.core_schema for a in adapters]
schemas += [c.__pydantic_core_schema__ for c in (SessionHeader, ReadArgs)]
out.write_bytes(pickle.dumps((shown.getvalue(), shown_generated, schemas)))
"""


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A table filled as `scripts/setup` fills it."""
    table = tmp_path_factory.mktemp("schemas") / "schemas.pickles"
    done = _python(_FILL, str(table))
    assert int(done.stdout) > 100, done.stderr
    return table


def _python(
    code: str, *args: str, home: Path | None = None, writing: bool = False
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    if writing:  # bytecode (and so the table) written, as for most people
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    if home is not None:
        env["TETHER_HOME"] = str(home)
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done


def _shown(tmp_path: Path, table: str, writing: bool = False) -> tuple[str, list[str], list[Any]]:
    home = tmp_path / "home"
    if not home.exists():
        shutil.copytree(SESSIONS, home / "sessions")
    out = tmp_path / f"shown-{len(list(tmp_path.glob('shown-*')))}"
    _python(_SHOW, table, str(out), SESSION, home=home, writing=writing)
    shown: tuple[str, list[str], list[Any]] = pickle.loads(out.read_bytes())
    return shown


def test_show_generates_no_schema_from_the_table_and_makes_the_same(
    filled: Path, tmp_path: Path
) -> None:
    text, generated, schemas = _shown(tmp_path, str(filled))
    # A type `show` builds that set-up did not: its module goes in `code_tables`' lists.
    assert generated == [], f"generated though the table was filled: {generated}"
    plain_text, plain_generated, plain_schemas = _shown(tmp_path, "-")
    assert len(plain_generated) > 10  # what the table saved: every schema shown types need
    assert text == plain_text
    assert "Read" in text and '"kind"' in text
    assert [unfolded(schema) for schema in schemas] == [unfolded(s) for s in plain_schemas]


def test_what_a_start_generates_is_kept_for_the_next_where_bytecode_is_written(
    filled: Path, tmp_path: Path
) -> None:
    table = tmp_path / "schemas.pickles"
    _, generated, _ = _shown(tmp_path, str(table))
    assert len(generated) > 10
    assert not table.exists()  # where bytecode is not written, nor is the table
    # A table filled from other sources (a module changed since): replaced by this start's.
    layout, versions, files, entries = marshal.loads(filled.read_bytes())
    events = next(f for f in files if f.endswith("/session/log/events.py"))
    mtime, size = files[events]
    changed = {**files, events: (mtime, size + 1)}
    table.write_bytes(marshal.dumps((layout, versions, changed, entries)))
    _, generated, _ = _shown(tmp_path, str(table), writing=True)
    assert len(generated) > 10
    text, generated, _ = _shown(tmp_path, str(table), writing=True)
    assert generated == []
    assert '"kind"' in text


def test_a_table_of_another_module_source_or_pydantic_is_not_used(tmp_path: Path) -> None:
    path = tmp_path / "t.pickles"
    table = schema_table._Table(path, lookup=False)
    HEADER.rebuild()
    table.keep("c", HEADER.core_schema)
    table.save()
    assert schema_table._Table(path, lookup=True).found("c") == HEADER.core_schema
    layout, versions, files, entries = marshal.loads(path.read_bytes())
    events = next(f for f in files if f.endswith("/session/log/events.py"))
    mtime, size = files[events]
    changed = {**files, events: (mtime, size + 1)}  # a module loaded here, changed since
    path.write_bytes(marshal.dumps((layout, versions, changed, entries)))
    assert schema_table._Table(path, lookup=True).found("c") is None
    path.write_bytes(marshal.dumps((layout, ("2.0",), files, entries)))
    assert schema_table._Table(path, lookup=True).found("c") is None


def test_a_module_changed_after_it_was_loaded_does_not_vouch_for_what_it_made(
    tmp_path: Path,
) -> None:
    source = tmp_path / "probe.py"
    source.write_text("X = 1\n")
    module = types.ModuleType("tether.schema_probe")
    module.__file__ = str(source)
    sys.modules[module.__name__] = module
    try:
        path = tmp_path / "t.pickles"
        table = schema_table._Table(path, lookup=False)
        HEADER.rebuild()
        table.keep("c", HEADER.core_schema)  # made while the module's source was the first
        source.write_text("X = 22\n")  # then changed, before the table is written
        table.save()
        assert schema_table._Table(path, lookup=True).found("c") is None
    finally:
        del sys.modules[module.__name__]


class _Counted(types.ModuleType):
    """A module that counts how often its source file is asked for."""

    asked = 0

    def __getattribute__(self, name: str) -> Any:
        if name == "__file__":
            type(self).asked += 1
        return super().__getattribute__(name)


def test_each_module_is_noted_once_and_none_loaded_after_a_removal_is_missed(
    tmp_path: Path,
) -> None:
    source = tmp_path / "probe.py"
    source.write_text("X = 1\n")
    counted = _Counted("tether.schema_probe_counted")
    counted.__file__ = str(source)
    gone = types.ModuleType("schema_probe_gone")
    later = types.ModuleType("tether.schema_probe_later")
    later.__file__ = str(tmp_path / "later.py")
    (tmp_path / "later.py").write_text("Y = 1\n")
    table = schema_table._Table(tmp_path / "t.pickles", lookup=False)
    sys.modules[counted.__name__] = counted
    sys.modules[gone.__name__] = gone
    try:
        table._noted()
        assert str(source) in table._stamps
        asked = _Counted.asked
        # Modules loaded since are looked at, not those looked at before.
        sys.modules["schema_probe_more"] = types.ModuleType("schema_probe_more")
        table._noted()
        assert _Counted.asked == asked
        # A module taken out moves those after it: a module loaded then is noted all the same.
        del sys.modules[gone.__name__], sys.modules["schema_probe_more"]
        sys.modules[later.__name__] = later
        sys.modules["schema_probe_more"] = types.ModuleType("schema_probe_more")
        table._noted()
        assert str(tmp_path / "later.py") in table._stamps
    finally:
        for name in (counted.__name__, gone.__name__, later.__name__, "schema_probe_more"):
            sys.modules.pop(name, None)


def test_only_what_is_named_exactly_is_kept(tmp_path: Path) -> None:
    class Local:
        pass

    assert names.key("adapter", Local, {}) is None
    assert names.key("adapter", list["Missing"], {}) is None  # noqa: F821 - a name to look up
    assert names.key("adapter", Literal["a", "b"], {}) == "adapter|typing.Literal['a', 'b']|"
    assert names.key("adapter", SessionHeader, {"alias_generator": lambda n: n}) is None
    assert names.key("adapter", SessionHeader, {"title": object()}) is None
    named = names.key("dataclass", SessionHeader, {"extra": "ignore"})
    assert named == "dataclass|tether.session.log.events:SessionHeader|extra='ignore'"
    # A schema holding an instance (a default) would come back a copy of it, not the object.
    table = schema_table._Table(tmp_path / "t.pickles", lookup=False)
    table.keep("a", {"type": "default", "default": Local()})
    table.keep("b", {"type": "function", "function": lambda v: v})
    HEADER.rebuild()
    table.keep("c", HEADER.core_schema)
    assert table.save() == 1
    kept = schema_table._Table(tmp_path / "t.pickles", lookup=True)
    assert kept.found("c") == HEADER.core_schema
    assert kept.found("a") is None


def test_a_process_that_made_nothing_storable_leaves_the_table_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "t.pickles"
    HEADER.rebuild()
    first = schema_table._Table(path, lookup=False)
    first.keep("c", HEADER.core_schema)
    assert first.save() == 1
    before = path.read_bytes()
    os.utime(path, ns=(1, 1))
    # A library's schema (`tether acp` makes the SDK's): nothing the table can hold.
    table = schema_table._Table(path, lookup=True)
    table.keep("b", {"type": "function", "function": lambda v: v})
    assert table.save() == 0
    assert path.stat().st_mtime_ns == 1
    assert path.read_bytes() == before
    # Nor is a table written where there was none.
    missing = schema_table._Table(tmp_path / "missing.pickles", lookup=True)
    missing.keep("b", {"type": "function", "function": lambda v: v})
    assert missing.save() == 0
    assert not (tmp_path / "missing.pickles").exists()


def test_a_name_gone_from_its_module_or_an_unreadable_table_is_generated_again(
    tmp_path: Path,
) -> None:
    table = schema_table._Table(tmp_path / "t.pickles", lookup=False)
    HEADER.rebuild()
    table.keep("c", HEADER.core_schema)
    table.save()
    layout, versions, files, entries = marshal.loads((tmp_path / "t.pickles").read_bytes())
    gone = entries["c"].replace(b"SessionHeader", b"SessionHeadex")
    (tmp_path / "t.pickles").write_bytes(marshal.dumps((layout, versions, files, {"c": gone})))
    assert schema_table._Table(tmp_path / "t.pickles", lookup=True).found("c") is None
    (tmp_path / "t.pickles").write_bytes(b"not a table")
    assert schema_table._Table(tmp_path / "t.pickles", lookup=True).found("c") is None
    missing = schema_table._Table(tmp_path / "missing.pickles", lookup=True)
    assert missing.found("c") is None


def test_the_table_lies_beside_the_bytecode() -> None:
    assert schema_table_path().parent.name == "__pycache__"
    assert schema_table_path().name.startswith("schemas.cpython-")
