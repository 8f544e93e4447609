"""The floors of `src/tether` (`tests/floors.py`): a package imports only packages on floors
below its own.

Every `import` counts, at module level, inside functions and under `TYPE_CHECKING`: an
import hidden in a function is still a dependency, only a later one. Separately, the imports
that run when a module is loaded must form no cycle, package `__init__`s included.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tests.floors import FLOOR
from tests.sources import MODULES, SRC


@dataclass(frozen=True)
class Import:
    """One `import` statement's target module, where it stands, and whether it runs at load."""

    importer: str
    target: str
    path: Path
    line: int
    at_load: bool


def _imports(name: str, path: Path) -> Iterator[Import]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    yield from _walk(tree.body, name, package, path, at_load=True)


def _walk(
    body: list[ast.stmt], name: str, package: str, path: Path, *, at_load: bool
) -> Iterator[Import]:
    for node in body:
        match node:
            case ast.Import(names=names):
                for alias in names:
                    yield Import(name, alias.name, path, node.lineno, at_load)
            case ast.ImportFrom(module=module, level=level, names=names):
                base = module or ""
                if level:
                    parts = package.split(".")[: len(package.split(".")) - (level - 1)]
                    base = ".".join([*parts, *([module] if module else [])])
                # `from package import submodule` depends on the submodule, not the package's
                # own `__init__` (which is being loaded when a sibling does this).
                submodules = [f"{base}.{a.name}" for a in names if f"{base}.{a.name}" in MODULES]
                for target in submodules:
                    yield Import(name, target, path, node.lineno, at_load)
                if len(submodules) < len(names):
                    yield Import(name, base, path, node.lineno, at_load)
            case ast.If() if "TYPE_CHECKING" in ast.unparse(node.test):
                yield from _walk(node.body, name, package, path, at_load=False)
                yield from _walk(node.orelse, name, package, path, at_load=at_load)
            case ast.FunctionDef() | ast.AsyncFunctionDef():
                yield from _walk(node.body, name, package, path, at_load=False)
            case _:
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.stmt):
                        yield from _walk([child], name, package, path, at_load=at_load)
                    elif isinstance(child, ast.ExceptHandler | ast.match_case):
                        yield from _walk(child.body, name, package, path, at_load=at_load)


@cache
def all_imports() -> list[Import]:
    """Every import of every tether module, read from the sources when a test first asks: not
    at collection, where each worker parsed all of them for the one that runs these tests."""
    return [i for name, path in MODULES.items() for i in _imports(name, path)]


def _unit(module: str) -> str:
    """The top-level module or package of `tether` that `module` belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _where(i: Import) -> str:
    return f"{i.path.relative_to(SRC.parent)}:{i.line}"


def test_every_package_has_a_floor() -> None:
    """A new top-level module or package must be placed in the table (and in LAYOUT.md)."""
    missing = sorted({_unit(name) for name in MODULES} - FLOOR.keys())
    assert not missing, f"put these on a floor in tests/floors.py: {missing}"


def test_imports_go_down() -> None:
    """Each import of another part of tether reaches a floor below the importer's own."""
    wrong = []
    for i in all_imports():
        if i.target != "tether" and not i.target.startswith("tether."):
            continue
        here, there = _unit(i.importer), _unit(i.target)
        if here == there or there not in FLOOR or here not in FLOOR:
            continue
        if FLOOR[there] >= FLOOR[here]:
            wrong.append(f"{_where(i)}: {here} (floor {FLOOR[here] + 1}) imports {i.target}")
    assert not wrong, "imports that do not go down:\n" + "\n".join(wrong)


def _cycles(*, at_load_only: bool) -> list[list[str]]:
    """The import cycles among tether's modules (only the imports that run at load, or all)."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for i in all_imports():
        if (i.at_load or not at_load_only) and i.target in MODULES and i.target != i.importer:
            graph[i.importer].add(i.target)
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    return cycles


def test_no_cycle_at_load() -> None:
    """The imports that run when a module loads form no cycle."""
    cycles = _cycles(at_load_only=True)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_no_cycle_at_all() -> None:
    """No circle even through imports deferred into functions or kept for type checking:
    a module that needs one that needs it back shares a concept that wants its own home
    (`cli/interactive`'s commands, conversation and rewind once did: the dispatcher and the
    `lines` module above them took what they shared)."""
    cycles = _cycles(at_load_only=False)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_walk_sees_hidden_imports() -> None:
    """Imports inside functions, `try`, `match` and `TYPE_CHECKING` are all found."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from tether.session import Session\n"
        "try:\n    import tether.acp\nexcept ImportError:\n    pass\n"
        "def f() -> None:\n"
        "    match 1:\n        case 1:\n            from tether.web import app\n"
        "from . import wire\n"
    )
    tree = ast.parse(source)
    found = list(_walk(tree.body, "tether.views.x", "tether.views", Path("x.py"), at_load=True))
    assert [(i.target, i.at_load) for i in found if i.target.startswith("tether")] == [
        ("tether.session", False),
        ("tether.acp", True),
        ("tether.web.app", False),
        ("tether.views", True),
    ]


SESSION_LOG_NEEDS = {"tether.session._gc"}
"""What `session/log/` may import of the rest of the session: the collector pause."""


def test_the_session_log_is_the_sessions_ground_floor() -> None:
    """`session/log/` (events, the log file, the store) is what the rest of the session reads
    and writes; it imports nothing of the loop, the context, rewind or replay above it."""
    wrong = [
        f"{_where(i)}: {i.importer} imports {i.target}"
        for i in all_imports()
        if i.importer.startswith("tether.session.log.")
        and i.target.startswith("tether.session.")
        and not i.target.startswith("tether.session.log.")
        and i.target not in SESSION_LOG_NEEDS
    ]
    assert not wrong, "session/log/ reaching up:\n" + "\n".join(wrong)


def test_context_and_rewind_stand_apart() -> None:
    """What the model is sent (`session/context/`) and putting files back (`session/rewind/`)
    share the log, never each other."""
    apart = ("tether.session.context.", "tether.session.rewind.")
    wrong = [
        f"{_where(i)}: {i.importer} imports {i.target}"
        for i in all_imports()
        for here, there in (apart, apart[::-1])
        if i.importer.startswith(here) and i.target.startswith(there)
    ]
    assert not wrong, "context/ and rewind/ importing each other:\n" + "\n".join(wrong)
