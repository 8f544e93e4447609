"""Skills found in their four places, the first of a name winning, bad and hostile files left
out with their path (and line), and `allowed-tools` read as Claude Code writes it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.skills.support import skill
from tether.skills import MAX_SKILL_BYTES, load_skills, read_skill_text, skills_text


@pytest.fixture
def places(tmp_path: Path, ws: Path) -> tuple[Path, Path, Path]:
    """The workspace, `$TETHER_HOME` and Claude Code's user directory (in a fake home)."""
    home = tmp_path / "tether-home"
    claude = tmp_path / "home" / ".claude"
    home.mkdir()
    claude.mkdir(parents=True)
    return ws, home, claude


def test_skills_from_the_four_places_the_project_first(places: tuple[Path, Path, Path]) -> None:
    ws, home, claude = places
    skill(ws / ".tether/skills", "deploy", "Deploys the project's way")
    skill(ws / ".claude/skills", "review", "Reviews a change the project's way")
    skill(ws / ".claude/skills", "deploy", "Claude's deploy, hidden by tether's")
    skill(home / "skills", "notes", "Writes release notes")
    skill(home / "skills", "review", "My own review, hidden by the project's")
    skill(
        claude / "skills", "pdf", "Fills in PDF forms", **{"allowed-tools": "Read, Bash(pdftk:*)"}
    )
    (ws / ".claude/skills/scripts").mkdir()  # a folder without a SKILL.md is no skill
    catalog = load_skills(ws, home, claude)
    assert catalog.names() == ["deploy", "notes", "pdf", "review"]
    found = {name: catalog.get(name) for name in catalog.names()}
    assert {n: (s.scope, s.path) for n, s in found.items() if s} == {
        "deploy": ("project", ws / ".tether/skills/deploy/SKILL.md"),
        "notes": ("user", home / "skills/notes/SKILL.md"),
        "pdf": ("user", claude / "skills/pdf/SKILL.md"),
        "review": ("project", ws / ".claude/skills/review/SKILL.md"),
    }
    pdf = found["pdf"]
    assert pdf is not None and pdf.allowed_tools == ("Read", "Bash(pdftk:*)")
    assert catalog.problems == ()
    text = skills_text(catalog, ws)
    assert (
        "  review  (.claude/skills/review/SKILL.md)\n    Reviews a change the project's way" in text
    )
    assert "allowed-tools: Read, Bash(pdftk:*)" in text


def test_claude_code_s_directory_comes_from_home(
    places: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    ws, home, claude = places
    skill(claude / "skills", "pdf", "Fills in PDF forms")
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setenv("HOME", str(claude.parent))
    assert load_skills(ws, home).names() == ["pdf"]


def test_bad_and_hostile_skills_are_left_out_with_their_path(
    places: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    ws, home, claude = places
    folder = ws / ".tether/skills"
    skill(folder, "good", "Works")
    bad = folder / "bad/SKILL.md"
    bad.parent.mkdir()
    # An alias is refused: `*a` may stand for far more text than the file holds.
    bad.write_text("---\nname: bad\ndescription: &a a\nlicense: *a\n---\nbody\n")
    nodesc = skill(folder, "nodesc", "x")
    nodesc.write_text("---\nname: nodesc\n---\nbody\n")
    plain = folder / "plain/SKILL.md"
    plain.parent.mkdir()
    plain.write_text("No front matter at all.\n")
    huge = skill(folder, "huge", "Too big")
    huge.write_text(huge.read_text() + "x" * MAX_SKILL_BYTES)
    size = huge.stat().st_size
    fifo = folder / "fifo/SKILL.md"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    outside = tmp_path / "outside"
    skill(outside, "secret", "Reads what is not the workspace's")
    (folder / "secret").symlink_to(outside / "secret")  # a folder that leads out
    linked = folder / "linked/SKILL.md"
    linked.parent.mkdir()
    linked.symlink_to(outside / "secret/SKILL.md")  # a file that leads out
    catalog = load_skills(ws, home, claude)
    assert catalog.names() == ["good"]
    said = sorted(str(p) for p in catalog.problems)
    assert said == [
        f"{folder}/bad/SKILL.md:4: aliases (*name) are not read here",
        f"{folder}/fifo/SKILL.md: not a regular file (a FIFO)",
        f"{folder}/huge/SKILL.md: {size} bytes, more than the {MAX_SKILL_BYTES} allowed",
        f"{folder}/linked/SKILL.md: a symbolic link, which is not followed here",
        f"{folder}/nodesc/SKILL.md: no description (the front matter needs `description:`)",
        f"{folder}/plain/SKILL.md: no front matter (the file must start with a `---` line)",
        f"{folder}/secret/SKILL.md: its folder leads outside the workspace ({outside / 'secret'})",
    ]
    assert "Left out:\n" in skills_text(catalog, ws)


def test_allowed_tools_as_claude_code_writes_them(tmp_path: Path) -> None:
    for written, expected in (
        ("Read, Grep, Glob", ("Read", "Grep", "Glob")),
        ("Bash(git log:*) Read", ("Bash(git log:*)", "Read")),
        ("[Read, 'Bash(npm run test:*)']", ("Read", "Bash(npm run test:*)")),
    ):
        path = skill(tmp_path, "s", "d", **{"allowed-tools": written})
        assert read_skill_text(path, "user").skill.allowed_tools == expected
    listed = tmp_path / "l/SKILL.md"
    listed.parent.mkdir()
    listed.write_text("---\ndescription: d\nallowed-tools:\n  - Read\n  - Write\n---\nBody\n")
    loaded = read_skill_text(listed, "user")
    assert loaded.skill.name == "l"  # the folder's name when the front matter has none
    assert loaded.skill.allowed_tools == ("Read", "Write")
    assert loaded.body == "Body"
