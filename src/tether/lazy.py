"""Loading code when it is used: tether's packages, and libraries that import too early.

- `lazy_names`: a package's `__init__` names what it offers, for readers and type checkers,
  under `TYPE_CHECKING`, and gives Python a module `__getattr__` (PEP 562) made here. So
  `from tether.session import SessionStore` loads the store and nothing else of the package:
  each command pays only for the modules it uses.
- `defer_imports`: modules a library imports at its own import but uses only later (the
  HTTP/2 stack, which every HTTP client loads though most connections speak HTTP/1.1) are
  created empty and run on their first use. A module a library imports names from at its
  own import (httpx's command line, whose `main` `import httpx` binds) is created with a
  stand-in for each such name, which runs the module when called and calls what it defines.
  A module of `SETTLED` runs as usual, then is handed to a function that settles what it
  would otherwise work out later at a cost (pydantic's plugin scan).
- `when_loaded`: what must be done to a module once it runs (the command line's logging
  set-up), done then, so that a command that never imports the module never pays for it;
  `before_run`, what must be done to it right before (a name given to its code).
- `logger`: a module's logger, named at import and made (with `logging`) when it first logs,
  so that a command whose modules log nothing never loads `logging`.
- `pattern`: a module's regular expression, compiled when first used, so that a command pays
  only for the patterns of what it reads (`tether run` imports the readers of settings, hook,
  agent, command and instruction files whether or not any exists).
"""

from __future__ import annotations

import _thread
import importlib
import importlib.machinery
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import importlib.abc
    import logging
    import re

__all__ = [
    "DEFERRED_LIBRARIES",
    "DEFERRED_NAMES",
    "SETTLED",
    "before_run",
    "defer_imports",
    "is_loaded",
    "lazy_names",
    "logger",
    "pattern",
    "system_name",
    "unpredictable",
    "untranslated",
    "when_loaded",
]

DEFERRED_LIBRARIES = (
    "h2",
    "hpack",
    "hyperframe",
    "certifi",
    "secrets",
    "tokenize",
    "token",
    "linecache",
    "ntpath",
    "fnmatch",
    "base64",
    "struct",
    "pydantic._internal._discriminated_union",
    "pydantic._internal._known_annotated_metadata",
)
"""The HTTP/2 stack: the HTTP clients import it with themselves; it runs with the first
connection that speaks HTTP/2 (a fetch the server answers over it). And certifi (with
`importlib.resources`), which they import to name its CA bundle when a TLS context is made.
And `secrets` (with `hmac`, OpenSSL's hashes and `random`), which pydantic imports for its
secret types' comparisons: it runs when tether first makes a token or a session's id. And
`tokenize`, `token` and `linecache`, which `inspect` (that `dataclasses` imports) imports for
reading a function's source: they run when a source line is first read (a traceback, a
warning shown). And what is imported with `pathlib` (`ntpath`, for Windows paths; `fnmatch`,
for matching a path), with pydantic (`base64`, for its base64 types) and with `zoneinfo`
(`struct`, for reading a zone's file) but used only when called: none runs while a stored
session is shown (a hundredth of `tether show`'s start). And two modules of pydantic's schema
generator, for discriminated unions and the constraints of annotated types: the schemas of a
stored session's types are read from `tether.schema_table`, so a show never runs them (a
three-hundredth of its start). A dotted name defers that module alone."""

DEFERRED_NAMES: Mapping[str, tuple[str, ...]] = {
    "httpx._main": ("main",),
    "importlib.metadata": ("entry_points",),
    "pickle": ("dumps", "loads"),
    "gettext": ("gettext", "ngettext"),
    "urllib.parse": ("quote_from_bytes",),
    "random": ("getrandbits",),
    "ast": ("NodeVisitor", "literal_eval"),
    "platform": ("system",),
}
"""Modules run when a name imported from them is first called: httpx's command line, which
`import httpx` runs for its `httpx.main` (click, rich's syntax and Pygments' lexers: a fifth
of importing httpx), though tether never calls it; `importlib.metadata`, whose
`entry_points` pydantic's plugin loader binds (`zipfile`, `csv`, `email`), which it calls only
when `SETTLED` could not answer for it; and `pickle`, whose `dumps` and `loads` rich's styles
bind for a style's metadata (a link's), which no card has (`tether.schema_table` reads its
schemas with `_pickle`'s `loads`, which `pickle` itself hands out). And `gettext`, whose
`gettext` and `ngettext` argparse binds and calls for its own words as each parser is made:
while no catalogue can be found for them, the stand-ins answer as gettext would, untranslated
(`untranslated`), and neither `gettext` nor `locale` runs. And `urllib.parse`, whose
`quote_from_bytes` `pathlib` binds for a path's `as_uri`. And `random`, whose `getrandbits`
rich's styles call as they load, for where their links' ids start: while `random` has not run,
its stand-in answers with bits from the system's source (`unpredictable`), and `random` runs
with the first other use (a three-hundredth of a text `tether show`'s start). And `ast`, whose
`NodeVisitor` `inspect` and pydantic subclass as they load (`_BASES`: a class stands for it)
and whose `literal_eval` rich's markup binds: the syntax tree's module, and its hundred
classes, run when a tree is first parsed or walked (a thirtieth of a start's instructions).
And `platform`, whose `system()` `uuid` (which pydantic imports) asks as it loads: the name
`os.uname` gives, as `platform` would give it (`system_name`), and `platform` runs with the
first other use."""

SETTLED: Mapping[str, str] = {"pydantic.plugin._loader": "tether.pydantic_plugins:settle"}
"""Modules handed, once run, to a function (`module:function`) given the module: pydantic's
plugin loader learns it has no plugins when no installed distribution declares one."""


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A `__getattr__` for `package`: each name of `homes` is imported from its module (the
    value) on first use, then kept in the package like any other attribute."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


class _Deferred:
    """Finds the modules of some top-level packages, to be run on first use.

    A meta path finder by its methods, not by `importlib.abc`'s base class: importing that
    loads `importlib.resources` and with it `tempfile` and the compressors, which `--help`
    would pay for.
    """

    def __init__(
        self,
        packages: Sequence[str],
        names: Mapping[str, tuple[str, ...]],
        settled: Mapping[str, str],
    ) -> None:
        # A plain name stands for a package and all its modules, a dotted one for that module.
        self.packages = frozenset(name for name in packages if "." not in name)
        self.modules = frozenset(name for name in packages if "." in name)
        self.names = dict(names)
        self.settled = dict(settled)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        """The module's own spec, its loader wrapped to run the module on first use."""
        stand_ins = self.names.get(fullname, ())
        settle = self.settled.get(fullname)
        waiting = fullname in _WHEN_RUN or fullname in _BEFORE_RUN
        if (
            fullname.partition(".")[0] not in self.packages
            and fullname not in self.modules
            and not stand_ins
            and not settle
            and not waiting
        ):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return spec  # not a plain source module: loaded as usual
        if settle is not None or waiting:
            spec.loader = cast("importlib.abc.Loader", _ThenSettle(spec.loader, settle))
        else:
            spec.loader = cast("importlib.abc.Loader", _OnFirstUse(spec.loader, stand_ins))
        return spec


class _ThenSettle:
    """Runs the module as its loader would, then hands it to its settling function and to
    what `when_loaded` left for it."""

    def __init__(self, loader: importlib.machinery.SourceFileLoader, settle: str | None) -> None:
        self.loader = loader
        self.settle = settle

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        """As the wrapped loader would."""
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        """Run the module, then settle it."""
        for first in _BEFORE_RUN.pop(module.__name__, []):
            first(module)
        self.loader.exec_module(module)
        if self.settle is not None:
            home, _, name = self.settle.partition(":")
            getattr(importlib.import_module(home), name)(module)
        for then in _WHEN_RUN.pop(module.__name__, []):
            then(module)

    def __getattr__(self, name: str) -> Any:
        # Whatever else is asked of a loader is the wrapped one's answer: `importlib.resources`
        # asks a package's loader for its resource reader (certifi finds its CA bundle so).
        return getattr(self.loader, name)


class _OnFirstUse:
    """Creates the module with its `__name__`, `__spec__`, `__path__`, and runs it later."""

    def __init__(
        self, loader: importlib.machinery.SourceFileLoader, stand_ins: tuple[str, ...] = ()
    ) -> None:
        self.loader = loader
        self.stand_ins = stand_ins

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        """As the wrapped loader would."""
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        """Leave the module to run at the first name asked of it that it does not have yet."""
        module.__dict__[_LOADER] = self.loader
        module.__class__ = _DeferredModule
        for name in self.stand_ins:
            module.__dict__[name] = _stand_in(module, name)

    def __getattr__(self, name: str) -> Any:
        # Whatever else is asked of a loader is the wrapped one's answer: `importlib.resources`
        # asks a package's loader for its resource reader (certifi finds its CA bundle so).
        return getattr(self.loader, name)


def _stand_in(module: ModuleType, name: str) -> Callable[..., Any]:
    """A callable standing for `module.name` until the module runs: calling it runs the
    module (which replaces the stand-in there with its own) and calls that. A module of
    `_ANSWERED` is asked first, while it has not run, for what the call would return. A class
    of `_BASES` stands as the class it names (`_BASES` says how)."""
    base = _BASES.get((module.__name__, name))
    if base is not None:
        return base(module)
    answer = _ANSWERED.get(module.__name__)

    def stand_in(*args: Any, **kwargs: Any) -> Any:
        if answer is not None and not kwargs and _LOADER in module.__dict__:
            found = answer(name, args)
            if found is not _UNSURE:
                return found
        _run(module)
        return getattr(module, name)(*args, **kwargs)

    stand_in.__name__ = stand_in.__qualname__ = name
    return stand_in


_UNSURE = object()
"""What an answer of `_ANSWERED` gives when only the module itself can answer."""


def _node_visitor(module: ModuleType) -> type[Any]:
    """A class standing for `ast.NodeVisitor` while `ast` has not run, for the classes that
    are made of it as their modules load (`inspect`'s finder of a class's source, pydantic's
    reader of attribute docstrings); each of its methods is `ast.NodeVisitor`'s own, called
    on the instance once `ast` has run (a class made of it is not one of `ast`'s own
    `NodeVisitor`: nothing asks)."""

    def real() -> Any:
        _run(module)
        return module.NodeVisitor

    class NodeVisitor:
        __doc__ = "Stands for `ast.NodeVisitor`: each method is its own."

        def visit(self, node: Any) -> Any:
            return real().visit(self, node)

        def generic_visit(self, node: Any) -> Any:
            return real().generic_visit(self, node)

        def visit_Constant(self, node: Any) -> Any:
            return real().visit_Constant(self, node)

    NodeVisitor.__module__ = module.__name__
    return NodeVisitor


_BASES: Mapping[tuple[str, str], Callable[[ModuleType], type[Any]]] = {
    ("ast", "NodeVisitor"): _node_visitor,
}
"""Classes of `DEFERRED_NAMES` that modules subclass as they load: a stand-in class for each,
made by the function given the module, whose methods are the real class's once it has run."""


def untranslated(name: str, args: tuple[Any, ...]) -> Any:
    """What gettext's `gettext(message)` or `ngettext(singular, plural, n)` returns while it
    has not run, when it can find no catalogue: the message as given (`_UNSURE` when a
    catalogue may exist, or for any other call)."""
    # Until gettext runs, its domain and folder are its defaults (only it can change them),
    # and it looks for a catalogue only inside that folder: where the folder is not, it finds
    # none, and gives back what it was given (Python's own builds install none there).
    if os.path.isdir(os.path.join(sys.base_prefix, "share", "locale")):
        return _UNSURE
    if name == "gettext" and len(args) == 1:
        return args[0]
    if name == "ngettext" and len(args) == 3:
        singular, plural, n = args
        return singular if n == 1 else plural
    return _UNSURE


def unpredictable(name: str, args: tuple[Any, ...]) -> Any:
    """What `random`'s `getrandbits(k)` returns while it has not run: `k` bits from the
    system's source of randomness (`random` seeds itself from the same source), unpredictable
    as its own would be (`_UNSURE` for any other call)."""
    if name != "getrandbits" or len(args) != 1 or type(args[0]) is not int or args[0] < 0:
        return _UNSURE
    bits: int = args[0]
    size = (bits + 7) // 8
    return int.from_bytes(os.urandom(size), "big") >> (size * 8 - bits)


def system_name(name: str, args: tuple[Any, ...]) -> Any:
    """What `platform`'s `system()` returns while it has not run: the system's name as
    `os.uname` gives it, which is what `platform` makes of it but for an unknown or unnamed
    system and old Windows (`_UNSURE` then, and for any other call)."""
    if name != "system" or args or not hasattr(os, "uname"):
        return _UNSURE
    info = os.uname()
    if not all(info) or info.sysname in ("unknown", "Microsoft"):
        return _UNSURE
    return info.sysname


_ANSWERED: Mapping[str, Callable[[str, tuple[Any, ...]], Any]] = {
    "gettext": untranslated,
    "random": unpredictable,
    "platform": system_name,
}
"""Modules of `DEFERRED_NAMES` whose stand-ins first ask a function what the call would
return, and run the module only when it cannot say (`_UNSURE`)."""

_LOADER = "__tether_deferred_loader__"
_RUNNING = _thread.RLock()  # `threading`'s own lock, without its import (`tether --help`)


class _DeferredModule(ModuleType):
    """A module not run yet. Unlike `importlib.util.LazyLoader`'s, it runs only when asked
    for a name it lacks: a second `import` of it (which reads `__spec__`) leaves it be."""

    def __getattr__(self, name: str) -> Any:
        if name == "__path__":
            # `from module import name` asks whether it is a package before it asks for the
            # name (a package's `__path__` is set already): the answer must not run it.
            raise AttributeError(name)
        _run(self)
        return ModuleType.__getattribute__(self, name)


def _run(module: ModuleType) -> None:
    """Run a deferred module, once (at once if another thread is running it)."""
    with _RUNNING:
        loader = module.__dict__.pop(_LOADER, None)
        if loader is not None:
            object.__setattr__(module, "__class__", ModuleType)
            loader.exec_module(module)


def defer_imports(
    packages: Sequence[str] = DEFERRED_LIBRARIES,
    names: Mapping[str, tuple[str, ...]] = DEFERRED_NAMES,
    settled: Mapping[str, str] = SETTLED,
) -> None:
    """From now on, modules of `packages` not imported yet run on their first use, each
    module of `names` when one of the names given for it is first called, and each module of
    `settled` is settled once it has run."""
    if any(isinstance(f, _Deferred) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _Deferred(packages, names, settled))


_WHEN_RUN: dict[str, list[Callable[[ModuleType], None]]] = {}
"""What `when_loaded` left for each module not run yet, done right after it runs."""


def when_loaded(name: str, then: Callable[[ModuleType], None]) -> None:
    """Call `then` with module `name` once it has run: now if it has, else right after the
    first import runs it (`defer_imports`' finder, installed here if it is not yet, sees to
    it; a plain source module only, as the finder wraps no other, and none it defers)."""
    if is_loaded(name):
        then(sys.modules[name])
        return
    defer_imports()
    _WHEN_RUN.setdefault(name, []).append(then)


_BEFORE_RUN: dict[str, list[Callable[[ModuleType], None]]] = {}
"""What `before_run` left for each module not run yet, done right before it runs."""


def before_run(name: str, first: Callable[[ModuleType], None]) -> None:
    """Call `first` with module `name`, created but not run yet, right before its first import
    runs it (to give it a name its code looks up as it runs); nothing when it has run already.
    A plain source module only, as `when_loaded`."""
    if name in sys.modules:
        return
    defer_imports()
    _BEFORE_RUN.setdefault(name, []).append(first)


def is_loaded(name: str) -> bool:
    """Whether module `name` has run (not merely been created, deferred, awaiting first use)."""
    module = sys.modules.get(name)
    return module is not None and not isinstance(module, _DeferredModule)


def logger(name: str) -> logging.Logger:
    """`logging.getLogger(name)`, got when it is first used: until the module logs, or a
    filter is added, neither the logger nor `logging` is loaded."""
    return cast("logging.Logger", _LoggerOnUse(name))


class _LoggerOnUse:
    """Stands for a logger. A method asked of it is the logger's own, bound, so a record names
    its caller's file and line as the logger's would. Filters added before the logger is made
    (`cli.held_output.said_once`) are kept, and given to it when it is."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._logger: logging.Logger | None = None
        self._filters: list[Any] = []

    def _made(self) -> logging.Logger:
        made = self._logger
        if made is None:
            import logging

            made = self._logger = logging.getLogger(self.name)
            for each in self._filters:
                made.addFilter(each)
            self._filters.clear()
        return made

    def addFilter(self, filter: Any) -> None:
        """Add `filter` to the logger, now if it is made, else when it is."""
        if self._logger is None and not is_loaded("logging"):
            if filter not in self._filters:
                self._filters.append(filter)
            return
        self._made().addFilter(filter)

    def removeFilter(self, filter: Any) -> None:
        """Remove `filter` from the logger, or from those waiting for it."""
        if self._logger is None and filter in self._filters:
            self._filters.remove(filter)
            return
        self._made().removeFilter(filter)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._made(), name)


def pattern(text: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(text, flags)`, compiled when first used: a method or attribute asked of it
    is the compiled pattern's own (kept, so later uses cost what the pattern's would). For
    patterns used through their methods only (not handed to `re`'s functions or `isinstance`)."""
    return cast("re.Pattern[str]", _PatternOnUse(text, flags))


class _PatternOnUse:
    """Stands for a compiled pattern until it is first used."""

    def __init__(self, text: str, flags: int) -> None:
        self._source = (text, flags)

    def __getattr__(self, name: str) -> Any:
        import re

        value = getattr(re.compile(*self._source), name)
        self.__dict__[name] = value  # found at once from now on: no second look-up here
        return value

    def __repr__(self) -> str:
        text, flags = self._source
        return f"pattern({text!r}, {flags})"
