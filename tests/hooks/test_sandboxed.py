"""A hook in the session's sandbox: what it may write, what it leaves running, and what it
plants, disarmed as a sandboxed command's is."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from tests.hooks.scripts import group, user_hooks
from tests.processes import processes_with, unique_marker
from tests.sandbox.users import workspace_for
from tether.hooks import HookRun, Hooks, SessionFacts
from tether.hooks.process import PIPE_GRACE
from tether.sandbox.bwrap import find_bwrap
from tether.sandbox.policy import SandboxPolicy
from tether.settings import Settings
from tether.tools.workspace import Workspace

pytestmark = pytest.mark.skipif(not find_bwrap().works, reason="bubblewrap cannot start here")


def run(settings: Settings, ws: Path) -> HookRun:
    hooks = Hooks(
        lambda: settings,
        lambda: SessionFacts("s1", ws / "log.jsonl", ws, "auto"),
        sandbox=SandboxPolicy,
        workspace=Workspace.at(ws),
    )
    [ran] = asyncio.run(hooks.run("Stop", {"stop_hook_active": False}))
    return ran


def test_a_sandboxed_hook_writes_the_workspace_only(
    tmp_path: Path, outside: Path, user: str
) -> None:
    ws = workspace_for(outside, user)
    command = f"echo in > inside.txt; echo out > {outside}/outside.txt; echo done"
    ran = run(user_hooks(tmp_path / "home", ws, {"Stop": [group(command)]}), ws)
    assert (ws / "inside.txt").read_text() == "in\n"
    assert not (outside / "outside.txt").exists()
    assert "Read-only file system" in (ran.stderr or "") and ran.stdout == "done\n"


def test_what_a_sandboxed_hook_leaves_running_ends_with_it(tmp_path: Path, ws: Path) -> None:
    marker = unique_marker("sandboxed-hook-child")
    command = f"(exec -a {marker} sleep 60) & echo started"
    # What the same hook costs here and now without the process it leaves: the baseline
    # that a loaded machine stretches as much as the run measured.
    started = time.monotonic()
    plain = run(user_hooks(tmp_path / "home", ws, {"Stop": [group("echo started")]}), ws)
    baseline = time.monotonic() - started
    assert plain.exit_code == 0 and plain.stdout == "started\n"
    started = time.monotonic()
    ran = run(user_hooks(tmp_path / "home", ws, {"Stop": [group(command, timeout=30)]}), ws)
    assert ran.exit_code == 0 and ran.stdout == "started\n"
    # The sandbox ends with the hook's shell, and everything in it: no grace to wait out.
    # Half the grace over the baseline: midway between a run that waited none of it and one
    # that waited all of it, so either run slowed by load up to a second more cannot pass a
    # waited grace or fail a run that waited none.
    assert time.monotonic() - started < baseline + PIPE_GRACE / 2
    assert processes_with(marker) == []


def test_a_git_directory_a_sandboxed_hook_makes_is_disarmed(tmp_path: Path, ws: Path) -> None:
    command = "git init -q . && git config core.fsmonitor 'touch /tmp/x' && echo made"
    ran = run(user_hooks(tmp_path / "home", ws, {"Stop": [group(command)]}), ws)
    assert ran.exit_code == 0, ran
    assert ran.note is not None and "protected paths appeared while it ran" in ran.note
    assert "core.fsmonitor" in ran.note
    assert "fsmonitor" not in (ws / ".git/config").read_text()
