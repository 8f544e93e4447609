"""The calls a model trained on Claude Code makes, each sent through a scripted model: every
one is accepted, logged under tether's name, and has the effect of tether's own spelling."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.session.helpers import Recorder, Sessions, call, log_lines, text
from tether.models.script import ScriptModel
from tether.tools.claude_names import CLAUDE_TOOL_NAMES
from tether.tools.defaults import default_tools

FILES = {
    "a.py": "def one():\n    return 1\n\n\ndef two():\n    return 2\n",
    "b.py": "class B:\n    def three(self):\n        return 3\n",
    "notes.md": "# Notes\ndef is not code here\n",
    "build/out.txt": "built\n",
    ".gitignore": "build/\n",
    "nb.ipynb": json.dumps(
        {
            "cells": [
                {
                    "cell_type": "code",
                    "execution_count": None,
                    "id": "c1",
                    "metadata": {},
                    "outputs": [],
                    "source": "x = 1",
                }
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    ),
}
"""The workspace every shape runs in."""


@dataclass(frozen=True)
class Shape:
    """One call as Claude Code spells it, and as tether does; `before` runs first (a read)."""

    claude: tuple[str, dict[str, Any]]
    tether: tuple[str, dict[str, Any]]
    before: tuple[tuple[str, dict[str, Any]], ...] = ()
    tasks: dict[str, Any] = field(default_factory=dict)


READ_A = (("read", {"path": "a.py"}),)
JOB = (("bash", {"command": "echo started; exec sleep 30", "run_in_background": True}),)
CHILD = {"turns": [{"toolCalls": [call("g", "grep", {"pattern": "def two"})]}, {"text": "a.py:5"}]}

SHAPES: dict[str, Shape] = {
    "Read": Shape(("Read", {"file_path": "{ws}/a.py", "offset": 2, "limit": 3}),
                  ("read", {"path": "{ws}/a.py", "offset": 2, "limit": 3})),
    "Write": Shape(("Write", {"file_path": "{ws}/new.py", "content": "x = 1\n"}),
                   ("write", {"path": "{ws}/new.py", "content": "x = 1\n"})),
    "Edit": Shape(("Edit", {"file_path": "{ws}/a.py", "old_string": "return 1",
                            "new_string": "return 10", "replace_all": False}),
                  ("edit", {"path": "{ws}/a.py", "old_string": "return 1",
                            "new_string": "return 10"}),
                  before=READ_A),
    "MultiEdit": Shape(("MultiEdit", {"file_path": "{ws}/a.py", "edits": [
                           {"old_string": "return 1", "new_string": "return 10"},
                           {"old_string": "return", "new_string": "yield", "replace_all": True}]}),
                       ("multi_edit", {"path": "{ws}/a.py", "edits": [
                           {"old_string": "return 1", "new_string": "return 10"},
                           {"old_string": "return", "new_string": "yield",
                            "replace_all": True}]}),
                       before=READ_A),
    "Bash": Shape(("Bash", {"command": "echo hi; ls", "timeout": 20000,
                            "description": "Say hi", "run_in_background": False}),
                  ("bash", {"command": "echo hi; ls", "timeout_ms": 20000,
                            "description": "Say hi"})),
    "Grep content": Shape(("Grep", {"pattern": "def", "path": "{ws}", "glob": "*.py",
                                    "output_mode": "content", "-n": True, "-i": True, "-C": 1,
                                    "type": "py", "head_limit": 2, "offset": 1}),
                          ("grep", {"pattern": "def", "path": "{ws}", "include": "*.py",
                                    "output_mode": "content", "ignore_case": True, "context": 1,
                                    "type": "py", "head_limit": 2, "offset": 1})),
    "Grep multiline": Shape(("Grep", {"pattern": "one.*two", "multiline": True,
                                      "output_mode": "files_with_matches"}),
                            ("grep", {"pattern": "one.*two", "multiline": True,
                                      "output_mode": "files_with_matches"})),
    "Grep count": Shape(("Grep", {"pattern": "def", "output_mode": "count", "-A": 1,
                                  "-B": 0, "head_limit": 1}),
                        ("grep", {"pattern": "def", "output_mode": "count",
                                  "after_context": 1, "before_context": 0, "head_limit": 1})),
    "Glob": Shape(("Glob", {"pattern": "**/*.py", "path": "{ws}"}),
                  ("glob", {"pattern": "**/*.py", "path": "{ws}"})),
    "LS": Shape(("LS", {"path": "{ws}", "ignore": ["*.md"]}),
                ("ls", {"path": "{ws}", "ignore": ["*.md"]})),
    "TodoWrite": Shape(("TodoWrite", {"todos": [
                           {"content": "Run the tests", "status": "in_progress",
                            "activeForm": "Running the tests"},
                           {"content": "Fix them", "status": "pending", "activeForm": "Fixing"}]}),
                       ("todo", {"todos": [
                           {"content": "Run the tests", "status": "in_progress",
                            "activeForm": "Running the tests"},
                           {"content": "Fix them", "status": "pending",
                            "activeForm": "Fixing"}]})),
    "TodoWrite old": Shape(("TodoWrite", {"todos": [
                               {"content": "Run", "status": "completed", "id": "1",
                                "priority": "high"},
                               {"content": "Fix", "status": "pending", "id": 2,
                                "priority": "low"}]}),
                           ("todo", {"todos": [
                               {"content": "Run", "status": "completed", "id": "1",
                                "priority": "high"},
                               {"content": "Fix", "status": "pending", "id": "2",
                                "priority": "low"}]})),
    "Task Explore": Shape(("Task", {"description": "Find two", "prompt": "Where is two?",
                                    "subagent_type": "Explore"}),
                          ("task", {"description": "Find two", "prompt": "Where is two?",
                                    "agent": "explore"}),
                          tasks={"c": CHILD}),
    "Task general-purpose": Shape(("Task", {"description": "Find two", "prompt": "Where?",
                                            "subagent_type": "general-purpose"}),
                                  ("task", {"description": "Find two", "prompt": "Where?",
                                            "agent": "general"}),
                                  tasks={"c": CHILD}),
    "Task Plan": Shape(("Task", {"description": "Plan it", "prompt": "How to add three?",
                                 "subagent_type": "Plan"}),
                       ("task", {"description": "Plan it", "prompt": "How to add three?",
                                 "agent": "plan"}),
                       tasks={"c": CHILD}),
    "BashOutput": Shape(("BashOutput", {"bash_id": "shell-1", "filter": "."}),
                        ("bash_output", {"id": "shell-1", "filter": "."}),
                        before=JOB),
    "KillShell": Shape(("KillShell", {"shell_id": "shell-1"}),
                       ("kill_shell", {"id": "shell-1"}),
                       before=JOB),
    "KillBash": Shape(("KillBash", {"shell_id": "shell-1"}),
                      ("kill_shell", {"id": "shell-1"}),
                      before=JOB),
    "NotebookEdit": Shape(("NotebookEdit", {"notebook_path": "{ws}/nb.ipynb", "cell_id": "c1",
                                            "new_source": "x = 2", "edit_mode": "replace"}),
                          ("notebook_edit", {"path": "{ws}/nb.ipynb", "cell_id": "c1",
                                             "new_source": "x = 2", "edit_mode": "replace"}),
                          before=(("read", {"path": "nb.ipynb"}),)),
    "NotebookRead": Shape(("NotebookRead", {"file_path": "{ws}/notes.md"}),
                          ("read", {"path": "{ws}/notes.md"})),
}  # fmt: skip


@dataclass(frozen=True)
class Effect:
    """What one call did: the call as logged, its result, and the workspace after it."""

    name: str
    arguments: dict[str, Any]
    content: list[dict[str, Any]]
    is_error: bool
    files: dict[str, str]


def _fill(value: Any, ws: Path) -> Any:
    if isinstance(value, str):
        return value.replace("{ws}", str(ws))
    if isinstance(value, list):
        return [_fill(v, ws) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, ws) for k, v in value.items()}
    return value


def _unfill(value: Any, ws: Path) -> Any:
    return json.loads(json.dumps(value).replace(str(ws), "{ws}"))


async def _effect(
    root: Path, sessions: Sessions, shape: Shape, spelled: tuple[str, dict[str, Any]]
) -> Effect:
    ws = root.resolve()
    for name, body in FILES.items():
        (ws / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / name).write_text(body)
    name, arguments = spelled
    before = [call(f"b{i}", n, _fill(a, ws)) for i, (n, a) in enumerate(shape.before)]
    turns = [{"toolCalls": before}] if before else []
    turns += [{"toolCalls": [call("c", name, _fill(arguments, ws))]}, {"text": "done"}]
    model = ScriptModel.from_json(json.dumps({"turns": turns, "tasks": shape.tasks}))
    session = sessions.new(ws, model, default_tools())
    assert await session.prompt(text("go"), Recorder()) == "end_turn"
    logged, result = (
        e for e in log_lines(session, sessions.store.root) if e.get("toolCallId") == "c"
    )
    files = {
        str(p.relative_to(ws)): p.read_text()
        for p in sorted(ws.rglob("*"))
        if p.is_file() and ".tether" not in p.parts
    }
    return Effect(
        name=logged["name"],
        arguments=_unfill(json.loads(logged["arguments"]), ws),
        content=_unfill(result["content"], ws),
        is_error=result["isError"],
        files=files,
    )


@pytest.mark.parametrize("label", list(SHAPES))
async def test_claude_codes_call_has_the_effect_of_tethers_own(
    label: str, tmp_path: Path, sessions: Sessions
) -> None:
    shape = SHAPES[label]
    (tmp_path / "claude").mkdir()
    (tmp_path / "tether").mkdir()
    claude = await _effect(tmp_path / "claude", sessions, shape, shape.claude)
    ours = await _effect(tmp_path / "tether", sessions, shape, shape.tether)
    assert not claude.is_error, claude.content
    assert claude.name == ours.name == CLAUDE_TOOL_NAMES[shape.claude[0]]
    tool = default_tools().get(ours.name)
    assert tool is not None
    # Both validate to the same arguments (the log keeps tether's names for them).
    assert tool.args_model.model_validate(claude.arguments) == tool.args_model.model_validate(
        ours.arguments
    )
    assert claude.content == ours.content
    assert claude.files == ours.files
