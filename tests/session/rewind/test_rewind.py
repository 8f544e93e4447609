"""Checkpoints and rewind through a real session: the scripted model changes the workspace
with every kind of tool (edit, write, bash, an MCP server), and undo, redo and rewind put it
back — in a git repository (whose own index and stash must not change) and in a plain
directory."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.gitrepo import git
from tests.session.helpers import Recorder, Sessions, call, script, text
from tether.errors import RewindError
from tether.mcp import StdioServer
from tether.mcp.servers import McpServers
from tether.sandbox.policy import SandboxPolicy
from tether.session import FilesRestored, SessionConfig
from tether.session.log.workspace_events import CheckpointEvent, RestoreEvent
from tether.tools.defaults import default_tools

SAMPLE = Path(__file__).parents[2] / "mcp" / "sample_server.py"

BASH = (
    "echo appended >> old.txt && rm gone.txt && printf 'made\\n' > made.txt"
    " && chmod +x tool.sh && printf '\\000\\001\\002' > data.bin"
)


def _tree(root: Path) -> dict[str, tuple[str, bytes]]:
    """Every file under `root` but `.git`: its kind and executable bit, and its bytes."""
    found = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if relative == ".git" or relative.startswith(".git/") or path.is_dir():
            continue
        mode = "x" if os.stat(path).st_mode & stat.S_IXUSR else "-"
        found[relative] = (mode, path.read_bytes())
    return found


def _user_git_state(root: Path) -> dict[str, Any]:
    """What of the person's repository must not change: its index and its stash."""
    dot_git = root / ".git"
    return {
        "index": (dot_git / "index").read_bytes(),
        "stash": (dot_git / "refs" / "stash").read_bytes(),
        "stash log": (dot_git / "logs" / "refs" / "stash").read_bytes(),
        "stash list": git("stash", "list", cwd=root),
    }


def _populate(ws: Path, repo: bool) -> None:
    (ws / "a.py").write_text("def f():\n    return 1\n")
    (ws / "old.txt").write_text("old\n")
    (ws / "gone.txt").write_text("to be deleted\n")
    (ws / "tool.sh").write_text("#!/bin/sh\necho tool\n")
    (ws / "data.bin").write_bytes(bytes(range(256)))
    if repo:
        (ws / ".gitignore").write_text("*.log\n")
        (ws / "debug.log").write_text("ignored\n")
        git("init", "-q", cwd=ws)
        git("add", "-A", cwd=ws)
        git("commit", "-qm", "start", cwd=ws)
        (ws / "old.txt").write_text("stashed change\n")
        git("stash", "-q", cwd=ws)
        (ws / "staged.txt").write_text("staged\n")
        git("add", "staged.txt", cwd=ws)


@pytest.fixture
async def servers(ws: Path) -> AsyncIterator[McpServers]:
    spec = StdioServer(name="sample", command=sys.executable, args=(str(SAMPLE), "stdio"))
    started = await McpServers.start([spec], ws)
    try:
        yield started
    finally:
        await started.close()


def _model() -> Any:
    return script(
        {"toolCalls": [call("r1", "read", {"path": "a.py"})]},
        {
            "toolCalls": [
                call("e1", "edit", {"path": "a.py", "old_string": "1", "new_string": "2"}),
                call("w1", "write", {"path": "new/sub/created.txt", "content": "fresh\n"}),
                call("b1", "bash", {"command": BASH}),
                call("m1", "mcp__sample__write_note", {"text": "from mcp"}),
            ]
        },
        {"text": "done"},
        {"text": "second prompt, nothing changed"},
    )


@pytest.mark.parametrize("repo", [False, True], ids=["plain", "git"])
async def test_undo_redo_and_a_conflict_never_clobbered(
    ws: Path, sessions: Sessions, servers: McpServers, repo: bool
) -> None:
    _populate(ws, repo)
    before = _tree(ws)
    user_git = _user_git_state(ws) if repo else None
    tools = default_tools(SandboxPolicy("off"))
    for tool in servers.tools():
        tools.add(tool)
    session = sessions.create(ws, SessionConfig(model=_model(), tools=tools, mode="auto"))
    recorder = Recorder()
    assert await session.prompt(text("change everything"), recorder) == "end_turn"
    after = _tree(ws)
    changed = {"a.py", "new/sub/created.txt", "old.txt", "gone.txt", "made.txt", "tool.sh",
               "data.bin", "notes.txt"}  # fmt: skip
    assert {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)} == changed

    # The prompt's notice names what its tools changed; the log holds the checkpoints.
    notice = next(u for u in recorder.updates if u.kind == "checkpoint_saved")
    assert set(notice.files) == changed  # type: ignore[union-attr]
    checkpoints = [e for e in session.events if isinstance(e, CheckpointEvent)]
    assert [(c.prompt, c.step) for c in checkpoints] == [(1, 0), (1, 2)]
    assert set(checkpoints[1].changed) == changed

    # A second prompt that changes nothing adds no checkpoint; /undo skips it.
    await session.prompt(text("look only"), Recorder())
    assert len([e for e in session.events if isinstance(e, CheckpointEvent)]) == 2

    plan = await session.rewind.plan_undo()
    assert (plan.action, plan.prompt, plan.conflicts) == ("undo", 1, ())
    assert set(plan.paths) == changed
    done = await session.rewind.restore(plan)
    assert isinstance(done, FilesRestored) and set(done.restored) == changed
    assert _tree(ws) == before
    assert not (ws / "new").exists()  # the directory the write created went with it

    plan = await session.rewind.plan_redo()
    await session.rewind.restore(plan)
    assert _tree(ws) == after

    # The person edits a file tether changed: undo lists it as a conflict with a diff,
    # restores the rest, and keeps their version.
    (ws / "a.py").write_text("def f():\n    return 'mine'\n")
    plan = await session.rewind.plan_undo()
    [conflict] = plan.conflicts
    assert conflict.path == "a.py" and "changed after tether" in conflict.reason
    assert "-    return 'mine'" in conflict.diff and "+    return 1" in conflict.diff
    done = await session.rewind.restore(plan)
    assert done.kept == ("a.py",)
    assert (ws / "a.py").read_text() == "def f():\n    return 'mine'\n"
    assert _tree(ws) == {**before, "a.py": ("-", (ws / "a.py").read_bytes())}

    # Redo puts back only what nobody changed since the undo: a new file in its way stops it.
    (ws / "made.txt").write_text("person's file\n")
    with pytest.raises(RewindError, match=r"cannot redo: made\.txt changed since the undo"):
        await session.rewind.plan_redo()

    # Replay shows the notices, and the model is told the files were restored.
    kinds = [u.kind for u in session.replay()]
    assert kinds.count("files_restored") == 3 and kinds.count("checkpoint_saved") == 1
    restores = [(e.action, e.kept) for e in session.events if isinstance(e, RestoreEvent)]
    assert restores == [("undo", ()), ("redo", ()), ("undo", ("a.py",))]
    request = session._context.request()  # what the model would see next
    assert "The person restored" in repr(request.messages[-1])

    with pytest.raises(RewindError, match="there is no prompt 7: the session has prompts 1-2"):
        await session.rewind.plan_rewind(7)
    if user_git is not None:
        assert _user_git_state(ws) == user_git


async def test_without_git_edit_and_write_are_undone_and_that_is_said(
    ws: Path, sessions: Sessions, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TETHER_GIT", "off")
    (ws / "a.py").write_text("x = 1\n")
    model = script(
        {"toolCalls": [call("r1", "read", {"path": "a.py"})]},
        {
            "toolCalls": [
                call("e1", "edit", {"path": "a.py", "old_string": "1", "new_string": "2"}),
                call("w1", "write", {"path": "sub/new.txt", "content": "new\n"}),
                call("b1", "bash", {"command": "echo from bash > bash.txt"}),
            ]
        },
        {"text": "done"},
    )
    tools = default_tools(SandboxPolicy("off"))
    session = sessions.create(ws, SessionConfig(model=model, tools=tools, mode="auto"))
    recorder = Recorder()
    await session.prompt(text("go"), recorder)
    [notice] = [u for u in recorder.updates if u.kind == "checkpoint_saved"]
    assert notice.text.startswith(  # type: ignore[union-attr]
        "git was not found: checkpoints cover only the files edit and write change\n"
        "checkpoint: prompt 1 changed 2 files: a.py, sub/new.txt"
    )
    await session.rewind.restore(await session.rewind.plan_undo())
    assert (ws / "a.py").read_text() == "x = 1\n"
    assert not (ws / "sub").exists()
    assert (ws / "bash.txt").read_text() == "from bash\n"  # not seen without git
    # Said once per session, on replay as live.
    replayed = [u for u in session.replay() if u.kind == "checkpoint_saved"]
    assert replayed == [notice]
