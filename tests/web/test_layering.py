"""The web package is a client of the core, never of the command line."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tether.web

WEB = Path(tether.web.__file__).parent


def imported_modules(path: Path) -> set[str]:
    """Every module a source file imports, at any depth (lazy imports included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            names.add(node.module)
    return names


def test_no_web_module_imports_the_cli() -> None:
    sources = sorted(WEB.rglob("*.py"))
    assert sources
    offending = {
        str(path.relative_to(WEB)): sorted(
            name for name in imported_modules(path) if name.split(".")[:2] == ["tether", "cli"]
        )
        for path in sources
    }
    assert {path: names for path, names in offending.items() if names} == {}


_JS_IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;]*?\bfrom\s+["'](\.{1,2}/[^"']+)["']""", re.M | re.S
)


def js_imports(path: Path) -> set[Path]:
    """The page's own modules a module imports (or re-exports from), resolved."""
    text = path.read_text(encoding="utf-8")
    return {(path.parent / found).resolve() for found in _JS_IMPORT.findall(text)}


def test_the_page_scripts_import_no_circle() -> None:
    static = (WEB / "static").resolve()
    graph = {path.resolve(): js_imports(path) for path in sorted(static.rglob("*.js"))}
    assert len(graph) > 10
    assert all(target in graph for targets in graph.values() for target in targets)
    circles: list[str] = []

    def visit(node: Path, trail: list[Path], done: set[Path]) -> None:
        if node in trail:
            loop = [*trail[trail.index(node) :], node]
            circles.append(" → ".join(str(p.relative_to(static)) for p in loop))
            return
        if node in done:
            return
        for target in sorted(graph[node]):
            visit(target, [*trail, node], done)
        done.add(node)

    finished: set[Path] = set()
    for start in graph:
        visit(start, [], finished)
    assert circles == []
