"""The tests' own layout: no test module imports another; what several share lives in a support
module named for what it holds (`tests/gitrepo.py`, `tests/cli/held_logs.py`, ...), the
repositories and loopback HTTP servers tests make are made one way each, and a terminal test
checks no text on the screen a wait for another text saw.

Importing a test module from another runs its module-level code a second time under another
name, makes pytest rewrite and compile it for the importer too, and ties a file's tests to
another file's private helpers. The sources are parsed, never imported.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from _pytest.assertion.rewrite import AssertionRewritingHook

from tests.conftest import REPO
from tests.sources import support_with_asserts

TESTS = REPO / "tests"


IMPORT_TEXT = re.compile(
    r"\b(?:from[ \t]+[\w.]+[ \t]+)?import[ \t]+(?:\([^)]*\)|(?:[^\n\\]|\\[\s\S])*)"
)
"""What could be an import statement, in text: more than the imports (strings too), never less
(names in parentheses and continued lines included); only a module where one of these names
a test module is parsed."""


@functools.cache
def _sources() -> dict[Path, str]:
    """Every module of the tests' own code (not the workspaces the ACP snapshots run in)."""
    return {
        path: path.read_text()
        for path in sorted(TESTS.rglob("*.py"))
        if "snapshots" not in path.relative_to(TESTS).parts
    }


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of `body` and of the blocks inside it (imports hide in functions,
    `if`s and `try`s), without walking the expressions, which no import is in."""
    for node in body:
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(node, field, ()):
                if isinstance(child, ast.stmt):
                    yield from _statements([child])
                elif isinstance(child, ast.excepthandler | ast.match_case):
                    yield from _statements(child.body)


def _is_test_module(name: str) -> bool:
    """Whether a module's last name is one pytest collects (`test_*.py`, `*_test.py`)."""
    last = name.rpartition(".")[2]
    return last.startswith("test_") or last.endswith("_test")


def _test_modules_imported(source: str, module: str, *, package: bool) -> Iterator[tuple[int, str]]:
    """The test modules that `source` (the module `module`) imports, by line, at any depth:
    `import a.test_b`, `from a.test_b import x`, `from a import test_b`, relative or not."""
    if not any("test_" in text or "_test" in text for text in IMPORT_TEXT.findall(source)):
        return  # parsing is most of the cost, and few modules could import one
    here = module if package else module.rpartition(".")[0]
    for node in _statements(ast.parse(source).body):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = here.split(".")
                kept = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*kept, *([node.module] if node.module else [])])
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for target in targets:
            if target.startswith("tests.") and _is_test_module(target):
                yield node.lineno, target
                break


OWN_GIT = {
    "tests/gitrepo.py": "the one `git` for building repositories",
    "tests/checkpoints/test_store.py": "a nested repository made under the hostile `GIT_*` "
    "environment the test sets on purpose",
    "tests/cli/test_help_and_version.py": "this checkout's HEAD as the person's git reads it",
    "tests/sandbox/test_escapes.py": "the person's own git after a sandboxed command, "
    "which may fail",
}
"""The files that run `git` themselves rather than through `tests/gitrepo.git`, and why."""


def _runs_git(source: str) -> Iterator[int]:
    """The lines where `source` starts `git` itself: a call whose first argument is a list
    starting with `"git"`."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.List):
            first = node.args[0].elts[:1]
            if first and isinstance(first[0], ast.Constant) and first[0].value == "git":
                yield node.lineno


def _module_name(path: Path) -> tuple[str, bool]:
    parts = path.relative_to(REPO).with_suffix("").parts
    package = parts[-1] == "__init__"
    return ".".join(parts[:-1] if package else parts), package


def test_no_test_module_imports_another() -> None:
    """Every module under `tests/` (test modules, support modules, conftests) imports no
    test module: a helper two files need goes to a support module."""
    found = []
    for path, source in _sources().items():
        module, package = _module_name(path)
        for line, target in _test_modules_imported(source, module, package=package):
            found.append(f"{path.relative_to(REPO)}:{line} imports {target}")
    assert found == []


def test_repositories_are_built_through_one_git() -> None:
    """Tests build their repositories through `tests/gitrepo.git` (the person's `GIT_*`
    variables and config files left out, a fixed author), not each with its own identity and
    environment; the few that must run git otherwise say why in `OWN_GIT`."""
    found = []
    for path, source in _sources().items():
        name = path.relative_to(REPO).as_posix()
        if name not in OWN_GIT and '"git"' in source:
            found += [f"{name}:{line}" for line in _runs_git(source)]
    assert found == []
    assert all(list(_runs_git((REPO / name).read_text())) for name in OWN_GIT)


def test_a_git_run_is_seen_however_the_call_is_written() -> None:
    source = (
        'subprocess.run(["git", "init"], check=True)\n'
        'def f():\n    return subprocess.check_output(["git", *args], cwd=x)\n'
        'subprocess.run(["gitk"])\nsubprocess.run([sys.executable, "-m", "git"])\n'
    )
    assert list(_runs_git(source)) == [1, 3]


def _servers_made(source: str) -> Iterator[int]:
    """The lines where `source` makes an HTTP server of `http.server`."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = ast.unparse(node.func).rpartition(".")[2]
            if name in ("HTTPServer", "ThreadingHTTPServer"):
                yield node.lineno


def test_loopback_http_servers_are_started_in_one_place() -> None:
    """A test's HTTP endpoint gives its handler to `tests/loopback_http.serving`, which binds
    127.0.0.1, serves in a thread and stops (releasing held responses) in one way."""
    found = []
    for path, source in _sources().items():
        name = path.relative_to(REPO).as_posix()
        if name != "tests/loopback_http.py" and "HTTPServer" in source:
            found += [f"{name}:{line}" for line in _servers_made(source)]
    assert found == []
    assert list(_servers_made((TESTS / "loopback_http.py").read_text()))


def _screen_checks_after_a_wait(source: str) -> Iterator[int]:
    """The lines of `assert TEXT in T.display` right after `T.wait_for(OTHER)` (or first in a
    loop right after it)."""
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for waited, after in itertools.pairwise(body):
            call = waited.value if isinstance(waited, ast.Expr) else None
            checked = after.body[0] if isinstance(after, ast.For) else after
            if not (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr == "wait_for"
                and isinstance(checked, ast.Assert)
            ):
                continue
            screen = f"{ast.unparse(call.func.value)}.display"
            if any(
                isinstance(part, ast.Compare)
                and isinstance(part.ops[0], ast.In)
                and ast.unparse(part.comparators[0]) == screen
                for part in ast.walk(checked.test)
            ):
                yield checked.lineno


def test_no_check_reads_the_screen_a_wait_for_another_text_saw() -> None:
    """A terminal test that waited for one text checks another on the same screen by waiting
    for both (`tests/cli/tui.Tui.wait_for_all`): a line drawn below the one waited for may come
    in a later read, and the screen the wait saw can lack it (CI failed so on `/resume`'s
    rows; `/rewind`'s picker and its three choices failed so too, read a few characters at a
    time)."""
    found = []
    for path, source in _sources().items():
        if ".wait_for(" in source and ".display" in source:
            name = path.relative_to(REPO).as_posix()
            found += [f"{name}:{line}" for line in _screen_checks_after_a_wait(source)]
    assert found == []


def test_a_check_of_the_screen_right_after_a_wait_for_another_text_is_seen() -> None:
    source = (
        'tui.wait_for("Resume which session?")\n'
        'assert "the first question" in tui.display\n'
        "def f(again):\n"
        '    again.wait_for("Rewind")\n'
        '    assert "1. a" in again.display and "2. b" in again.display\n'
        'tui.wait_for_all("Rewind", "1. a")\n'
        'assert "1. a" in tui.display\n'
        'tui.wait_for("Rewind")\n'
        'assert "Noted." not in tui.display\n'
        'tui.wait_for("Rewind")\n'
        'assert "> the first question" in tui.everything\n'
        'tui.wait_for("Resume which session?")\n'
        "for session_id in ids:\n"
        '    assert f"the first question · {session_id[:8]} · " in tui.display\n'
    )
    assert sorted(_screen_checks_after_a_wait(source)) == [2, 5, 14]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from tests.cli.test_settings import flat", "tests.cli.test_settings"),
        ("from .test_commands import HIDDEN", "tests.settings.test_commands"),
        ("from . import test_commands", "tests.settings.test_commands"),
        ("from .. import test_layers", "tests.test_layers"),
        ("import tests.batch.test_pool", "tests.batch.test_pool"),
        ("import tests.batch.test_pool as pool", "tests.batch.test_pool"),
        ("def f():\n    from tests.x_test import y", "tests.x_test"),
        ("try:\n    pass\nexcept OSError:\n    import tests.a_test", "tests.a_test"),
        ("from tests.cli import (\n    support,\n    test_settings,\n)", "tests.cli.test_settings"),
        ("from tests.cli import support, \\\n    test_settings", "tests.cli.test_settings"),
        ("x = 1; import tests.test_layers", "tests.test_layers"),
    ],
)
def test_every_form_of_importing_a_test_module_is_seen(source: str, expected: str) -> None:
    found = list(_test_modules_imported(source, "tests.settings.test_grammar_runs", package=False))
    assert [target for _, target in found] == [expected]


def test_support_modules_are_not_taken_for_test_modules() -> None:
    source = (
        "from tests.cli.stream_lines import lines_of\n"
        "from .hidden_commands import HIDDEN\n"
        "from tests import conftest, gitrepo\n"
        "import tests.testing_tools\n"
        "from _pytest.assertion.rewrite import _rewrite_test\n"
    )
    assert list(_test_modules_imported(source, "tests.settings", package=True)) == []


def test_every_support_module_with_asserts_is_rewritten() -> None:
    """pytest's import hook takes each support module that has an `assert` (found without
    importing it), as it takes the test modules."""
    support = support_with_asserts()
    assert "tests.cli.stream_lines" in support
    assert "tests.gitrepo" not in support  # no assert in it
    for name in (*support, "tests.test_layers"):
        spec = importlib.util.find_spec(name)
        assert spec is not None and isinstance(spec.loader, AssertionRewritingHook), name


def test_a_moved_helper_s_asserts_are_still_rewritten() -> None:
    """A support module's asserts say what they compared, as a test module's do
    (`tests/assert_rewriting.py` registers them)."""
    from tests.cli.stream_lines import lines_of  # jsonschema: loaded by this test alone

    with pytest.raises(AssertionError) as failed:
        lines_of('{"type": "init"}')  # no final newline
    assert "where False = " in str(failed.value)
