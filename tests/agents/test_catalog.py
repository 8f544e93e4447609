"""Agents come from tether, the user's folder and the project's two; bad files are skipped."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from tests.files import write
from tether.agents import EXPLORE, GENERAL, AgentDefinition, load_agents, parse_agent_file
from tether.errors import AgentFileError

CLAUDE_REVIEWER = """\
---
name: code-reviewer
description: Expert code review specialist. Reviews code for quality and security.
tools: Read, Grep, Glob, Bash, WebFetch
model: inherit
color: blue
---
You are a senior code reviewer.
"""


def test_built_in_agents_come_first(ws: Path, tmp_path: Path) -> None:
    catalog = load_agents(ws, tmp_path / "home")
    assert catalog.names() == ["general", "explore", "plan"]
    assert catalog.get("general") == GENERAL
    assert GENERAL.tools is None  # every tool its parent has
    assert EXPLORE.tools == ("read", "grep", "glob", "web_fetch", "bash")
    assert EXPLORE.read_only
    assert catalog.problems == ()


def test_agents_from_all_three_folders_and_a_malformed_one(
    ws: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    home = tmp_path / "home"
    write(
        home / "agents" / "writer.md",
        "---\ndescription: Writes docs\ntools: read, write\n---\nYou write documentation.\n",
    )
    write(
        home / "agents" / "shared.md",
        "---\ndescription: the user's version\n---\nUser prompt.\n",
    )
    write(ws / ".claude" / "agents" / "reviewer.md", CLAUDE_REVIEWER)
    write(
        ws / ".tether" / "agents" / "shared.md",
        "---\ndescription: the project's version\n---\nProject prompt.\n",
    )
    bad = write(
        ws / ".tether" / "agents" / "broken.md",
        "---\nthis line is not yaml\ndescription: fine\n---\nBody.\n",
    )
    with caplog.at_level(logging.WARNING):
        catalog = load_agents(ws, home)
    assert catalog.names() == ["general", "explore", "plan", "code-reviewer", "shared", "writer"]

    writer = catalog.get("writer")
    assert writer is not None
    assert (writer.scope, writer.tools, writer.prompt) == (
        "user",
        ("read", "write"),
        "You write documentation.",
    )
    reviewer = catalog.get("code-reviewer")
    assert reviewer == AgentDefinition(
        name="code-reviewer",
        description="Expert code review specialist. Reviews code for quality and security.",
        prompt="You are a senior code reviewer.",
        tools=("read", "grep", "glob", "bash", "web_fetch"),  # Claude Code's names, as tether's
        model=None,  # inherit
        color="blue",
        scope="project",
        source=ws / ".claude" / "agents" / "reviewer.md",
    )
    # The project's file wins over the user's of the same name.
    shared = catalog.get("shared")
    assert shared is not None and shared.description == "the project's version"

    # The malformed file is reported with its path and line, and skipped.
    [problem] = catalog.problems
    assert problem.path == bad
    assert problem.message == (f"{bad}:2: expected `key: value`, found 'this line is not yaml'")
    assert catalog.unavailable("broken") == problem.message
    assert problem.message in caplog.text
    # The model is told about every usable agent.
    listed = [s.name for s in catalog.summaries()]
    assert listed == ["general", "explore", "plan", "code-reviewer", "shared", "writer"]


def test_a_project_file_replaces_a_built_in_agent_only_once_trusted(
    ws: Path, tmp_path: Path
) -> None:
    mine = write(
        ws / ".claude" / "agents" / "explore.md",
        "---\ndescription: Our own explorer\ntools: Read, Write\n---\nExplore our way.\n",
    )
    # Untrusted: a cloned repository cannot turn the read-only explorer into one that writes.
    catalog = load_agents(ws, tmp_path / "home")
    assert catalog.get("explore") == EXPLORE
    [problem] = catalog.problems
    assert problem.message == (
        f"{mine}: explore is a built-in agent; the workspace's file replaces it once the "
        "workspace is trusted (`tether permissions trust`)"
    )
    explore = load_agents(ws, tmp_path / "home", trusted=True).get("explore")
    assert explore is not None
    assert (explore.description, explore.tools, explore.read_only) == (
        "Our own explorer",
        ("read", "write"),
        False,
    )
    # The user's own file is theirs to trust.
    mine.unlink()
    write(tmp_path / "home" / "agents" / "general.md", "---\ndescription: Mine\n---\nMine.\n")
    general = load_agents(ws, tmp_path / "home").get("general")
    assert general is not None and general.description == "Mine"


def test_hostile_agent_files_are_skipped_not_followed(ws: Path, tmp_path: Path) -> None:
    secret = write(
        tmp_path / "outside" / "secret.md", "---\ndescription: stolen\n---\nsecret words\n"
    )
    folder = ws / ".tether" / "agents"
    folder.mkdir(parents=True)
    (folder / "linked.md").symlink_to(secret)
    os.mkfifo(folder / "fifo.md")
    write(folder / "huge.md", "---\ndescription: big\n---\n" + "x" * (300 * 1024))
    # A folder that is itself a link out of the workspace is not read at all.
    write(tmp_path / "elsewhere" / "agents" / "away.md", "---\ndescription: away\n---\nAway.\n")
    (ws / ".claude").mkdir()
    (ws / ".claude" / "agents").symlink_to(tmp_path / "elsewhere" / "agents")

    catalog = load_agents(ws, tmp_path / "home")  # returns: the FIFO did not block it
    assert catalog.names() == ["general", "explore", "plan"]
    messages = sorted(p.message for p in catalog.problems)
    assert any("leads outside the workspace" in m for m in messages)
    assert any("fifo.md: not a regular file (a FIFO)" in m for m in messages)
    assert any("huge.md" in m and "more than the 262144 allowed" in m for m in messages)
    assert any("linked.md: a symbolic link" in m for m in messages)


def test_the_users_folder_may_hold_links(ws: Path, tmp_path: Path) -> None:
    real = write(tmp_path / "dotfiles" / "mine.md", "---\ndescription: mine\n---\nMine.\n")
    home = tmp_path / "home"
    (home / "agents").mkdir(parents=True)
    (home / "agents" / "mine.md").symlink_to(real)
    assert "mine" in load_agents(ws, home).names()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("You have no front matter.\n", "no front matter (the file must start with a `---` line)"),
        ("---\ndescription: x\nBody\n", "the front matter is not closed by a `---` line"),
        ("---\nname: reviewer\n---\nBody\n", "no description (the front matter needs"),
        ("---\ndescription: x\ndescription: y\n---\nB\n", ":3: `description` is given twice"),
        ("---\ndescription: x\n---\n\n", "no system prompt (the file's body is empty)"),
        ("---\nname: bad name!\ndescription: x\n---\nB\n", ":2: 'bad name!' is not an agent name"),
        ("---\ndescription: &d x\nname: *d\n---\nB\n", ":3: aliases (*name) are not read here"),
        ("---\ndescription: x\ntools: Read, rm -rf\n---\nB\n", ":3: 'rm -rf' is not a tool name"),
        ("---\ndescription:\n  - a\n---\nB\n", ":2: `description` must be text, not a list"),
        ("---\ndescription: x\ntools: {Read: 1}\n---\nB\n", ":3: `tools` must be text, not a"),
    ],
)
def test_malformed_front_matter_says_where_and_what(text: str, message: str) -> None:
    path = Path("/w/.tether/agents/reviewer.md")
    with pytest.raises(AgentFileError) as raised:
        parse_agent_file(path, text, "project")
    assert str(raised.value).startswith(str(path))
    assert message in str(raised.value)


def test_the_yaml_forms_agent_files_use() -> None:
    text = """\
---
# a comment
name: "quoted-name"
description: >
  Folded over
  two lines
tools:
  - Read
  - 'Grep'
  - Read
model: script:child.json
---
Prompt.
"""
    agent = parse_agent_file(Path("/w/agents/x.md"), text, "user")
    assert agent.name == "quoted-name"
    assert agent.description == "Folded over two lines"
    assert agent.tools == ("read", "grep")
    assert agent.model == "script:/w/agents/child.json"  # beside the agent file
    flow = parse_agent_file(
        Path("/w/a.md"), "---\ndescription: d\ntools: [Bash, task]\n---\nP\n", "user"
    )
    assert flow.tools == ("bash", "task")
    assert flow.delegates
