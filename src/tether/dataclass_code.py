"""Dataclasses' generated methods (and annotations' forward references), compiled once per
installation instead of at every start.

`dataclasses` writes each class's `__init__`, `__repr__`, `__eq__`, `__hash__` (and a frozen
class's `__setattr__` and `__delattr__`) as source text and compiles it when the class is
made. A command makes hundreds of dataclasses before it does anything (tether's events,
cards, settings; pydantic's and httpx's own), so compiling those few thousand small
functions was a fifth of `tether run`'s CPU up to its first request, at every start. Likewise
`typing.ForwardRef` compiles each annotation written as a string (pydantic makes one per
field of every model it builds: over a thousand before the first request).

`reuse_dataclass_code` gives the `dataclasses` module an `exec`, and `typing` a `compile`, of
their own that look each text up in a table of code compiled from exactly that text (in that
mode), and compile (and keep) what is not there yet. The text and mode are the whole of what
decides the code, so the classes and references are the ones Python would make; only the
compiling is skipped. The table is written beside tether's
own bytecode (`__pycache__`, or under `sys.pycache_prefix`), one per command, at the end of
a process that compiled something new, and trusted as Python trusts the bytecode there. A
table is for one interpreter and one release of tether: an upgrade in place leaves the table
beside the new bytecode, and the texts of the earlier release's classes would be read at every
start until it filled, so a new release starts a table of its own.
Nothing is written when bytecode is not (`PYTHONDONTWRITEBYTECODE`), and a table that does
not read back is ignored and written afresh.

Regular expressions likewise: `re` parses a pattern and compiles it to its matcher's program
in Python (a hundred patterns, tether's and its libraries', before `tether run`'s first
request: a twentieth of its CPU). The same table keeps each text pattern's program, keyed by
its text and flags, and `re`'s compiler gives the matcher the program kept for it; the
program is what the text and flags decide, so the pattern is the one `re` would make (it
compares equal to it).
"""

from __future__ import annotations

import atexit
import builtins
import importlib
import marshal
import sys
import threading

# Where `importlib.util` takes them from: importing it loads its loaders' base classes, which
# a start has no use for (a four-hundredth of `tether show`'s instructions).
from importlib._bootstrap_external import MAGIC_NUMBER, cache_from_source
from pathlib import Path
from types import CodeType
from typing import Any

from tether import __version__
from tether.kept_table import read_table, write_table

__all__ = [
    "COMPILED_CHECKS",
    "MAX_ENTRIES",
    "code_table_path",
    "reuse_code_in",
    "reuse_dataclass_code",
]

MAX_ENTRIES = 20_000
"""A table that would pass this many texts is started afresh with what this process made."""

_FORMAT = 2
"""The layout of a table file: `(_FORMAT, _VERSIONS, {(mode, text): marshalled code})`."""

_VERSIONS = (MAGIC_NUMBER, __version__)
"""What a table is made for: the interpreter's bytecode and tether's release."""

_Key = tuple[str, str]
"""`(mode, text)`: `exec` for a dataclass's methods, `eval` for a forward reference, `re:`
and the flags for a pattern's program."""

_RE_MODE = "re:"

COMPILED_CHECKS = "typing_inspection.typing_objects"
"""typing_inspection's checks of typing objects, each compiled from text as it loads (thirty
small functions: nearly 2% of `tether show`'s start), with `exec`: `reuse_code_in` gives it
the table's, before it runs (`tether.lazy.before_run`)."""

_FUTURE_FLAGS = 0x1FE0000
"""The `__future__` features' bits of a code object's flags (`CO_FUTURE_*`), which `exec` of a
text passes on from its caller."""

_RE_DEBUG = 128
"""`re.DEBUG`: such a pattern is shown as it is compiled, so it is left to `re`."""


def code_table_path(command: str) -> Path:
    """Where `command`'s table lives: beside tether's bytecode, named for the interpreter
    (`dataclasses-run.cpython-311.marshal`; `sys.pycache_prefix` is followed)."""
    # The bytecode path of a module named for the table: Python's own choice of folder,
    # interpreter tag and optimization level.
    source = Path(__file__).with_name(f"dataclasses-{command}.py")
    return Path(cache_from_source(str(source))).with_suffix(".marshal")


def reuse_code_in(module: Any) -> None:
    """Have `module`'s own `exec` of a text reuse the table's code, once `reuse_dataclass_code`
    has set the table up (nothing otherwise): for a module that compiles functions from text
    as it runs, given this before it runs."""
    table = getattr(importlib.import_module("dataclasses"), "exec", None)
    if isinstance(table, _CodeTable):
        module.__dict__["exec"] = table.exec_text


def reuse_dataclass_code(command: str) -> None:
    """From now on, dataclasses and forward references reuse the code compiled for them by
    earlier runs of `command` (made again, and kept, when not found); the table is saved at
    exit."""
    import dataclasses
    import typing

    if isinstance(getattr(dataclasses, "exec", None), _CodeTable):
        return
    table = _CodeTable(code_table_path(command))
    # Globals of the modules' own, found before the builtins: `dataclasses` calls `exec` only
    # to make methods, `typing` calls `compile` only to make a forward reference.
    dataclasses.exec = table  # type: ignore[attr-defined]
    typing.compile = table.compile  # type: ignore[attr-defined]
    # `re._compile` calls its compiler through the module, after its own cache missed.
    compiler: Any = importlib.import_module("re._compiler")
    table.re_compile = compiler.compile
    compiler.compile = table.compile_pattern
    atexit.register(table.save)


class _CodeTable:
    """`exec` for `dataclasses` and `compile` for `typing`: source text gets the code compiled
    earlier from the same text; anything else is passed to the builtin as it came."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stored: dict[_Key, bytes] | None = None
        self._new: dict[_Key, bytes] = {}
        self._made: dict[_Key, CodeType] = {}
        self._lock = threading.Lock()
        self.re_compile: Any = None
        """`re`'s own compiler, for what the table does not keep."""

    def __call__(
        self, source: Any, globals_: dict[str, Any] | None = None, locals_: Any = None
    ) -> None:
        """Run `source` in `globals_` and `locals_`, as `exec` would."""
        if isinstance(source, str):
            source = self._code(("exec", source))
        builtins.exec(source, globals_, locals_)

    def exec_text(
        self, source: Any, globals_: dict[str, Any] | None = None, locals_: Any = None
    ) -> None:
        """`exec` as its caller's own would run it: a text compiled with its caller's
        `__future__` features (from the table when it has none), in its caller's namespaces
        when given none."""
        caller = sys._getframe(1)
        if globals_ is None:
            globals_ = caller.f_globals
            if locals_ is None:
                locals_ = caller.f_locals
        if isinstance(source, str):
            features = caller.f_code.co_flags & _FUTURE_FLAGS
            if features:
                source = compile(source, "<string>", "exec", features, dont_inherit=True)
            else:
                source = self._code(("exec", source))
        builtins.exec(source, globals_, locals_)

    def compile(self, source: Any, filename: str, mode: str, *args: Any, **kwargs: Any) -> Any:
        """Compile as the builtin would (`typing` has no `__future__` flags to pass on)."""
        plain = filename == "<string>" and mode in ("exec", "eval") and not (args or kwargs)
        if isinstance(source, str) and plain:
            return self._code((mode, source))
        return builtins.compile(source, filename, mode, *args, **kwargs)

    def compile_pattern(self, pattern: Any, flags: Any = 0) -> Any:
        """`re`'s compiler: a text pattern's program from the table (compiled and kept when it
        is not there); anything else, and a pattern to be shown (`re.DEBUG`), as `re` does."""
        if not isinstance(pattern, str) or not isinstance(flags, int) or flags & _RE_DEBUG:
            return self.re_compile(pattern, flags)
        flags = int(flags)  # `re.RegexFlag`s are kept as the number they are
        key = (f"{_RE_MODE}{flags}", pattern)
        raw = self._entries().pop(key, None)
        program = _program_in(raw) if raw is not None else None
        if program is None:
            program = _program(pattern, flags)  # raises as `re` would for a bad pattern
            with self._lock:
                self._new[key] = marshal.dumps(program)
        return importlib.import_module("_sre").compile(pattern, *program)

    def _code(self, key: _Key) -> CodeType:
        # Each look-up is one step on a dictionary, taken without the lock (a start makes a
        # thousand, and taking it cost more than the rest): two threads making the same text
        # at once each put its code in, the same code.
        made = self._made.get(key)
        if made is not None:
            return made  # many classes share a method's text (`__eq__` of two fields)
        entries = self._entries()
        raw = entries.get(key)
        if raw is None:
            # Another thread may have made it meanwhile, and taken it out (after keeping it).
            made = self._made.get(key)
            if made is not None:
                return made
        code = _loaded(raw) if raw is not None else None
        if code is None:
            mode, text = key
            # As the modules compile a text: no `__future__` flags (neither has any). A text
            # that does not compile raises here as it would there, and is not kept.
            code = compile(text, "<string>", mode, dont_inherit=True)
            with self._lock:
                self._new[key] = marshal.dumps(code)
        self._made[key] = code
        # Taken out once its code is kept, for the next class with the same text: what stays
        # in memory as bytes is only what this run never asked for.
        entries.pop(key, None)
        return code

    def _entries(self) -> dict[_Key, bytes]:
        """The entries read from the file and not taken yet (read with the first asked for)."""
        stored = self._stored
        if stored is None:
            with self._lock:
                if self._stored is None:
                    self._stored = _read(self.path)
                stored = self._stored
        return stored

    def save(self) -> None:
        """Add what this process compiled to the table on disk (what other processes added
        meanwhile is kept), less the patterns it read there and never made; nothing when
        nothing is new or bytecode is not written."""
        with self._lock:
            new = dict(self._new)
            if not new or sys.dont_write_bytecode:
                return  # before looking over the entries left unread: most starts stop here
            # A pattern's text may differ from process to process (`tokenize` joins a set of
            # string prefixes, in hash order): each start would add its own 10 KB program, and
            # every start read them all. One this process did not make is left out, to be
            # kept again by a process that makes it. (Listed first, in one step: look-ups take
            # entries out without the lock, and a thread still making classes may take one.)
            stored = list(self._stored or ())
            unmade = {key for key in stored if _is_key(key) and key[0].startswith(_RE_MODE)}
        merged = {
            key: raw
            for key, raw in _read(self.path).items()
            if _is_key(key) and isinstance(raw, bytes) and key not in unmade
        }
        merged.update(new)
        if len(merged) > MAX_ENTRIES:
            merged = new
        write_table(self.path, _FORMAT, _VERSIONS, merged)


def _loaded(raw: bytes) -> CodeType | None:
    """The code `raw` holds; `None` when it holds anything else."""
    try:
        code = marshal.loads(raw)
    except (EOFError, ValueError, TypeError):
        return None
    return code if isinstance(code, CodeType) else None


def _program(pattern: str, flags: int) -> tuple[Any, ...]:
    """What `re`'s compiler hands the matcher for `pattern` (all but the text itself): its
    flags, program, group count, and groups by name and by number."""
    # `re`'s own steps, as its compiler takes them (pinned with the interpreter: the table is
    # named for it, and `tests/test_dataclass_code.py` compares the patterns made).
    parsed = importlib.import_module("re._parser").parse(pattern, flags)
    # Its words are ints, some `re`'s named constants: kept as the numbers they are.
    code = [int(word) for word in importlib.import_module("re._compiler")._code(parsed, flags)]
    names = dict(parsed.state.groupdict)
    numbered: list[str | None] = [None] * parsed.state.groups
    for name, number in names.items():
        numbered[number] = name
    return (int(flags | parsed.state.flags), code, parsed.state.groups - 1, names, tuple(numbered))


def _program_in(raw: bytes) -> tuple[Any, ...] | None:
    """The program `raw` holds (as `_program` makes it); `None` when it holds anything else."""
    try:
        program = marshal.loads(raw)
    except (EOFError, ValueError, TypeError):
        return None
    if not (isinstance(program, tuple) and len(program) == 5):
        return None
    flags, code, groups, names, numbered = program
    typed = (
        isinstance(flags, int)
        and isinstance(code, list)
        and all(isinstance(word, int) for word in code)
        and isinstance(groups, int)
        and isinstance(names, dict)
        and all(isinstance(k, str) and isinstance(v, int) for k, v in names.items())
        and isinstance(numbered, tuple)
    )
    return program if typed else None


def _read(path: Path) -> dict[Any, Any]:
    """The table at `path`; empty when there is none or it is not one this interpreter wrote.

    Its entries are not checked here (a start reads over a thousand and uses a few hundred):
    a look-up asks for a well-formed key, and what it finds is used only if it loads as code
    or a program (`_loaded`, `_program_in`); a save keeps only well-formed entries."""
    parts = read_table(path, _FORMAT, _VERSIONS, 1)
    if parts is None or not isinstance(parts[0], dict):
        return {}
    return parts[0]


def _is_key(key: object) -> bool:
    return (
        isinstance(key, tuple)
        and len(key) == 2
        and isinstance(key[0], str)
        and (key[0] in ("exec", "eval") or key[0].startswith(_RE_MODE))
        and isinstance(key[1], str)
    )
