"""A module's attribute docstrings, read from one parse of its source instead of one a class.

Pydantic gives a field the docstring written under it as its description when a model asks
(`use_attribute_docstrings`), as every model of the ACP SDK's `acp.schema` does. Before Python
3.13 it finds each class's source through the frames of the module being run: it tokenizes the
module's lines from the class on to find the class's block, then parses that block twice. For
the SDK's 273 models that was about 0.14 s of CPU, a quarter of what `tether acp` spent up to
its `session/new` answer (and part of every `tether web`'s start); and the tokenizer's pattern,
whose text changes from process to process (a set joined in hash order), was new to every
process's code table (`tether.dataclass_code`), which each process wrote again as it exited.

`read_docstrings_once` has pydantic take a class's docstrings from one parse of its module's
source, made when its first class asks and kept until a class of another module asks: pydantic's own
visitor walks the same class statement, so each description is the one pydantic would have
found. What the parse found is kept beside the module's bytecode, where bytecode is written,
for the source it was read from (its modification time and size) and the Python and pydantic
that read it: the next process reads that instead of parsing (the parse of the SDK's schema
was a tenth of `tether acp`'s CPU to its `session/new` answer).

Only a class made by a class statement at the top of its module, on that statement's lines,
is read that way; any other class (nested, made in a function or by a call), and a class read
through `inspect` (a standard dataclass, a `TypedDict`), goes to pydantic's own function.
"""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path
from typing import Any

from tether.kept_table import read_table, write_table

__all__ = ["FIELDS", "read_docstrings_once", "table_path"]

FIELDS = "pydantic._internal._fields"
"""The module that collects a model's fields, which `read_docstrings_once` is given."""

_MARK = "__tether_docstrings_once__"
_FORMAT = 1
"""The layout of a kept table: `(_FORMAT, versions, {class name: (first, last, docstrings)})`,
its versions the source's modification time and size, Python's and pydantic's."""


def read_docstrings_once(module: types.ModuleType) -> None:
    """From now on, a class made by a module's top-level code has its attribute docstrings read
    from one parse of that module.

    `module` is pydantic's `FIELDS` (`tether.lazy.when_loaded` hands it over once it runs).
    Should a later pydantic no longer extract them as this expects, it is left as it is."""
    extract = getattr(module, "extract_docstrings_from_cls", None)
    visitor = getattr(
        sys.modules.get("pydantic._internal._docs_extraction"), "DocstringVisitor", None
    )
    if extract is None or visitor is None or getattr(extract, _MARK, False):
        return
    sources = _Sources(visitor, getattr(sys.modules.get("pydantic.version"), "VERSION", ""))

    def extract_docstrings_from_cls(cls: type[Any], use_inspect: bool = False) -> dict[str, str]:
        found = None if use_inspect else sources.docstrings(cls)
        if found is None:
            return extract(cls, use_inspect=use_inspect)  # type: ignore[no-any-return]
        return found

    setattr(extract_docstrings_from_cls, _MARK, True)
    module.__dict__["extract_docstrings_from_cls"] = extract_docstrings_from_cls


_Class = tuple[int, int, dict[str, str]]
"""A top-level class statement's first and last lines and its attribute docstrings."""


class _Sources:
    """The attribute docstrings of the top-level classes of the module being run, by name,
    from one parse of its source."""

    def __init__(self, visitor: Any, pydantic: str) -> None:
        self._visitor = visitor
        self._pydantic = pydantic
        self._module: tuple[types.CodeType | None, dict[str, _Class]] = (None, {})
        """The code of the module last asked for, and its classes not made yet: one value, so
        that a thread making another module's classes meanwhile never mixes the two."""

    def docstrings(self, cls: type[Any]) -> dict[str, str] | None:
        """`cls`'s attribute docstrings when a class statement at the top of its module is
        making it now; else `None`."""
        frame = _running(cls.__module__)
        if frame is None or frame.f_code.co_name != "<module>":
            return None
        code, classes = self._module
        if frame.f_code is not code:
            # Another module: the last one's docstrings are dropped (it has run, or it is
            # importing this one and will read its own again).
            classes = self._kept_or_parsed(frame.f_code.co_filename)
            self._module = (frame.f_code, classes)
        made = classes.get(cls.__name__)
        if made is None or not made[0] <= frame.f_lineno <= made[1]:
            return None
        # A class statement at the top of a module runs once: what it was given is not kept
        # (the SDK's would stay in memory for the life of the process).
        classes.pop(cls.__name__, None)
        return made[2]

    def _kept_or_parsed(self, filename: str) -> dict[str, _Class]:
        """The top-level classes of the source at `filename` as kept beside its bytecode when
        that source is the one they were read from; else parsed, and kept where bytecode is
        written (Python's own choice of folder, as for the module's bytecode)."""
        try:
            stat = os.stat(filename)
            table = table_path(filename)
        except (OSError, ValueError, NotImplementedError):  # no file, or no bytecode folder
            return self._parsed(filename)
        versions = (stat.st_mtime_ns, stat.st_size, sys.version, self._pydantic)
        kept = read_table(table, _FORMAT, versions, 1)
        if kept is not None and isinstance(kept[0], dict):
            return kept[0]
        classes = self._parsed(filename)
        if classes and not sys.dont_write_bytecode:
            write_table(table, _FORMAT, versions, classes)
        return classes

    def _parsed(self, filename: str) -> dict[str, _Class]:
        """The top-level classes of the source at `filename` by name (the last of a name: a
        class made by an earlier one is not on its lines); none when the source cannot be
        read or parsed."""
        import ast  # only once a model asks

        try:
            with open(filename, "rb") as source:
                tree = ast.parse(source.read())
        except (OSError, SyntaxError, ValueError):
            return {}
        classes: dict[str, _Class] = {}
        for statement in tree.body:
            if isinstance(statement, ast.ClassDef):
                found = self._visitor()
                found.generic_visit(statement)  # as pydantic walks the block it parsed
                first = min((d.lineno for d in statement.decorator_list), default=statement.lineno)
                last = statement.end_lineno or statement.lineno
                classes[statement.name] = (first, last, found.attrs)
        return classes


def table_path(filename: str) -> Path:
    """Where the docstrings read from the source at `filename` are kept: beside its bytecode
    (`schema.cpython-311.docstrings`; `sys.pycache_prefix` is followed)."""
    from importlib._bootstrap_external import cache_from_source  # `importlib.util`'s own

    return Path(cache_from_source(filename)).with_suffix(".docstrings")


def _running(name: str) -> types.FrameType | None:
    """The innermost frame running code of module `name`, as pydantic looks for it."""
    frame: types.FrameType | None = sys._getframe(2)
    while frame is not None and frame.f_globals.get("__name__") != name:
        frame = frame.f_back
    return frame
