"""Instruction files: AGENTS.md and CLAUDE.md along the chain, the user's files, @imports."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.files import write
from tether.instructions import import_paths, load_instructions
from tether.instructions.imports import MAX_DEPTH


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's home directory (`~`), with a private key in it."""
    path = tmp_path / "home"
    (path / ".ssh").mkdir(parents=True)
    (path / ".ssh/id_rsa").write_text("-----BEGIN PRIVATE KEY-----\n")
    monkeypatch.setenv("HOME", str(path))
    return path


@pytest.fixture
def user_dir(isolated_environment: Path) -> Path:
    return isolated_environment


def load(cwd: Path, user_dir: Path, *, trusted: bool = False, roots: tuple[Path, ...] = ()):  # type: ignore[no-untyped-def]
    return load_instructions(cwd, roots or (cwd,), user_dir, trusted=trusted)


def test_the_chain_runs_from_the_repository_root_to_the_cwd(
    tmp_path: Path, user_dir: Path, home: Path
) -> None:
    repo = (tmp_path / "repo").resolve()
    (repo / ".git").mkdir(parents=True)
    write(repo / "CLAUDE.md", "root rules")
    write(repo / "pkg/AGENTS.md", "pkg agents rules")
    write(repo / "pkg/CLAUDE.md", "pkg claude rules (read too)")
    write(repo / "pkg/core/CLAUDE.md", "core rules")
    write(repo / "pkg/core/deeper/AGENTS.md", "below the cwd: a reminder, not the prompt")
    write(tmp_path / "CLAUDE.md", "above the repository: not read")
    found = load(repo / "pkg/core", user_dir)
    assert [(f.path, f.text, f.origin) for f in found.files] == [
        (repo / "CLAUDE.md", "root rules", "project"),
        (repo / "pkg/AGENTS.md", "pkg agents rules", "project"),
        (repo / "pkg/CLAUDE.md", "pkg claude rules (read too)", "project"),
        (repo / "pkg/core/CLAUDE.md", "core rules", "project"),
    ]
    assert found.problems == ()


def test_without_a_repository_only_the_cwd_counts(
    tmp_path: Path, user_dir: Path, home: Path
) -> None:
    write(tmp_path / "CLAUDE.md", "parent: not read")
    ws = (tmp_path / "ws").resolve()
    write(ws / "CLAUDE.md", "ws rules")
    assert [f.text for f in load(ws, user_dir).files] == ["ws rules"]


def test_the_users_files_come_first(tmp_path: Path, user_dir: Path, home: Path) -> None:
    write(user_dir / "CLAUDE.md", "tether home, claude name")
    write(user_dir / "claude/CLAUDE.md", "claude code's own")
    ws = (tmp_path / "ws").resolve()
    write(ws / "AGENTS.md", "project")
    found = load(ws, user_dir)
    assert [(f.text, f.origin) for f in found.files] == [
        ("tether home, claude name", "user"),
        ("claude code's own", "user"),
        ("project", "project"),
    ]
    write(user_dir / "AGENTS.md", "tether home, agents name")
    assert found != (found := load(ws, user_dir))
    assert found.files[0].text == "tether home, agents name"


def test_imports_are_relative_nested_once_and_problems_said_once(
    tmp_path: Path, user_dir: Path, home: Path
) -> None:
    ws = (tmp_path / "ws").resolve()
    write(
        ws / "CLAUDE.md",
        "See @docs/style.md and @docs/style.md again, mail me@example.com, "
        "`@not/an/import.md` in code, @missing.md, and @pytest.fixture as prose.\n"
        "```\n@docs/fenced.md\n```\n",
    )
    write(ws / "docs/style.md", "style: @../a/one.md")
    write(ws / "a/one.md", "one @two.md")
    write(ws / "a/two.md", "two @one.md")  # a cycle back to one.md
    write(ws / "docs/fenced.md", "never imported")
    found = load(ws, user_dir)
    assert [(f.path.relative_to(ws).as_posix(), f.origin) for f in found.files] == [
        ("CLAUDE.md", "project"),
        ("docs/style.md", "import"),
        ("a/one.md", "import"),
        ("a/two.md", "import"),
    ]
    assert found.files[2].imported_by == ws / "docs/style.md"
    assert found.problems == (  # in the order met, depth first
        f"{ws / 'a/two.md'}: @one.md imports a file that imports it (a cycle)",
        f"{ws / 'CLAUDE.md'}: @missing.md imports {ws / 'missing.md'}, which does not exist",
    )


def test_imports_stop_after_five_levels(tmp_path: Path, user_dir: Path, home: Path) -> None:
    ws = (tmp_path / "ws").resolve()
    write(ws / "CLAUDE.md", "@l1.md")
    for level in range(1, MAX_DEPTH + 3):
        write(ws / f"l{level}.md", f"level {level} @l{level + 1}.md")
    found = load(ws, user_dir)
    assert [f.text.split(" @")[0] for f in found.files[1:]] == [
        f"level {n}" for n in range(1, MAX_DEPTH + 1)
    ]
    assert found.problems == (
        f"{ws / f'l{MAX_DEPTH}.md'}: @l{MAX_DEPTH + 1}.md is nested deeper than 5 imports",
    )


def test_a_workspace_imports_from_outside_only_once_trusted(
    tmp_path: Path, user_dir: Path, home: Path
) -> None:
    ws = (tmp_path / "ws").resolve()
    write(ws / "CLAUDE.md", "Follow @~/.ssh/id_rsa and @../shared.md")
    write(tmp_path / "shared.md", "shared rules")
    found = load(ws, user_dir)
    assert [f.path for f in found.files] == [ws / "CLAUDE.md"]
    assert "PRIVATE KEY" not in "".join(f.text for f in found.files)
    assert found.problems == (
        f"{ws / 'CLAUDE.md'}: @~/.ssh/id_rsa is outside the workspace; it is imported once "
        "the workspace is trusted (`tether permissions trust`)",
        f"{ws / 'CLAUDE.md'}: @../shared.md is outside the workspace; it is imported once "
        "the workspace is trusted (`tether permissions trust`)",
    )
    trusted = load(ws, user_dir, trusted=True)
    assert [f.path for f in trusted.files] == [
        ws / "CLAUDE.md",
        home / ".ssh/id_rsa",
        tmp_path.resolve() / "shared.md",
    ]
    # The user's own files import from home as they like.
    write(user_dir / "AGENTS.md", "@~/notes.md")
    write(home / "notes.md", "my notes")
    assert "my notes" in [f.text for f in load(ws, user_dir).files]


def test_a_link_cannot_smuggle_a_file_in(tmp_path: Path, user_dir: Path, home: Path) -> None:
    ws = (tmp_path / "ws").resolve()
    ws.mkdir()
    (ws / "CLAUDE.md").symlink_to(home / ".ssh/id_rsa")
    (ws / "docs").mkdir()
    (ws / "docs/key.md").symlink_to(home / ".ssh/id_rsa")
    write(ws / "AGENTS.md.d", "")
    found = load(ws, user_dir)
    assert found.files == ()
    assert found.problems == (
        f"{ws / 'CLAUDE.md'}: it leads outside the workspace ({home / '.ssh/id_rsa'}); not read",
    )
    (ws / "CLAUDE.md").unlink()
    write(ws / "CLAUDE.md", "@docs/key.md")
    found = load(ws, user_dir)
    assert [f.path for f in found.files] == [ws / "CLAUDE.md"]
    assert "outside the workspace" in found.problems[0]


def test_hostile_files_are_refused_not_read(tmp_path: Path, user_dir: Path, home: Path) -> None:
    ws = (tmp_path / "ws").resolve()
    ws.mkdir()
    os.mkfifo(ws / "CLAUDE.md")
    found = load(ws, user_dir)
    assert found.files == ()
    assert found.problems == (
        f"instructions skipped: {ws / 'CLAUDE.md'}: not a regular file (a FIFO)",
    )
    os.unlink(ws / "CLAUDE.md")
    write(ws / "CLAUDE.md", "x" * 200_000 + "\n@big.md")
    write(ws / "big.md", "never reached")
    found = load(ws, user_dir)
    assert len(found.files[0].text) == 64 * 1024


def test_import_tokens() -> None:
    text = "@a.md, then (@b/c.md). Email a@b.org; `@code.md`; @~/x.md!\n~~~\n@fenced.md\n~~~\n@last"
    assert import_paths(text) == ["a.md", "b/c.md", "~/x.md", "last"]
