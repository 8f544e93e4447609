"""The web package is a client of the core, never of the command line."""

from __future__ import annotations

import ast
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
