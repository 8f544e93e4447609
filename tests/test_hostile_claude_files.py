"""Claude Code's files made hostile: commands in sub-folders, agents, rules, `CLAUDE.local.md`
and `.claude/settings*.json` (JSONC), each a FIFO, `/dev/zero`, too large or too deep, and
links that flip while they are read: refused with a warning naming them, never hanging, and
never bringing in a file from outside the workspace.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.files import write
from tests.support import KINDS, make, within
from tether.agents import AgentCatalog, load_agents, read_agent_file
from tether.beneath import opener_below
from tether.bounded import read_bounded
from tether.commands import load_commands
from tether.commands.catalog import parse_command_file
from tether.errors import AgentFileError, UnreadableFile
from tether.instructions import load_instructions
from tether.session.context.system_prompt import system_prompt
from tether.settings import Settings, load_settings
from tether.tools.defaults import default_tools
from tether.tools.workspace import Workspace

# Claude Code's files: the same kinds at each path it reads, a link that flips, deep JSONC.

OUTSIDE_WORDS = "SECRET-FROM-OUTSIDE"


@contextmanager
def flipping(link: Path, targets: list[Path]) -> Iterator[None]:
    """`link` flips among `targets` as fast as another process can swap it, until the block
    ends: whoever looks twice at it may see two different things."""
    link.parent.mkdir(parents=True, exist_ok=True)
    flipper = subprocess.Popen(
        [sys.executable, "-c", _FLIPPER, str(link), *map(str, targets)],
        stdout=subprocess.PIPE,
    )
    try:
        assert flipper.stdout is not None
        flipper.stdout.readline()  # the link is there
        yield
    finally:
        flipper.kill()
        flipper.wait()
        if flipper.stdout is not None:
            flipper.stdout.close()


_FLIPPER = """
import os, sys
link, targets = sys.argv[1], sys.argv[2:]
spare = link + ".next"
os.symlink(targets[0], link)
print("ready", flush=True)
while True:
    for target in targets:
        os.symlink(target, spare)
        os.replace(spare, link)
"""

FLIP_LOADS = 60
"""Loads made while a link flips: enough to land between a check and a read many times."""


def _flip_targets(tmp_path: Path, inside: Path, text: str) -> list[Path]:
    """A file inside the workspace, one outside it, a FIFO and `/dev/zero`."""
    write(inside, text)
    outside = write(tmp_path / "outside" / inside.name, f"{OUTSIDE_WORDS}\n")
    fifo = tmp_path / "outside" / "fifo"
    os.mkfifo(fifo)
    return [inside, outside, fifo, Path("/dev/zero")]


@pytest.mark.parametrize("place", ["CLAUDE.local.md", ".claude/rules/style/python.md"])
@pytest.mark.parametrize("kind", KINDS)
def test_claude_instructions_of_every_kind_are_skipped_with_a_warning(
    ws: Path, tmp_path: Path, place: str, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    make(ws / place, kind)
    (tmp_path / "user").mkdir()
    with caplog.at_level(logging.WARNING):
        prompt = within(lambda: system_prompt(Workspace.at(ws), default_tools(), tmp_path / "user"))
    assert isinstance(prompt, str) and "project's instructions" not in prompt
    assert f"instructions skipped: {ws / place}: " in caplog.text


@pytest.mark.parametrize("kind", KINDS)
def test_a_claude_command_in_a_subfolder_of_every_kind_is_skipped_with_a_warning(
    ws: Path, tmp_path: Path, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    make(ws / ".claude" / "commands" / "frontend" / "bad.md", kind, size=512 * 1024)
    write(ws / ".claude" / "commands" / "frontend" / "good.md", "Do the good thing.")
    with caplog.at_level(logging.WARNING):
        commands = within(lambda: load_commands(ws, tmp_path / "home"))
    assert isinstance(commands, list)
    names = {c.name for c in commands}
    assert "frontend:good" in names and "frontend:bad" not in names
    assert f"{ws / '.claude' / 'commands' / 'frontend' / 'bad.md'}: " in caplog.text


GOOD_AGENT = "---\nname: good\ndescription: Does good.\n---\nDo good.\n"


@pytest.mark.parametrize("kind", KINDS)
def test_a_claude_agent_file_of_every_kind_is_reported(ws: Path, tmp_path: Path, kind: str) -> None:
    bad = ws / ".claude" / "agents" / "team" / "bad.md"
    make(bad, kind, size=512 * 1024)
    write(ws / ".claude" / "agents" / "good.md", GOOD_AGENT)
    catalog = within(lambda: load_agents(ws, tmp_path / "home"))
    assert isinstance(catalog, AgentCatalog)
    assert "good" in catalog.agents
    assert any(f"{bad}: " in problem.message for problem in catalog.problems), catalog.problems


@pytest.mark.parametrize("kind", [*KINDS, "deep", "deep-jsonc"])
@pytest.mark.parametrize("name", ["settings.json", "settings.local.json"])
def test_claude_settings_of_every_kind_are_skipped_naming_the_file(
    ws: Path, tmp_path: Path, name: str, kind: str
) -> None:
    path = ws / ".claude" / name
    if kind == "deep-jsonc":
        # Comments and trailing commas are Claude Code's JSONC; the nesting is an attack.
        write(path, "// deep\n" + '{"a": [' * 50_000 + "1," + "]}" * 50_000)
    else:
        make(path, kind)
    settings = within(lambda: load_settings(ws, tmp_path / "home", trusted=True))
    assert isinstance(settings, Settings)
    said = [str(p) for p in settings.problems]
    assert any(p.startswith(f"{path}: (file): ") for p in said), said
    assert any(p.endswith("the whole file is skipped") for p in said), said


INSTRUCTION_LOADS = 1500
"""Loads while a link flips: one in fifty landed between the check and the read before
each file inside was opened beneath the workspace (3000 loads brought the outside in 61
times)."""


@pytest.mark.parametrize("place", ["CLAUDE.local.md", ".claude/rules/python.md"])
def test_an_instruction_link_that_flips_never_brings_in_a_file_from_outside(
    ws: Path, tmp_path: Path, place: str
) -> None:
    targets = _flip_targets(tmp_path, ws / "notes" / "python.md", "Use four spaces.\n")
    (tmp_path / "user").mkdir()
    with flipping(ws / place, targets):
        for _ in range(INSTRUCTION_LOADS):
            found = load_instructions(ws, [ws], None, trusted=False)
            said = " ".join(f.text for f in found.files)
            assert OUTSIDE_WORDS not in said
        # The whole prompt too, bounded in time: a FIFO or /dev/zero may be there.
        for _ in range(FLIP_LOADS):
            prompt = within(
                lambda: system_prompt(Workspace.at(ws), default_tools(), tmp_path / "user")
            )
            assert isinstance(prompt, str) and OUTSIDE_WORDS not in prompt


@contextmanager
def folder_flipping(folder: Path, inside: Path, outside: Path) -> Iterator[None]:
    """`folder` is in turn the real folder `inside` (moved into place) and a link to
    `outside`, as fast as another process can swap them."""
    flipper = subprocess.Popen(
        [sys.executable, "-c", _FOLDER_FLIPPER, str(folder), str(inside), str(outside)],
        stdout=subprocess.PIPE,
    )
    try:
        assert flipper.stdout is not None
        flipper.stdout.readline()
        yield
    finally:
        flipper.kill()
        flipper.wait()
        if flipper.stdout is not None:
            flipper.stdout.close()


_FOLDER_FLIPPER = """
import os, sys
folder, inside, outside = sys.argv[1:]
print("ready", flush=True)
while True:
    os.rename(inside, folder)
    os.rename(folder, inside)
    os.symlink(outside, folder)
    os.unlink(folder)
"""


def test_a_rules_sub_folder_that_flips_to_a_link_never_brings_in_a_file_from_outside(
    ws: Path, tmp_path: Path
) -> None:
    inside = write(ws / "shared-rules" / "python.md", "Use four spaces.\n").parent
    outside = write(tmp_path / "outside-rules" / "python.md", f"{OUTSIDE_WORDS}\n").parent
    (ws / ".claude" / "rules").mkdir(parents=True)
    with folder_flipping(ws / ".claude" / "rules" / "team", inside, outside):
        for _ in range(INSTRUCTION_LOADS):
            found = load_instructions(ws, [ws], None, trusted=False)
            assert OUTSIDE_WORDS not in " ".join(f.text for f in found.files)


PROJECT_LOADS = 400
"""Loads while a sub-folder flips between a folder and a link (before each file was opened
beneath the workspace, about one in 1,500 read the file from outside)."""


@pytest.mark.parametrize("folder", [".claude/commands", ".claude/agents"])
def test_a_project_sub_folder_that_flips_to_a_link_is_never_read_through(
    ws: Path, tmp_path: Path, folder: str
) -> None:
    write(ws / folder / "team.real" / "x.md", GOOD_AGENT)
    write(tmp_path / "outside" / "x.md", GOOD_AGENT.replace("Do good.", OUTSIDE_WORDS))
    with folder_flipping(ws / folder / "team", ws / folder / "team.real", tmp_path / "outside"):
        for _ in range(PROJECT_LOADS):
            assert OUTSIDE_WORDS not in _project_prompts(ws, tmp_path, folder)


def _project_prompts(ws: Path, tmp_path: Path, folder: str) -> str:
    if folder == ".claude/commands":
        commands = within(lambda: load_commands(ws, tmp_path / "home"))
        assert isinstance(commands, list)
        return " ".join(c.template or "" for c in commands)
    catalog = within(lambda: load_agents(ws, tmp_path / "home"))
    assert isinstance(catalog, AgentCatalog)
    return " ".join(a.prompt for a in catalog.agents.values())


@pytest.mark.parametrize("folder", [".claude/commands", ".claude/agents"])
def test_a_project_file_link_that_flips_is_never_read(
    ws: Path, tmp_path: Path, folder: str
) -> None:
    agent = GOOD_AGENT.replace("Do good.", OUTSIDE_WORDS)
    outside = write(tmp_path / "outside" / "x.md", agent)
    inside = write(ws / "elsewhere" / "x.md", GOOD_AGENT)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with flipping(ws / folder / "x.md", [inside, outside, fifo, Path("/dev/zero")]):
        for _ in range(FLIP_LOADS):
            assert OUTSIDE_WORDS not in _project_prompts(ws, tmp_path, folder)


def test_a_file_below_a_folder_swapped_for_a_link_is_refused(ws: Path, tmp_path: Path) -> None:
    # What a flipping folder does between the listing and the read, made to stay.
    write(tmp_path / "outside" / "x.md", f"{OUTSIDE_WORDS}\n")
    (ws / ".claude" / "commands").mkdir(parents=True)
    (ws / ".claude" / "commands" / "team").symlink_to(tmp_path / "outside")
    path = ws / ".claude" / "commands" / "team" / "x.md"
    with pytest.raises(UnreadableFile, match="a symbolic link"):
        read_bounded(path, opener=opener_below([ws]))
    command = parse_command_file(
        path, follow_symlinks=False, root=ws / ".claude" / "commands", beneath=[ws]
    )
    assert command is None
    with pytest.raises(AgentFileError, match="a symbolic link"):
        read_agent_file(path, "project", beneath=[ws])


@pytest.mark.parametrize("name", ["settings.json", "settings.local.json"])
def test_a_claude_settings_link_that_flips_never_hangs(ws: Path, tmp_path: Path, name: str) -> None:
    good = json.dumps({"permissions": {"allow": ["Bash(ls)"]}})
    targets = _flip_targets(tmp_path, ws / "shared" / name, good)
    with flipping(ws / ".claude" / name, targets):
        for _ in range(FLIP_LOADS):
            settings = within(lambda: load_settings(ws, tmp_path / "home", trusted=True))
            assert isinstance(settings, Settings)
