"""A module's attribute docstrings read from one parse of its source
(`tether.pydantic_docstrings`).

Each mode runs a fresh interpreter (the change is pydantic's, for the whole process): the ACP
SDK's models and a module of the shapes the parse must leave to pydantic are made with
pydantic's own extraction and with the one parse, and every field's description is the same
(and every shaped model's JSON Schema). With the parse, pydantic searched no frame for the SDK's
classes.
"""

from __future__ import annotations

import json
import marshal
import os
from pathlib import Path
from typing import Any

import pytest

from tests.fresh import printed
from tether.pydantic_docstrings import table_path

_MADE = """
import importlib, json, sys
mode, names = sys.argv[1], sys.argv[2:]
from pydantic import BaseModel, TypeAdapter
from pydantic._internal import _docs_extraction, _fields
searched = []
by_frame = _docs_extraction._extract_source_from_frame
def counted(cls):
    searched.append(f"{cls.__module__}.{cls.__qualname__}")
    return by_frame(cls)
_docs_extraction._extract_source_from_frame = counted
if mode == "once":
    from tether.pydantic_docstrings import read_docstrings_once
    read_docstrings_once(_fields)
    read_docstrings_once(_fields)  # a second time changes nothing
made = {name: [] for name in names}
for name in names:
    module = importlib.import_module(name)
    classes = [*vars(module).values(), *getattr(module, "MADE", ())]
    classes += [getattr(c, nested, None) for c in classes for nested in ("Inner", "Same")]
    for cls in classes:
        fields = getattr(cls, "__pydantic_fields__", None)
        if isinstance(cls, type) and cls.__module__ == name and isinstance(fields, dict):
            # The SDK's hundreds of schemas would take seconds: its descriptions are compared.
            schema = None if name == "acp.schema" else TypeAdapter(cls).json_schema()
            described = {f: i.description for f, i in fields.items()}
            made[name].append([cls.__qualname__, described, schema])
print(json.dumps({"made": made, "searched": sorted(set(searched))}))
"""

_SHAPES = '''
"""Classes whose docstrings pydantic must find on its own, beside ones the parse reads."""
import dataclasses
from pydantic import BaseModel, ConfigDict, RootModel
from pydantic.dataclasses import dataclass as pydantic_dataclass

DOCS = ConfigDict(use_attribute_docstrings=True)
MADE = []


class Plain(BaseModel):
    model_config = DOCS
    a: int
    """The first."""
    b: str = "x"
    """The second,
    on two lines."""
    c: int = 0
    _private = 1
    """A docstring under a plain assignment."""


def tagged(cls):
    return cls


@tagged
class Decorated(BaseModel):
    model_config = DOCS
    d: int
    """Decorated's."""


class Twice(BaseModel):
    model_config = DOCS
    first: int
    """The first Twice's."""


MADE.append(Twice)


class Twice(BaseModel):  # noqa: F811
    model_config = DOCS
    second: int
    """The second Twice's."""


class Outer(BaseModel):
    model_config = DOCS
    o: int
    """Outer's."""

    class Inner(BaseModel):
        model_config = DOCS
        i: int
        """Inner's."""


class Same(BaseModel):
    model_config = DOCS
    outer: int
    """The outer Same's."""

    class Same(BaseModel):
        model_config = DOCS
        inner: int
        """The inner Same's."""


if True:
    class Guarded(BaseModel):
        model_config = DOCS
        g: int
        """Guarded's."""


def made_in_a_function():
    class Local(BaseModel):
        model_config = DOCS
        l: int
        """Local's."""
    return Local


MADE.append(made_in_a_function())


@pydantic_dataclass(config=DOCS)
class PydanticData:
    p: int
    """A pydantic dataclass's."""


@dataclasses.dataclass
class StandardData:
    s: int
    """A standard dataclass's."""


class Holds(BaseModel):
    model_config = DOCS
    data: StandardData
    """What it holds."""


class Root(RootModel[int]):
    model_config = DOCS

'''


_NAMES = ("acp.schema", "docstring_shapes")

Made = tuple[dict[str, list[Any]], list[str]]
"""Each module's classes as made ([qualified name, each field's description, JSON Schema, none
for the SDK's]), and the classes pydantic searched frames for."""


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Made]:
    """What a fresh interpreter made of the SDK's schema and of `_SHAPES`, in each mode:
    `plain` (pydantic's own extraction) and `once` (the one parse)."""
    folder = tmp_path_factory.mktemp("docstrings")
    (folder / "docstring_shapes.py").write_text(_SHAPES)
    path = os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))
    found = {}
    for mode in ("plain", "once"):
        code = f"import sys; sys.argv = ['-c', {mode!r}, *{_NAMES!r}]\n{_MADE}"
        (line,) = printed(code, {**os.environ, "PYTHONPATH": path})
        classes = json.loads(line)
        found[mode] = (classes["made"], classes["searched"])
    return found


def test_the_sdk_s_descriptions_are_pydantic_s_without_searching_its_frames(
    made: dict[str, Made],
) -> None:
    (plain, searched), (once, searched_once) = made["plain"], made["once"]
    assert once["acp.schema"] == plain["acp.schema"]
    described = [d for _, fields, _ in plain["acp.schema"] for d in fields.values() if d]
    assert len(described) > 300  # the SDK's fields are described: the comparison says something
    assert len([c for c in searched if c.startswith("acp.")]) > 200
    assert [c for c in searched_once if c.startswith("acp.")] == []


def test_shapes_the_parse_leaves_to_pydantic_are_described_as_pydantic_describes_them(
    made: dict[str, Made],
) -> None:
    plain, (shapes, searched) = made["plain"][0]["docstring_shapes"], made["once"]
    once = shapes["docstring_shapes"]
    assert once == plain
    described = {name: fields for name, fields, _ in once}
    assert described["Plain"] == {"a": "The first.", "b": "The second,\non two lines.", "c": None}
    assert [fields for name, fields, _ in once if name == "Twice"] == [
        {"second": "The second Twice's."},
        {"first": "The first Twice's."},
    ]
    assert described["Outer.Inner"] == {"i": "Inner's."}
    assert described["Same.Same"] == {"inner": "The inner Same's."}
    # Read by one parse: the top-level classes made once; pydantic searched for the rest.
    assert [c for c in searched if c.startswith("docstring_shapes.")] == [
        f"docstring_shapes.{name}"
        for name in (
            "Guarded",
            "Outer.Inner",
            "Same.Same",
            "Twice",
            "made_in_a_function.<locals>.Local",
        )
    ]


_KEPT_MODULE = '''
from pydantic import BaseModel, ConfigDict


class Kept(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)
    a: int
    """The first."""
'''

_DESCRIBED = """
import json
from pydantic._internal import _fields
from tether.pydantic_docstrings import read_docstrings_once
read_docstrings_once(_fields)
import kept_docstrings
print(json.dumps(kept_docstrings.Kept.model_fields["a"].description))
"""


def test_what_the_parse_found_is_kept_beside_the_bytecode_for_the_source_it_read(
    tmp_path: Path,
) -> None:
    source = tmp_path / "kept_docstrings.py"
    source.write_text(_KEPT_MODULE)
    table = table_path(str(source))
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    writing = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    writing["PYTHONPATH"] = path
    reading = {**writing, "PYTHONDONTWRITEBYTECODE": "1"}

    def described(env: dict[str, str]) -> str:
        (line,) = printed(_DESCRIBED, env)
        found: str = json.loads(line)
        return found

    assert described(reading) == "The first."
    assert not table.exists()  # where bytecode is not written, nor is the table
    assert described(writing) == "The first."
    layout, versions, classes = marshal.loads(table.read_bytes())
    assert classes == {"Kept": (5, 8, {"a": "The first."})}
    # The next process reads the table, not the source: a table saying otherwise is believed.
    table.write_bytes(marshal.dumps((layout, versions, {"Kept": (5, 8, {"a": "Kept."})})))
    assert described(reading) == "Kept."
    # Another source (its size or time changed) is parsed again, and its table replaced.
    source.write_text(_KEPT_MODULE.replace("The first.", "The first, changed."))
    assert described(writing) == "The first, changed."
    assert marshal.loads(table.read_bytes())[2] == {"Kept": (5, 8, {"a": "The first, changed."})}
