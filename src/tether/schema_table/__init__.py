"""Pydantic's core schemas of tether's types, generated once per installation instead of at
every start.

Pydantic makes a type's core schema in Python, walking its annotations, when the type is first
validated or written (`defer_build`): about 0.01 s of CPU at every `tether show` or
`tether run` (a twentieth of a short session's `show`). Rust then makes the
validator and serializer from that schema in a fraction of the time. `scripts/setup` runs
`fill_schema_table` (through `python -m tether.cli.code_tables`): every pydantic class,
model and module-level `TypeAdapter` of the tether modules `tether show` and `tether run`
load is built, and each schema pydantic made is kept, pickled, in a table beside tether's
bytecode. `reuse_schemas` has pydantic take a type's schema from that table instead of
generating it; pydantic still makes everything else (fields, signatures, the validator and
serializer), so what is validated and written is what pydantic would have made.

A schema is kept only when it can be named and stored exactly: a type named by its module
and qualified name (or a `typing` form of such types), with nothing in its configuration or
its schema that is not a plain value or a module-level object of tether, pydantic or the
standard library, and no generic parameters. The table holds each tether module's source
size and modification time when it was filled, and the versions of Python and pydantic: a
process that has loaded a module changed since (or runs another pydantic) uses no entry of
it, and pydantic generates every schema as before. What a process generated is added to the
table as it exits, where bytecode is written (as `tether.dataclass_code` keeps its code):
a table made of other sources is replaced by one of the sources loaded now.

It leans on pydantic's internals (`GenerateSchema`'s `generate_schema` and `clean_schema`,
and the three builders that call them), pinned in the lock: `tests/test_schema_table.py`
fails if an upgrade changes what they make.
"""

from __future__ import annotations

import atexit
import dataclasses
import importlib
import os
import sys
import threading
import types

# `pickle`'s own `loads`, without `pickle.py`'s Python picklers (a millisecond of every start
# that reads a schema; `save`, which runs rarely, imports `pickle`).
from _pickle import loads as _unpickled
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tether.kept_table import read_table, write_table
from tether.schema_table import names

__all__ = ["GENERATOR", "MAX_ENTRIES", "fill_schema_table", "reuse_schemas", "schema_table_path"]

_FORMAT = 1
"""`(_FORMAT, versions, {module file: (mtime_ns, size)}, {key: pickled schema})`."""
MAX_ENTRIES = 2_000
"""A table that would pass this many schemas is started afresh with what this process made."""

GENERATOR = "pydantic._internal._generate_schema"
"""The module of pydantic's schema generator, which `reuse_schemas` is given."""
_BUILDERS = (
    ("pydantic.type_adapter", "TypeAdapter._init_core_attrs", "adapter"),
    ("pydantic._internal._dataclasses", "complete_dataclass", "dataclass"),
    ("pydantic._internal._model_construction", "complete_model_class", "model"),
)
"""Where pydantic builds a whole schema (generate, then clean): only there is one taken from
the table or kept in it."""


def schema_table_path() -> Path:
    """The table's file: beside tether's bytecode, named for the interpreter
    (`schemas.cpython-311.pickles`; `sys.pycache_prefix` is followed)."""
    source = Path(__file__).parent.with_name("schemas.py")
    from importlib._bootstrap_external import cache_from_source  # `importlib.util`'s own

    return Path(cache_from_source(str(source))).with_suffix(".pickles")


def reuse_schemas(generator: types.ModuleType, path: Path | None = None) -> None:
    """From now on, a schema the table holds for a type is pydantic's schema for it.

    `generator` is pydantic's schema generator, `GENERATOR` (`tether.lazy.when_loaded` hands
    it over once it runs); the table is read with the first schema pydantic needs."""
    table = _Table(path or schema_table_path(), lookup=True)
    _install(generator, table)
    atexit.register(table.save_at_exit)


def fill_schema_table(path: Path | None = None) -> int:
    """Build every pydantic type of the tether modules loaded now and keep their schemas in
    the table at `path` (replaced whole); the number kept."""
    table = _Table(path or schema_table_path(), lookup=False)
    _install(importlib.import_module(GENERATOR), table)
    try:
        for value in _tether_types():
            try:
                _build(value, table)
            except Exception:  # a type pydantic cannot build alone: built at its first use
                continue
    finally:
        _uninstall(importlib.import_module(GENERATOR))
    return table.save(merge=False)


def _build(value: Any, table: _Table) -> None:
    """Build `value` as its first use would: a class's own adapter before the class (its
    schema is then the class's), each with no caller's names to resolve with."""
    import pydantic
    from pydantic.dataclasses import is_pydantic_dataclass, rebuild_dataclass

    if isinstance(value, pydantic.TypeAdapter):
        value.rebuild(force=True, raise_errors=False, _types_namespace={})
    elif is_pydantic_dataclass(value):
        _keep_adapter_of(value, table)
        rebuild_dataclass(value, force=True, raise_errors=False, _types_namespace={})
    elif isinstance(value, type) and issubclass(value, pydantic.BaseModel):
        _keep_adapter_of(value, table)
        value.model_rebuild(force=True, raise_errors=False, _types_namespace={})
    elif _meant_for_pydantic(value):
        _keep_adapter_of(value, table)


def _meant_for_pydantic(value: Any) -> bool:
    """Whether `value` is a plain dataclass that carries a pydantic configuration."""
    return (
        isinstance(value, type)
        and dataclasses.is_dataclass(value)
        and "__pydantic_config__" in vars(value)
    )


def _keep_adapter_of(cls: type, table: _Table) -> None:
    """Keep the schema `TypeAdapter(cls)` generates while `cls` itself is not built yet (it
    takes the class's own once it is), as `TypeAdapter` generates it."""
    from pydantic._internal._config import ConfigWrapper
    from pydantic._internal._generate_schema import GenerateSchema
    from pydantic._internal._namespace_utils import NamespacesTuple, NsResolver

    key = names.key("adapter", cls, {})
    if key is None:
        return
    module = vars(sys.modules[cls.__module__])
    resolver = NsResolver(namespaces_tuple=NamespacesTuple(locals={}, globals=module))
    generator = GenerateSchema(ConfigWrapper(None), ns_resolver=resolver)
    table.keep(key, generator.clean_schema(generator.generate_schema(cls)))


def _tether_types() -> Iterator[Any]:
    """Each class defined in, and each `TypeAdapter` held by, a loaded tether module."""
    for name in sorted(n for n in list(sys.modules) if n == "tether" or n.startswith("tether.")):
        module = sys.modules[name]
        for _, value in sorted(vars(module).items()):
            defined_here = isinstance(value, type) and value.__module__ == name
            if defined_here or type(value).__name__ == "TypeAdapter":
                yield value


class _Table:
    """The schemas read from the table's file, and those generated here to add to it."""

    def __init__(self, path: Path, lookup: bool) -> None:
        self.path = path
        self.lookup = lookup
        """Whether schemas are taken from the file (not when it is being filled)."""
        self._lock = threading.Lock()
        self._entries: dict[str, bytes] | None = None if lookup else {}
        self._files: dict[str, tuple[int, int]] = {}
        self._new: dict[str, Any] = {}
        self._stamps: dict[str, tuple[int, int]] = {}
        """Each loaded module's source stamp, noted soon after it was loaded."""
        self._unchecked: list[str] = []
        """Noted modules not compared with the file's stamps yet."""
        self._loaded_count = 0
        self._last_loaded: tuple[str, object] = ("", None)
        """The name and module `_noted` last met at the end of `sys.modules`: the next look
        starts after them."""
        self._usable = True

    def found(self, key: str) -> Any:
        """The schema kept under `key`, or `None`."""
        with self._lock:
            if self._entries is None:
                self._entries, self._files = _read(self.path)
            raw = self._entries.get(key)
            if raw is None or not self._current():
                return None
        try:
            return _unpickled(raw)
        except Exception:  # a name it held is gone: pydantic generates this one
            return None

    def keep(self, key: str, schema: Any) -> None:
        """Keep `schema` (as pydantic generated it) under `key`, to be saved."""
        with self._lock:
            self._noted()  # the sources it was made of, as they are now
            self._new[key] = schema

    def save(self, merge: bool = True) -> int:
        """Write the table: what was kept that can be stored exactly (with what the file held,
        when `merge` and it was made of the same sources), and the stamps of every tether
        module loaded; the number of schemas written (none, and the file left as it is, when
        `merge` and nothing kept can be stored)."""
        import pickle

        with self._lock:
            new = dict(self._new)
        entries = {}
        for key, schema in new.items():
            if names.plain(schema, set()):
                try:
                    entries[key] = pickle.dumps(schema, protocol=pickle.HIGHEST_PROTOCOL)
                except Exception:  # something in it has no name to be found by
                    continue
        if merge and not entries:
            # Nothing to add (a library's schemas, which the table cannot hold): the file is
            # left as it is, not written again by every process that made one.
            return 0
        with self._lock:
            self._noted()
            files = dict(self._stamps)
        if merge:
            kept, kept_files = _read(self.path)
            agreeing = all(tuple(kept_files.get(f, stamp)) == stamp for f, stamp in files.items())
            if agreeing and len(kept) + len(entries) <= MAX_ENTRIES:
                entries, files = {**kept, **entries}, {**kept_files, **files}
        write_table(self.path, _FORMAT, _versions(), files, entries)
        return len(entries)

    def save_at_exit(self) -> None:
        """Add what this process generated to the file, where bytecode is written (as
        Python's own cache is; nothing when nothing was generated)."""
        if self._new and not sys.dont_write_bytecode:
            self.save()

    def _current(self) -> bool:
        """Whether every tether module loaded so far is the one the table was filled with."""
        self._noted()
        while self._usable and self._unchecked:
            file = self._unchecked.pop()
            kept = self._files.get(file)
            if kept is not None and tuple(kept) != self._stamps[file]:
                self._usable = False
        return self._usable

    def _noted(self) -> None:
        """Note the source stamps of the tether modules loaded since the last call (a module
        changed on disk after it was loaded must not vouch for what it made)."""
        modules = sys.modules
        count = self._loaded_count
        name, module = self._last_loaded
        # A module is added at the end of `sys.modules`: while the one last met there is
        # still there (the same module, at the same place), those after it are the ones
        # loaded since. Otherwise (a module taken out moves what follows it) every module is
        # looked at again, as each look did before: a start looks a dozen times, over hundreds.
        kept = 0 < count <= len(modules) and modules.get(name) is module
        if kept and count == len(modules) and next(reversed(modules)) == name:
            return
        loaded = list(modules)
        start = count if kept and loaded[count - 1] == name else 0
        self._loaded_count = len(loaded)
        if loaded:
            self._last_loaded = (loaded[-1], modules.get(loaded[-1]))
        for name in loaded[start:]:
            if name != "tether" and not name.startswith("tether."):
                continue
            module = sys.modules.get(name)
            if not isinstance(module, types.ModuleType):
                continue
            file = getattr(module, "__file__", None)
            if file and file not in self._stamps:
                stamp = _stamp(module)
                if stamp is not None:
                    self._stamps[file] = stamp
                    self._unchecked.append(file)


def _read(path: Path) -> tuple[dict[str, bytes], dict[str, tuple[int, int]]]:
    """The table at `path`: its pickled schemas and its modules' stamps; empty when there is
    none, or it was made by another Python or pydantic."""
    parts = read_table(path, _FORMAT, _versions(), 2)
    if parts is None:
        return {}, {}
    files, entries = parts
    if not isinstance(files, dict) or not isinstance(entries, dict):
        return {}, {}
    return entries, files


def _stamp(module: types.ModuleType) -> tuple[int, int] | None:
    """The module's source file's (mtime_ns, size), as Python checks its bytecode by."""
    file = getattr(module, "__file__", None)
    if not file:
        return None
    try:
        stat = os.stat(file)
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def _versions() -> tuple[str, ...]:
    import pydantic
    import pydantic_core

    return (sys.version, pydantic.VERSION, pydantic_core.__version__)


_ORIGINALS = "__tether_schema_table__"


def _install(generator_module: types.ModuleType, table: _Table) -> None:
    """Have `GenerateSchema` take (or keep) a whole schema from (in) `table`."""
    generator = generator_module.GenerateSchema
    if _ORIGINALS in generator.__dict__:
        return
    generate = generator.generate_schema
    clean = generator.clean_schema
    builders: dict[types.CodeType | None, str] = {}
    pending: dict[int, tuple[str, Any]] = {}
    """A whole schema being generated: its key, until it is cleaned (`id` of the schema)."""
    taken: dict[int, Any] = {}
    """A whole schema taken from the table, until pydantic asks for it cleaned."""

    def generate_schema(self: Any, obj: Any) -> Any:
        if not builders:
            # Found at the first schema, not as the generator loads: the modules that build
            # with it import it, so they are still being run then.
            builders.update(_builders())
        kind = builders.get(sys._getframe(1).f_code)
        if kind is None or self._typevars_map or _computes(obj, kind):
            return generate(self, obj)
        key = names.key(kind, obj, self._config_wrapper_stack.tail.config_dict)
        if key is None:
            return generate(self, obj)
        if table.lookup:
            schema = table.found(key)
            if schema is not None:
                taken[id(schema)] = schema
                return schema
        schema = generate(self, obj)
        pending[id(schema)] = (key, schema)
        return schema

    def clean_schema(self: Any, schema: Any) -> Any:
        if taken.pop(id(schema), None) is schema:
            return schema  # kept cleaned
        cleaned = clean(self, schema)
        found = pending.pop(id(schema), None)
        if found is not None and found[1] is schema:
            table.keep(found[0], cleaned)
        return cleaned

    setattr(generator, _ORIGINALS, (generate, clean))
    generator.generate_schema = generate_schema
    generator.clean_schema = clean_schema


def _uninstall(generator_module: types.ModuleType) -> None:
    generator = generator_module.GenerateSchema
    originals = generator.__dict__.get(_ORIGINALS)
    if originals is not None:
        generator.generate_schema, generator.clean_schema = originals
        delattr(generator, _ORIGINALS)


def _computes(obj: Any, kind: str) -> bool:
    """Whether `obj` is a model with computed fields: generating its schema also settles
    their return types, which the model then shows (`model_computed_fields`)."""
    decorators = getattr(obj, "__pydantic_decorators__", None)
    return kind == "model" and bool(getattr(decorators, "computed_fields", None))


def _builders() -> dict[types.CodeType | None, str]:
    """The code of each of pydantic's builders, with its kind; should a later pydantic have
    moved one, none (`None` stands for them), and pydantic generates every schema itself."""
    codes: dict[types.CodeType | None, str] = {}
    for module, path, kind in _BUILDERS:
        value: Any = importlib.import_module(module)
        for part in path.split("."):
            value = getattr(value, part, None)
        code = getattr(value, "__code__", None)
        if not isinstance(code, types.CodeType):
            return {None: "none"}
        codes[code] = kind
    return codes
