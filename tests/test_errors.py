"""One exception tree: every error tether raises on purpose is in `tether.errors`, under
`TetherError`, and the tree its docstring draws is the classes' own."""

from __future__ import annotations

import ast
import inspect
import re

import pytest

from tests.sources import MODULES
from tether import errors
from tether.errors import (
    FileOperationFailed,
    FrontMatterError,
    InvalidInput,
    LockTimeout,
    SettingsError,
    TetherError,
    ToolError,
)

CLASSES = {name: getattr(errors, name) for name in errors.__all__}


def _exception_bases(node: ast.ClassDef) -> list[str]:
    return [ast.unparse(base) for base in node.bases]


def test_no_public_exception_class_lives_elsewhere() -> None:
    """A public class deriving from an exception, outside `tether.errors`, is a second home."""
    known = {*CLASSES, "Exception", "ValueError", "OSError", "RuntimeError", "KeyError"}
    elsewhere = []
    for name, path in MODULES.items():
        if name == "tether.errors":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef) or node.name.startswith("_"):
                continue
            bases = _exception_bases(node)
            if any(b in known or b.endswith(("Error", "Exception")) for b in bases):
                elsewhere.append(f"{name}.{node.name}({', '.join(bases)})")
    assert elsewhere == []


def test_every_class_is_a_tether_error() -> None:
    assert all(issubclass(cls, TetherError) for cls in CLASSES.values())


def test_the_docstring_draws_the_tree_the_classes_form() -> None:
    """Each line of the drawing names a class; its parent is the nearest line less indented."""
    doc = inspect.getdoc(errors) or ""
    drawing = [line for line in doc.splitlines() if re.match(r"^[│├└ ]*[─ ]*[A-Z]\w+ ", line)]
    parents: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    for line in drawing:
        match = re.match(r"^([│├└─ ]*)([A-Z]\w+)", line)
        assert match is not None
        depth, name = len(match.group(1)), match.group(2)
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if stack:
            parents[name] = stack[-1][1]
        stack.append((depth, name))
    assert sorted([*parents, "TetherError"]) == sorted(CLASSES)
    for name, parent in parents.items():
        assert CLASSES[name].__bases__[0] is CLASSES[parent], name


def test_the_two_families_stay_what_callers_catch() -> None:
    """An input error is still a `ValueError`, a filesystem failure still an `OSError`."""
    with pytest.raises(ValueError, match="bad file"):
        raise SettingsError("bad file")
    with pytest.raises(OSError, match="locked") as caught:
        raise LockTimeout("locked")
    assert caught.value.errno is None
    assert issubclass(InvalidInput, ValueError) and issubclass(FileOperationFailed, OSError)
    assert not issubclass(ToolError, ValueError | OSError)


def test_messages_and_fields_are_kept() -> None:
    assert str(ToolError("no such file", meta={"status": 404})) == "no such file"
    assert ToolError("x", meta={"status": 404}).meta == {"status": 404}
    assert FrontMatterError("bad key", line=3).where("a.md") == "a.md:3: bad key"
