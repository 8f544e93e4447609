"""Dataclasses' generated methods, compiled once per installation instead of at every start.

`dataclasses` writes each class's `__init__`, `__repr__`, `__eq__`, `__hash__` (and a frozen
class's `__setattr__` and `__delattr__`) as source text and compiles it when the class is
made. A command makes hundreds of dataclasses before it does anything (tether's events,
cards, settings; pydantic's and httpx's own), so compiling those few thousand small
functions was a fifth of `tether run`'s CPU up to its first request, at every start.

`reuse_dataclass_code` gives the `dataclasses` module an `exec` of its own that looks each
text up in a table of code compiled from exactly that text, and compiles (and keeps) what is
not there yet. The text is the whole of what decides the code, so the classes are the ones
`dataclasses` would make; only the compiling is skipped. The table is written beside tether's
own bytecode (`__pycache__`, or under `sys.pycache_prefix`), one per command, at the end of
a process that compiled something new, and trusted as Python trusts the bytecode there.
Nothing is written when bytecode is not (`PYTHONDONTWRITEBYTECODE`), and a table that does
not read back is ignored and written afresh.
"""

from __future__ import annotations

import atexit
import builtins
import importlib.util
import marshal
import os
import sys
import threading
from pathlib import Path
from types import CodeType
from typing import Any

__all__ = ["MAX_ENTRIES", "code_table_path", "reuse_dataclass_code"]

MAX_ENTRIES = 20_000
"""A table that would pass this many texts is started afresh with what this process made."""

_FORMAT = 1
"""The layout of a table file: `(_FORMAT, MAGIC_NUMBER, {text: marshalled code})`."""


def code_table_path(command: str) -> Path:
    """Where `command`'s table lives: beside tether's bytecode, named for the interpreter
    (`dataclasses-run.cpython-311.marshal`; `sys.pycache_prefix` is followed)."""
    # The bytecode path of a module named for the table: Python's own choice of folder,
    # interpreter tag and optimization level.
    source = Path(__file__).with_name(f"dataclasses-{command}.py")
    return Path(importlib.util.cache_from_source(str(source))).with_suffix(".marshal")


def reuse_dataclass_code(command: str) -> None:
    """From now on, dataclasses reuse the code compiled for their methods by earlier runs of
    `command` (made again, and kept, when not found); the table is saved at exit."""
    import dataclasses

    if isinstance(getattr(dataclasses, "exec", None), _CodeTable):
        return
    table = _CodeTable(code_table_path(command))
    # A global of the module's own, found before the builtin: `dataclasses` alone uses it.
    dataclasses.exec = table  # type: ignore[attr-defined]
    atexit.register(table.save)


class _CodeTable:
    """`exec` for `dataclasses`: source text is run from code compiled earlier from the same
    text; anything else is passed to the builtin as it came."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stored: dict[str, bytes] | None = None
        self._new: dict[str, bytes] = {}
        self._made: dict[str, CodeType] = {}
        self._lock = threading.Lock()

    def __call__(
        self, source: Any, globals_: dict[str, Any] | None = None, locals_: Any = None
    ) -> None:
        """Run `source` in `globals_` and `locals_`, as `exec` would."""
        if isinstance(source, str):
            source = self._code(source)
        builtins.exec(source, globals_, locals_)

    def _code(self, text: str) -> CodeType:
        with self._lock:
            made = self._made.get(text)
            if made is not None:
                return made  # many classes share a method's text (`__eq__` of two fields)
            if self._stored is None:
                self._stored = _read(self.path)
            # Taken out once used (its code is kept, for the next class with the same text):
            # what stays in memory as bytes is only what this run never asked for.
            raw = self._stored.pop(text, None)
        code = _loaded(raw) if raw is not None else None
        if code is None:
            # As `exec` compiles a text: no `__future__` flags (the module has none).
            code = compile(text, "<string>", "exec", dont_inherit=True)
            with self._lock:
                self._new[text] = marshal.dumps(code)
        with self._lock:
            self._made[text] = code
        return code

    def save(self) -> None:
        """Add what this process compiled to the table on disk (what other processes added
        meanwhile is kept); nothing when nothing is new or bytecode is not written."""
        with self._lock:
            new = dict(self._new)
        if not new or sys.dont_write_bytecode:
            return
        merged = {**_read(self.path), **new}
        if len(merged) > MAX_ENTRIES:
            merged = new
        data = marshal.dumps((_FORMAT, importlib.util.MAGIC_NUMBER, merged))
        partial = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial.write_bytes(data)
            os.replace(partial, self.path)  # readers see the old table or the new, whole
        except OSError:
            # A read-only installation: every start compiles, as it did before.
            partial.unlink(missing_ok=True)


def _loaded(raw: bytes) -> CodeType | None:
    """The code `raw` holds; `None` when it holds anything else."""
    try:
        code = marshal.loads(raw)
    except (EOFError, ValueError, TypeError):
        return None
    return code if isinstance(code, CodeType) else None


def _read(path: Path) -> dict[str, bytes]:
    """The table at `path`; empty when there is none or it is not one this interpreter wrote."""
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not (isinstance(data, tuple) and len(data) == 3):
        return {}
    layout, magic, table = data
    if layout != _FORMAT or magic != importlib.util.MAGIC_NUMBER or not isinstance(table, dict):
        return {}
    return {k: v for k, v in table.items() if isinstance(k, str) and isinstance(v, bytes)}
