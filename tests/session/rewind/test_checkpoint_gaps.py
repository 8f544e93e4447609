"""A checkpoint records what it can and names what it could not: a tracked folder replaced by
a symbolic link, or a file git cannot read, never turns checkpoints off for the session or
for later ones in the workspace."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import ClassVar

from pydantic import BaseModel

from tests.nobody import AS_NOBODY, skip_unless_nobody_runs_the_checkout
from tests.sandbox.users import NOBODY, ROOT, outside
from tests.session.helpers import Recorder, Sessions, call, script, text
from tether.content import ContentBlock, TextContent
from tether.models.base import ModelEvent, ModelRequest
from tether.models.script import ScriptModel
from tether.sandbox.policy import SandboxPolicy
from tether.session import FilesRestored, SessionConfig
from tether.session.log.workspace_events import CheckpointEvent
from tether.tools import Tool, ToolContext, ToolRegistry, ToolResult
from tether.tools.card_context import CardContext
from tether.tools.defaults import default_tools
from tether.views import GenericCallView, GenericResultView, ToolCallView, ToolResultView

__all__ = ["outside"]  # the fixture: a folder `nobody` may enter


def _config(*turns: dict[str, object]) -> SessionConfig:
    return SessionConfig(
        model=script(*turns), tools=default_tools(SandboxPolicy("off")), mode="auto"
    )


async def test_a_folder_replaced_by_a_link_is_recorded_and_later_sessions_keep_checkpoints(
    tmp_path: Path, ws: Path, sessions: Sessions
) -> None:
    (ws / "d").mkdir()
    (ws / "d" / "a.txt").write_text("tracked\n")
    (ws / "b.txt").write_text("mine\n")
    other = tmp_path / "other"
    other.mkdir()
    (other / "a.txt").write_text("elsewhere\n")
    swap = f"rm -r d && ln -s {other} d && echo clobbered > b.txt"
    session = sessions.create(
        ws, _config({"toolCalls": [call("b", "bash", {"command": swap})]}, {"text": "done"})
    )
    assert await session.prompt(text("swap"), Recorder()) == "end_turn"
    saved = [e for e in session.events if isinstance(e, CheckpointEvent)]
    assert [(e.prompt, e.step) for e in saved] == [(1, 0), (1, 1)]
    assert set(saved[1].changed) == {"b.txt", "d", "d/a.txt"}
    # /undo puts back the file the step clobbered; the link is taken back to its folder
    # only if that can be done without writing through it.
    plan = await session.rewind.plan_undo()
    assert "b.txt" in plan.paths
    done = await session.rewind.restore(plan)
    assert isinstance(done, FilesRestored) and "b.txt" in done.restored
    assert (ws / "b.txt").read_text() == "mine\n"
    assert (other / "a.txt").read_text() == "elsewhere\n"  # nothing written through the link
    # A later session in the same workspace checkpoints as usual.
    (ws / "c.txt").write_text("before\n")
    later = sessions.create(
        ws,
        _config(
            {"toolCalls": [call("w", "bash", {"command": "echo after > c.txt"})]},
            {"text": "done"},
        ),
    )
    assert await later.prompt(text("change c"), Recorder()) == "end_turn"
    saved = [e for e in later.events if isinstance(e, CheckpointEvent)]
    assert [(e.prompt, e.step) for e in saved] == [(1, 0), (1, 1)]
    assert saved[1].changed == ("c.txt",)


_UNREADABLE = """
import json, os, sys
from pathlib import Path
from tether.checkpoints import open_store
home, ws = Path(sys.argv[1]), Path(sys.argv[2])
store = open_store(home, ws)
first = store.snapshot(None)
(ws / "secret.txt").write_text("changed\\n")
os.chmod(ws / "secret.txt", 0)
(ws / "b.txt").write_text("clobbered\\n")
second = store.snapshot(first.tree)
third = store.snapshot(second.tree)
print(json.dumps([second.changed, second.skipped, third.skipped]))
"""


def test_a_file_git_cannot_read_is_named_and_the_rest_recorded(outside: Path) -> None:
    ws, home = outside / "ws", outside / "home"
    ws.mkdir()
    (ws / "secret.txt").write_text("first\n")
    (ws / "b.txt").write_text("mine\n")
    prefix: list[str] = []
    if ROOT:  # root reads every file: the store runs as `nobody` instead
        skip_unless_nobody_runs_the_checkout()
        for path in (ws, *ws.iterdir()):
            os.chown(path, NOBODY, NOBODY)
        home.mkdir()
        os.chown(home, NOBODY, NOBODY)
        prefix = AS_NOBODY
    done = subprocess.run(
        [*prefix, sys.executable, "-c", _UNREADABLE, str(home), str(ws)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "HOME": str(outside)},
    )
    assert done.returncode == 0, done.stderr
    changed, skipped, later = json.loads(done.stdout)
    assert changed == ["b.txt"]
    assert skipped == ["secret.txt"] and later == ["secret.txt"]


class _PersonSaves:
    """The scripted model, while the person saves files in their editor as it answers: before
    answering request `at`, `save` runs (as the person's editor would, meanwhile)."""

    name = "script"

    def __init__(self, model: ScriptModel, at: int, save: Callable[[], None]) -> None:
        self._model, self._at, self._save, self._requests = model, at, save, 0

    async def aclose(self) -> None:
        """Nothing to close."""

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        self._requests += 1
        if self._requests == self._at:
            self._save()
        async for event in self._model.stream(request):
            yield event


async def test_a_file_the_person_saved_during_a_prompt_is_a_conflict_not_reverted(
    ws: Path, sessions: Sessions
) -> None:
    for name in ("a.txt", "b.txt", "notes.txt"):
        (ws / name).write_text(f"{name} v1\n")
    model = script(
        {"toolCalls": [call("r1", "read", {"path": "a.txt"})]},
        {
            "toolCalls": [
                call("e1", "edit", {"path": "a.txt", "old_string": "v1", "new_string": "v2"})
            ]
        },
        {"toolCalls": [call("b1", "bash", {"command": "echo 'b.txt by tether' > b.txt"})]},
        {"text": "done"},
    )

    def save() -> None:  # while the model answers its third request
        (ws / "notes.txt").write_text("the person's notes\n")
        (ws / "b.txt").write_text("the person's b\n")

    session = sessions.create(
        ws,
        SessionConfig(
            model=_PersonSaves(model, 3, save),
            tools=default_tools(SandboxPolicy("off")),
            mode="auto",
        ),
    )
    recorder = Recorder()
    assert await session.prompt(text("change a and b"), recorder) == "end_turn"
    saved = [e for e in session.events if isinstance(e, CheckpointEvent)]
    assert [(e.step, e.changed, e.outside) for e in saved] == [
        (0, (), None),
        (2, ("a.txt",), None),
        (3, ("b.txt", "notes.txt"), ("b.txt", "notes.txt")),
        (3, ("b.txt",), None),
    ]
    # The prompt's notice names only what its tools changed.
    notice = next(u for u in recorder.updates if u.kind == "checkpoint_saved")
    assert notice.files == ("a.txt", "b.txt")  # type: ignore[union-attr]
    plan = await session.rewind.plan_undo()
    assert [c.path for c in plan.changes] == ["a.txt"]
    [conflict] = plan.conflicts
    assert conflict.path == "b.txt"
    assert conflict.reason == "changed outside tether during prompt 1"
    done = await session.rewind.restore(plan)
    assert done.restored == ("a.txt",) and done.kept == ("b.txt",)
    assert (ws / "a.txt").read_text() == "a.txt v1\n"
    assert (ws / "notes.txt").read_text() == "the person's notes\n"  # never tether's
    assert (ws / "b.txt").read_text() == "b.txt by tether\n"  # kept: the person decides


class _WriteAlso(BaseModel):
    path: str


class _EditorSaveTool(Tool[_WriteAlso, str]):
    """Names one file it writes and writes it; meanwhile the person's editor saves another."""

    name: ClassVar[str] = "save_note"
    description: ClassVar[str] = "Write a note."
    args_model: ClassVar[type[BaseModel]] = _WriteAlso

    def __init__(self, ws: Path) -> None:
        self.ws = ws

    def writes(self, args: _WriteAlso) -> tuple[str, ...]:
        return (args.path,)

    async def execute(self, args: _WriteAlso, ctx: ToolContext) -> str:
        (self.ws / args.path).write_text("tether's note\n")
        (self.ws / "draft.txt").write_text("saved by the person meanwhile\n")
        return "written"

    def render(self, args: _WriteAlso, value: str) -> list[ContentBlock]:
        return [TextContent(text=value)]

    def present_call(self, args: _WriteAlso, context: CardContext) -> ToolCallView:
        return GenericCallView(title=f"save {args.path}", kind="edit")

    def present_result(
        self, args: _WriteAlso, result: ToolResult, context: CardContext
    ) -> ToolResultView | None:
        return GenericResultView(title=f"saved {args.path}", content=result.text())


async def test_a_file_no_tool_of_the_step_named_is_not_tethers(
    ws: Path, sessions: Sessions
) -> None:
    (ws / "draft.txt").write_text("draft v1\n")
    model = script({"toolCalls": [call("s", "save_note", {"path": "note.txt"})]}, {"text": "ok"})
    session = sessions.create(
        ws, SessionConfig(model=model, tools=ToolRegistry([_EditorSaveTool(ws)]), mode="auto")
    )
    assert await session.prompt(text("note"), Recorder()) == "end_turn"
    last = [e for e in session.events if isinstance(e, CheckpointEvent)][-1]
    assert (last.changed, last.outside) == (("draft.txt", "note.txt"), ("draft.txt",))
    plan = await session.rewind.plan_undo()
    assert [c.path for c in plan.changes] == ["note.txt"] and plan.conflicts == ()
    await session.rewind.restore(plan)
    assert not (ws / "note.txt").exists()
    assert (ws / "draft.txt").read_text() == "saved by the person meanwhile\n"


async def test_undo_restores_a_file_whose_name_is_as_long_as_names_go(
    ws: Path, sessions: Sessions
) -> None:
    long = "é" * 100 + "n" * 50  # 250 bytes: a temporary name beside it must be shorter
    assert len(long.encode()) == 250
    (ws / long).write_text("mine\n")
    model = script(
        {"toolCalls": [call("b", "bash", {"command": f"echo changed > {long} && rm -f other"})]},
        {"text": "done"},
    )
    session = sessions.create(
        ws, SessionConfig(model=model, tools=default_tools(SandboxPolicy("off")), mode="auto")
    )
    assert await session.prompt(text("change it"), Recorder()) == "end_turn"
    assert (ws / long).read_text() == "changed\n"
    done = await session.rewind.restore(await session.rewind.plan_undo())
    assert done.restored == (long,) and done.kept == ()
    assert (ws / long).read_text() == "mine\n"
    assert sorted(p.name for p in ws.iterdir()) == [long]  # no temporary file left beside it
