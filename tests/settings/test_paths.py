"""File rules: gitignore-style patterns on resolved paths, so links and `..` cannot dodge them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tether.settings.matcher import Allow, Deny, FileUse, NoRule, judge
from tether.settings.paths import compile_pattern, escape_pattern
from tether.settings.rules import Rule, parse_rule
from tether.settings.sources import SettingsSource


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = (tmp_path / "ws").resolve()
    for name in ("src/app.py", "src/deep/x.env", ".env", "secrets/key.pem", "docs/a.md"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x")
    (tmp_path / "home/.ssh").mkdir(parents=True)
    (tmp_path / "home/.ssh/id_rsa").write_text("key")
    return root


def covers(pattern: str, path: Path, root: Path) -> bool:
    home = root.parent / "home"
    return compile_pattern(pattern, root=root, home=home).covers(path.resolve())


@pytest.mark.parametrize(
    ("pattern", "relative", "expected"),
    [
        ("*.env", ".env", True),  # as in .gitignore, `*` may match nothing
        ("*.env", "src/deep/x.env", True),
        ("**/*.env", "src/deep/x.env", True),
        (".env", ".env", True),
        (".env", "src/.env", True),  # no slash: any depth, as in .gitignore
        ("./.env", "src/.env", False),  # ./ anchors at the project root
        ("./.env", ".env", True),
        ("src/**", "src/app.py", True),
        ("src/**", "src/deep/x.env", True),
        ("src/**", "docs/a.md", False),
        ("src/*.py", "src/app.py", True),
        ("src/*.py", "src/deep/x.py", False),
        ("src", "src/deep/x.env", True),  # a directory covers what is in it
        ("secrets/", "secrets/key.pem", True),
        ("docs/**/*.md", "docs/a.md", True),
        ("s?c/app.py", "src/app.py", True),
        ("[st]rc/app.py", "src/app.py", True),
        ("[!s]rc/app.py", "src/app.py", False),
        ("*", "docs/a.md", True),
    ],
)
def test_gitignore_style_patterns(tree: Path, pattern: str, relative: str, expected: bool) -> None:
    assert covers(pattern, tree / relative, tree) is expected


def test_absolute_and_home_patterns(tree: Path) -> None:
    home = tree.parent / "home"
    assert covers("~/.ssh/**", home / ".ssh/id_rsa", tree)
    assert covers(f"{home}/.ssh/id_rsa", home / ".ssh/id_rsa", tree)
    assert covers(f"/{home}/.ssh/*", home / ".ssh/id_rsa", tree)  # Claude Code's //abs
    assert not covers("~/.ssh/**", tree / ".env", tree)
    assert not covers("*.env", home / "x.env", tree)  # relative patterns stay in the project


def test_escaped_names_match_only_themselves(tree: Path) -> None:
    odd = tree / "src/a[1]*.py"
    odd.write_text("x")
    pattern = escape_pattern("src/a[1]*.py")
    assert covers(pattern, odd, tree)
    assert not covers(pattern, tree / "src/app.py", tree)


def rule(text: str, kind: str, root: Path) -> Rule:
    source = SettingsSource("project", root / ".tether/settings.json")
    return parse_rule(text, kind, source, root=root, home=root.parent / "home")  # type: ignore[arg-type]


def read_use(path: Path, tool: str = "read") -> FileUse:
    # Tools hand the policy resolved paths; resolving here is what `Workspace.resolve` does.
    return FileUse(tool, "read", path.resolve())


def test_symlinks_and_dotdot_cannot_dodge_a_deny(tree: Path, tmp_path: Path) -> None:
    rules = [rule("read(secrets/**)", "deny", tree), rule("read(.env)", "deny", tree)]
    (tree / "src/link").symlink_to(tree / "secrets")
    (tree / "innocent.txt").symlink_to(tree / ".env")
    (tmp_path / "outside").symlink_to(tree / "secrets/key.pem")
    dodges = [
        tree / "src/link/key.pem",
        tree / "src/../secrets/key.pem",
        tree / "src/deep/../../secrets/./key.pem",
        tree / "innocent.txt",
        tmp_path / "outside",
        tree / "docs/../.env",
    ]
    for path in dodges:
        assert isinstance(judge(rules, read_use(path)), Deny), path
    assert isinstance(judge(rules, read_use(tree / "src/app.py")), NoRule)


def test_a_rule_through_a_symlinked_directory_follows_it(tree: Path, tmp_path: Path) -> None:
    real = tmp_path / "real-data"
    real.mkdir()
    (real / "f.txt").write_text("x")
    (tree / "data").symlink_to(real)
    rules = [rule("read(data/**)", "deny", tree)]
    assert isinstance(judge(rules, read_use(real / "f.txt")), Deny)
    assert isinstance(judge(rules, read_use(tree / "data/f.txt")), Deny)


def test_edit_rules_cover_write_and_read_rules_cover_searches(tree: Path) -> None:
    edit_rule = [rule("Edit(src/**)", "allow", tree)]
    app = tree / "src/app.py"
    assert isinstance(judge(edit_rule, FileUse("edit", "edit", app)), Allow)
    assert isinstance(judge(edit_rule, FileUse("write", "edit", app)), Allow)
    assert isinstance(judge(edit_rule, FileUse("read", "read", app)), NoRule)
    write_rule = [rule("write(src/**)", "allow", tree)]
    assert isinstance(judge(write_rule, FileUse("write", "edit", app)), Allow)
    assert isinstance(judge(write_rule, FileUse("edit", "edit", app)), NoRule)
    read_rule = [rule("read(secrets)", "deny", tree)]
    for tool in ("read", "grep", "glob"):
        assert isinstance(judge(read_rule, read_use(tree / "secrets", tool)), Deny), tool
    grep_rule = [rule("Grep(secrets)", "deny", tree)]
    assert isinstance(judge(grep_rule, read_use(tree / "secrets", "grep")), Deny)
    assert isinstance(judge(grep_rule, read_use(tree / "secrets/key.pem", "read")), NoRule)


def test_deny_beats_ask_beats_allow_whatever_the_order(tree: Path) -> None:
    rules = [
        rule("read", "allow", tree),
        rule("read(src/**)", "ask", tree),
        rule("read(src/deep/**)", "deny", tree),
    ]
    assert isinstance(judge(rules, read_use(tree / "docs/a.md")), Allow)
    assert judge(rules, read_use(tree / "src/app.py")).verdict == "ask"
    assert isinstance(judge(rules, read_use(tree / "src/deep/x.env")), Deny)
