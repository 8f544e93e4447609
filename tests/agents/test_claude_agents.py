"""Agent files in Claude Code's format read with Claude Code's meaning: sub-folders, the user's
`~/.claude/agents/`, `disallowedTools`, `skills`, `color`, multi-line descriptions, and a
warning for every key and tool name tether does not use."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.files import write
from tether.agents import load_agents, parse_agent_file
from tether.agents.preload import agent_prompt
from tether.agents.toolset import child_tools
from tether.skills import load_skills
from tether.tools.defaults import default_tools

# Shaped as Anthropic's plugin agents are: a plain description that runs over several lines
# with `Examples:` and `<example>` blocks at the left margin. Not valid YAML; Claude Code
# reads it, and so must tether.
EXAMPLES_AGENT = """\
---
name: release-checker
description: Use this agent when asked to "check the release", or before tagging. Examples:

<example>
Context: The user finished the changelog
user: "Can we tag 2.0 now?"
assistant: "I'll use the release-checker agent to check first."
<commentary>
Tagging is near, so check the release.
</commentary>
</example>

model: sonnet
color: magenta
tools: ["Read", "Grep", "Bash"]
---

You check that a release is ready.
"""

VALIDATOR = """\
---
name: validator
description: |
  Validates the configuration without changing it.
  Use after every edit of config/.
disallowedTools: Write, Edit, MultiEdit, NotebookEdit
skills:
  - house-style
permissionMode: plan
maxTurns: 5
---
You validate. You never change files.
"""


def test_a_multi_line_example_description_is_read_as_claude_code_reads_it(tmp_path: Path) -> None:
    path = write(tmp_path / "release-checker.md", EXAMPLES_AGENT)
    agent = parse_agent_file(path, EXAMPLES_AGENT, "project")
    assert agent.description.splitlines()[0] == (
        'Use this agent when asked to "check the release", or before tagging. Examples:'
    )
    # The examples stay in the description, on their own lines, `user:` lines included.
    assert "<example>\nContext: The user finished the changelog\nuser:" in agent.description
    assert agent.description.endswith("</commentary>\n</example>")
    assert (agent.model, agent.color) == ("sonnet", "magenta")
    assert agent.tools == ("read", "grep", "bash")
    assert agent.prompt == "You check that a release is ready."
    assert agent.warnings == ()


def test_a_long_description_has_no_limit(tmp_path: Path) -> None:
    long = "Reviews. " * 400  # 3,600 characters: Claude Code sets no limit for agents
    text = f"---\ndescription: {long}\n---\nReview.\n"
    agent = parse_agent_file(tmp_path / "long.md", text, "user")
    assert agent.description == long.strip()


def test_disallowed_tools_skills_and_unsupported_keys(ws: Path, tmp_path: Path) -> None:
    path = write(ws / ".claude" / "agents" / "validator.md", VALIDATOR)
    agent = parse_agent_file(path, VALIDATOR, "project")
    assert agent.description == (
        "Validates the configuration without changing it.\nUse after every edit of config/."
    )
    assert agent.tools is None
    assert agent.disallowed == ("write", "edit", "multi_edit", "notebook_edit")
    assert agent.skills == ("house-style",)
    assert agent.warnings == (
        f"{path}:9: `permissionMode` is not supported: an agent runs in its parent's mode, "
        "under its rules",
        f"{path}:10: `maxTurns` is not supported: an agent's steps are capped as its parent's are",
    )
    # A "read-only" validator gets every tool of its parent but the ones it refuses.
    names = [tool.name for tool in child_tools(agent, default_tools(), may_delegate=False)]
    assert "write" not in names and "edit" not in names
    assert {"read", "grep", "glob", "bash"} <= set(names)


def test_skills_are_preloaded_into_the_agents_prompt(
    ws: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write(
        ws / ".claude" / "skills" / "house-style" / "SKILL.md",
        "---\ndescription: How we write\n---\nUse short sentences.\n",
    )
    path = write(ws / ".claude" / "agents" / "validator.md", VALIDATOR)
    agent = parse_agent_file(path, VALIDATOR, "project")
    skills = load_skills(ws, tmp_path / "home")
    prompt = agent_prompt(agent, skills, ws)
    skill_path = ws / ".claude" / "skills" / "house-style" / "SKILL.md"
    assert prompt == (
        "You validate. You never change files.\n\n"
        f"# The skill house-style ({skill_path})\n\nUse short sentences."
    )
    # A skill that is not there is said, not dropped in silence.
    assert agent_prompt(agent, load_skills(tmp_path / "empty", None), ws) == agent.prompt
    assert f"{path}: `skills` names 'house-style', which is not a skill" in caplog.text


def test_agents_in_sub_folders_are_listed(ws: Path, tmp_path: Path) -> None:
    folder = ws / ".claude" / "agents"
    write(folder / "review" / "security.md", "---\nname: sec\ndescription: S\n---\nSecure.\n")
    write(folder / "review" / "deep" / "style.md", "---\ndescription: Style\n---\nStyle.\n")
    write(folder / "top.md", "---\ndescription: Top\n---\nTop.\n")
    write(folder / "notes.txt", "not an agent")
    catalog = load_agents(ws, tmp_path / "home")
    assert catalog.names() == ["general", "explore", "plan", "sec", "style", "top"]
    sec = catalog.get("sec")
    assert sec is not None and sec.source == folder / "review" / "security.md"
    assert catalog.problems == ()


def test_the_users_claude_agents_folder_under_home(
    ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "person"
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setenv("HOME", str(home))
    write(home / ".claude" / "agents" / "team" / "mine.md", "---\ndescription: Mine\n---\nM.\n")
    write(home / ".claude" / "agents" / "shared.md", "---\ndescription: user's\n---\nU.\n")
    write(ws / ".claude" / "agents" / "shared.md", "---\ndescription: project's\n---\nP.\n")
    catalog = load_agents(ws, tmp_path / "tether-home")
    mine, shared = catalog.get("mine"), catalog.get("shared")
    assert mine is not None and mine.scope == "user"
    assert mine.source == home / ".claude" / "agents" / "team" / "mine.md"
    # The project's agent wins over the user's of the same name, as in Claude Code.
    assert shared is not None and shared.description == "project's"

    # $CLAUDE_CONFIG_DIR moves Claude Code's folder, and tether follows it.
    elsewhere = tmp_path / "config"
    write(elsewhere / "agents" / "moved.md", "---\ndescription: Moved\n---\nM.\n")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(elsewhere))
    assert "moved" in load_agents(ws, None).names()
    assert "mine" not in load_agents(ws, None).names()


def test_warnings_are_collected_by_the_catalog(
    ws: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = write(
        ws / ".claude" / "agents" / "odd.md",
        "---\ndescription: Odd\ntools: Read, Task(explore), TodoRead\nhooks: {}\n---\nOdd.\n",
    )
    catalog = load_agents(ws, tmp_path / "home")
    odd = catalog.get("odd")
    assert odd is not None and odd.tools == ("read", "task")
    assert catalog.warnings == (
        f"{path}:3: `tools` gives 'Task(explore)': an agent's tools are not limited by a "
        "pattern; read as 'task'",
        f"{path}:3: `tools` names 'TodoRead', which no tether tool answers to; left out",
        f"{path}:4: `hooks` is not supported: hooks come from the settings files",
    )
    for warning in catalog.warnings:
        assert warning in caplog.text
