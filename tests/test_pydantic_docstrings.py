"""A module's attribute docstrings read from one parse of its source
(`tether.pydantic_docstrings`).

Each case runs a fresh interpreter (the change is pydantic's, for the whole process): the ACP
SDK's models and a module of the shapes the parse must leave to pydantic are made with
pydantic's own extraction and with the one parse, and every field's description and every
model's JSON Schema is the same. With the parse, pydantic searched no frame for the SDK's
classes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tests.fresh import printed

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
made = []
for name in names:
    module = importlib.import_module(name)
    classes = [*vars(module).values(), *getattr(module, "MADE", ())]
    classes += [getattr(c, nested, None) for c in classes for nested in ("Inner", "Same")]
    for cls in classes:
        fields = getattr(cls, "__pydantic_fields__", None)
        if isinstance(cls, type) and cls.__module__ == name and isinstance(fields, dict):
            schema = TypeAdapter(cls).json_schema()
            described = {f: i.description for f, i in fields.items()}
            made.append([cls.__qualname__, described, schema])
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


def _made(tmp_path: Path, mode: str, name: str) -> tuple[list[Any], list[str]]:
    """What a fresh interpreter made of module `name`'s classes ([qualified name, each field's
    description, JSON Schema]) and the classes pydantic searched frames for, in `mode`."""
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    code = f"import sys; sys.argv = ['-c', {mode!r}, {name!r}]\n{_MADE}"
    (line,) = printed(code, {**os.environ, "PYTHONPATH": path})
    made = json.loads(line)
    return made["made"], made["searched"]


def test_the_sdk_s_descriptions_are_pydantic_s_without_searching_its_frames(
    tmp_path: Path,
) -> None:
    plain, searched = _made(tmp_path, "plain", "acp.schema")
    once, searched_once = _made(tmp_path, "once", "acp.schema")
    assert once == plain
    described = [d for _, fields, _ in plain for d in fields.values() if d]
    assert len(described) > 300  # the SDK's fields are described: the comparison says something
    assert len(searched) > 200
    assert searched_once == []


def test_shapes_the_parse_leaves_to_pydantic_are_described_as_pydantic_describes_them(
    tmp_path: Path,
) -> None:
    (tmp_path / "docstring_shapes.py").write_text(_SHAPES)
    plain, _ = _made(tmp_path, "plain", "docstring_shapes")
    once, searched = _made(tmp_path, "once", "docstring_shapes")
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
    assert searched == [
        f"docstring_shapes.{name}"
        for name in (
            "Guarded",
            "Outer.Inner",
            "Same.Same",
            "Twice",
            "made_in_a_function.<locals>.Local",
        )
    ]
