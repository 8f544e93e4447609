"""The sandbox's limits: /tmp's size, processes at once, memory a process; and how a hit shows.

Each limit is set low and a bounded command runs past it (at most a few hundred processes, a
few MiB), as root and as an ordinary user: the kernel refuses what root is exempt from
counting, tether counts it itself.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.sandbox.users import python_for, workspace_for
from tether.sandbox.bwrap import find_bwrap
from tether.sandbox.limits import LimitHit, limit_note, limits_hit
from tether.sandbox.policy import SandboxPolicy
from tether.tools import ToolContext, ToolResult, Workspace, invoke
from tether.tools.bash import BashArgs, BashTool
from tether.tools.card_context import CardContext
from tether.views import TerminalResultView

pytestmark = pytest.mark.skipif(not find_bwrap().works, reason="bubblewrap cannot start here")

TIGHT = SandboxPolicy(tmp_size_mib=1, max_processes=40, memory_mib=256)


async def _run(ws: Path, command: str, policy: SandboxPolicy = TIGHT) -> ToolResult:
    args = BashArgs(command=command)
    return await invoke(BashTool(sandbox=policy), args, ToolContext(Workspace.at(ws)))


def _card(result: ToolResult, command: str) -> TerminalResultView:
    view = BashTool().present_result(BashArgs(command=command), result, CardContext())
    assert isinstance(view, TerminalResultView)
    return view


async def test_a_full_tmp_says_so_on_the_card(outside: Path, user: str) -> None:
    ws = workspace_for(outside, user)
    command = "head -c 3000000 /dev/zero > /tmp/big; ls -s /tmp/big"
    result = await _run(ws, command)
    assert "No space left on device" in result.text()
    note = "No space left: if it was /tmp, the sandbox's holds 1 MiB (sandbox.tmpSizeMiB)"
    assert f"{note}." in result.text()
    assert _card(result, command).notes == (note,)
    assert result.meta["limitsHit"] == [{"limit": "tmp", "value": 1}]  # type: ignore[index]
    # The default gives room for a build's temporary files.
    roomy = await _run(ws, command, SandboxPolicy())
    assert "No space left" not in roomy.text()
    assert "limitsHit" not in roomy.meta  # type: ignore[operator]


async def test_too_many_processes_are_refused_or_stopped(outside: Path, user: str) -> None:
    ws = workspace_for(outside, user)
    # At most 300 processes whatever happens; each would sleep for a minute. Python's fork
    # fails at once where bash's would retry for seconds.
    spawn = (
        "import os, time\n"
        "for i in range(300):\n"
        "    if os.fork() == 0:\n"
        "        time.sleep(60); os._exit(0)\n"
        "for i in range(300):\n"
        "    os.wait()\n"
        "print('finished')\n"
    )
    (ws / "spawn.py").write_text(spawn)
    command = f"{python_for(user)} spawn.py"
    result = await _run(ws, command)
    text = result.text()
    assert "finished" not in text, text
    view = _card(result, command)
    assert view.notes is not None
    [hit] = result.meta["limitsHit"]  # type: ignore[index]
    if user == "root":
        # The kernel does not count root's processes: tether does, and ends the sandbox.
        assert hit == {"limit": "processes", "value": 40, "stopped": True}
        assert view.notes[0].startswith("Stopped: more than 40 processes at once")
        assert view.signal == "SIGKILL"
    else:
        assert hit == {"limit": "processes", "value": 40}
        assert view.notes[0] == "Hit the sandbox's limit of 40 processes (sandbox.maxProcesses)"
    # Lower than the limit is fine.
    fine = await _run(ws, "for i in $(seq 10); do sleep 0.1 & done; wait; echo finished")
    assert fine.text().startswith("finished\n"), fine.text()
    assert "BlockingIOError" in text or user == "root", text


async def test_memory_a_process_may_take(outside: Path, user: str) -> None:
    ws = workspace_for(outside, user)
    python = python_for(user)
    command = f"{python} -c 'b = bytearray(512 * 1024 * 1024); print(len(b))'"
    result = await _run(ws, command)
    assert "MemoryError" in result.text()
    note = "Hit the sandbox's limit of 256 MiB of memory a process (sandbox.memoryMiB)"
    assert _card(result, command).notes == (note,)
    # Off by default.
    free = await _run(ws, command, replace(TIGHT, memory_mib=None))
    assert free.text().startswith(f"{512 * 1024 * 1024}\n"), free.text()


def test_hits_are_found_in_what_programs_say() -> None:
    policy = SandboxPolicy(memory_mib=100)
    said = {
        "bash: fork: retry: Resource temporarily unavailable": "processes",
        "Error: spawn EAGAIN": "processes",
        "RuntimeError: can't start new thread": "processes",
        "java.lang.OutOfMemoryError: unable to create native thread": "processes",
        "Traceback...\nMemoryError": "memory",
        "terminate called after throwing an instance of 'std::bad_alloc'": "memory",
        "cp: error writing '/tmp/x': No space left on device": "tmp",
    }
    for text, limit in said.items():
        assert [hit.limit for hit in limits_hit(text, policy, None)] == [limit], text
    assert limits_hit("all good", policy, None) == ()
    assert limits_hit("MemoryError", SandboxPolicy(), None) == ()  # no memory limit set
    assert limits_hit("MemoryError", None, None) == ()  # unsandboxed: no limits of ours
    stopped = limits_hit("", policy, "processes")
    assert stopped == (LimitHit("processes", 1024, stopped=True),)
    for bad in (None, [], {"limit": "cpu", "value": 1}, {"limit": "tmp", "value": True}):
        assert limit_note(bad) is None


def test_the_settings_set_the_limits(ws: Path, isolated_environment: Path) -> None:
    import json

    from tether.settings import load_settings
    from tether.settings.effective import sandbox_policy as sandbox_from

    limits = {"tmpSizeMiB": 64, "maxProcesses": 99, "memoryMiB": 512}
    (isolated_environment / "settings.json").write_text(json.dumps({"sandbox": limits}))
    policy = sandbox_from(load_settings(ws, isolated_environment))
    assert (policy.tmp_size_mib, policy.max_processes, policy.memory_mib) == (64, 99, 512)
    default = sandbox_from(load_settings(ws, isolated_environment.parent / "nowhere"))
    assert (default.tmp_size_mib, default.max_processes, default.memory_mib) == (1024, 1024, None)
