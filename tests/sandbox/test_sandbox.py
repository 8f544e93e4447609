"""Sandboxed bash with the real bubblewrap: what a command can and cannot reach."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from pathlib import Path

import pytest

from tests.policy.support import Always
from tests.polling import eventually
from tests.processes import processes_with
from tether.policy import MODES, PolicyGate, PolicyMode
from tether.sandbox.bwrap import BWRAP_ENV, find_bwrap
from tether.sandbox.policy import SandboxPolicy, bwrap_arguments
from tether.tools import ToolContext, ToolResult, UnsandboxedAccess, Workspace, invoke
from tether.tools.bash import BashArgs, BashTool
from tether.views import ToolResultView

pytestmark = pytest.mark.skipif(not find_bwrap().works, reason="bubblewrap cannot start here")

SANDBOXED = BashTool()
NETWORKED = BashTool(sandbox=SandboxPolicy("workspace-write", allow_network=True))
READ_ONLY = BashTool(sandbox=SandboxPolicy("read-only"))


def _ctx(ws: Path, **kwargs: object) -> ToolContext:
    return ToolContext(workspace=Workspace.at(ws), **kwargs)  # type: ignore[arg-type]


async def _run(ws: Path, command: str, tool: BashTool = SANDBOXED, **kwargs: object) -> ToolResult:
    return await invoke(tool, BashArgs(command=command, **kwargs), _ctx(ws))


def _meta(result: ToolResult) -> dict[str, object]:
    assert isinstance(result.meta, dict)
    return result.meta


def _nothing_left(marker: str, within: float = 3.0) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not processes_with(marker):
            return
        time.sleep(0.02)
    left = processes_with(marker)
    for pid in left:
        os.kill(pid, 9)
    raise AssertionError(f"processes outlived the call: {left}")


def test_the_bwrap_arguments_are_the_ones_the_modes_promise(tmp_path: Path) -> None:
    ws = Workspace.at(tmp_path, tmp_path / "extra")
    args = bwrap_arguments(SandboxPolicy(), ws.roots)
    assert args == [
        "--ro-bind", "/", "/",
        "--size", str(1024 * 1024 * 1024), "--tmpfs", "/tmp",
        "--bind-try", str(ws.cwd), str(ws.cwd),
        "--bind-try", str(ws.extra_roots[0]), str(ws.extra_roots[0]),
        "--dev", "/dev",
        "--proc", "/proc",
        "--unshare-user", "--disable-userns",
        "--unshare-net",
        "--unshare-pid", "--unshare-ipc", "--die-with-parent", "--new-session",
        "--cap-drop", "ALL",
        "--setenv", "TMPDIR", "/tmp",
        "--chdir", str(ws.cwd),
    ]  # fmt: skip
    read_only = bwrap_arguments(
        SandboxPolicy("read-only", allow_network=True),
        ws.roots,
        userns=False,
        protected=[ws.cwd / ".git"],
    )
    assert "--bind-try" not in read_only
    assert read_only.count("--ro-bind-try") == 2  # the roots; protected entries are moot
    assert "--unshare-net" not in read_only
    assert "--unshare-user" not in read_only
    assert read_only[-7:-5] == ["--cap-drop", "ALL"]


async def test_writes_outside_the_workspace_fail_and_inside_succeed(tmp_path: Path) -> None:
    home = Path.home()
    marker = f"tether-sandbox-{os.getpid()}-{time.monotonic_ns()}"
    result = await _run(
        tmp_path,
        f"echo x > {home}/{marker}; echo x > /etc/{marker}; echo kept > inside.txt;"
        " echo tmp > $TMPDIR/t && cat $TMPDIR/t",
    )
    text = result.text()
    assert f"{home}/{marker}: Read-only file system" in text
    assert f"/etc/{marker}: Read-only file system" in text
    assert "tmp\n" in text
    assert not (home / marker).exists()
    assert not Path("/etc", marker).exists()
    assert (tmp_path / "inside.txt").read_text() == "kept\n"
    # The private /tmp is gone with the call.
    assert not Path("/tmp/t").exists() or Path("/tmp/t").read_text() != "tmp\n"


async def test_a_blocked_command_is_told_how_to_ask(tmp_path: Path) -> None:
    result = await _run(tmp_path, "touch /etc/tether-blocked")
    assert "The sandbox may have blocked this (sandbox: workspace-write, no network:" in (
        result.text()
    )
    assert "call bash again with `unsandboxed: true`" in result.text()
    ok = await _run(tmp_path, "touch fine")
    assert "sandbox may have blocked" not in ok.text()


async def test_git_init_and_commit_work_inside_the_workspace(tmp_path: Path) -> None:
    result = await _run(
        tmp_path,
        "git init -q && echo hi > a.txt && git add a.txt"
        " && git -c user.name=t -c user.email=t@example.com commit -qm first && git log --oneline",
    )
    assert " first\nAppeared while the command ran: " in result.text()
    assert result.text().endswith("Exit code: 0"), result.text()
    assert (tmp_path / ".git" / "HEAD").exists()
    # A .git the command created is named: its hooks and config were not protected yet.
    assert _meta(result)["createdProtected"] == [str(tmp_path / ".git")]
    # Once it exists, hooks and config are read-only, and commits still work.
    again = await _run(
        tmp_path,
        "echo more >> a.txt && git -c user.name=t -c user.email=t@example.com commit -qam second"
        " && git log --oneline | wc -l; echo evil > .git/hooks/post-commit;"
        " git config core.fsmonitor evil",
    )
    text = again.text()
    assert text.startswith("2\n"), text
    assert ".git/hooks/post-commit: Read-only file system" in text
    assert not (tmp_path / ".git" / "hooks" / "post-commit").exists()
    assert "fsmonitor" not in (tmp_path / ".git" / "config").read_text()
    assert "createdProtected" not in _meta(again)
    # A repository of the command's own added as a submodule: the person's git status
    # would run its config's fsmonitor. Its .git is named; after that it is protected.
    who = "-c user.name=t -c user.email=t@example.com"
    planted = await _run(
        tmp_path,
        f"mkdir lib && cd lib && git init -q && git config core.fsmonitor evil"
        f" && git {who} commit -q --allow-empty -m x && cd .. && git add lib 2>/dev/null"
        f" && git {who} commit -qm sub && printf '[submodule \"lib\"]\\n\\tpath = lib\\n'"
        " > .gitmodules",
    )
    assert _meta(planted)["createdProtected"] == [str(tmp_path / "lib" / ".git")], planted.text()
    # What its config would have run outside is gone; the submodule is a repository still.
    config = tmp_path / "lib" / ".git" / "config"
    assert _meta(planted)["disabledOnCreate"] == [{"path": str(config), "key": "core.fsmonitor"}]
    assert "fsmonitor" not in config.read_text() and "[core]" in config.read_text()
    assert "Appeared while the command ran: " in planted.text()
    after = await _run(tmp_path, "echo x > more.txt && git add more.txt; echo y >> lib/.git/config")
    assert "lib/.git/config: Read-only file system" in after.text(), after.text()
    assert "createdProtected" not in _meta(after)


async def test_the_network_is_off_unless_allowed(tmp_path: Path) -> None:
    connected = asyncio.Event()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connected.set()
        writer.write(b"hello from outside\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    command = f"exec 3<>/dev/tcp/127.0.0.1/{port} && head -n1 <&3"
    try:
        blocked = await _run(tmp_path, command)
        assert not connected.is_set()
        assert "Connection refused" in blocked.text()
        assert "the network is off" in blocked.text()
        allowed = await _run(tmp_path, command, tool=NETWORKED)
        assert allowed.text() == "hello from outside\nExit code: 0"
        assert connected.is_set()
    finally:
        server.close()
        await server.wait_closed()


async def test_read_only_refuses_workspace_writes(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("old\n")
    result = await _run(tmp_path, "cat a.txt; echo new > a.txt", tool=READ_ONLY)
    assert result.text().startswith("old\n")
    assert "a.txt: Read-only file system" in result.text()
    assert (tmp_path / "a.txt").read_text() == "old\n"


@pytest.mark.parametrize("stop", ["cancel", "timeout"])
async def test_setsid_and_nohup_children_are_gone_after_a_stop(tmp_path: Path, stop: str) -> None:
    marker = f"{os.getpid()}{stop == 'cancel':d}{time.monotonic_ns() % 10**6}"
    command = f"setsid sleep 1{marker} & nohup sleep 2{marker} & echo up; sleep 3{marker}"
    ctx = _ctx(tmp_path)
    # The timeout leaves the sandboxed shell time to start all three first, on a loaded
    # machine too (at 500 ms such a shell has been killed before it ran: tests/web's results
    # test, at load 19).
    timeout_ms = 60_000 if stop == "cancel" else 2000
    task = asyncio.ensure_future(
        invoke(SANDBOXED, BashArgs(command=command, timeout_ms=timeout_ms), ctx)
    )
    await eventually(
        lambda: processes_with(f"sleep 1{marker}") and processes_with(f"sleep 3{marker}"),
        "the command started",
    )
    if stop == "cancel":
        ctx.cancelled.set()
    result = await asyncio.wait_for(task, 10)
    assert result.text().endswith("Terminated by signal SIGTERM")
    # Gone when the call returns, not some time later.
    assert processes_with(marker) == []


async def test_background_jobs_leave_nothing_behind(tmp_path: Path) -> None:
    marker = f"{os.getpid()}{time.monotonic_ns() % 10**6}"
    # The jobs would run for days (the marker lengthens each `sleep`): the call ending at
    # all means they were stopped.
    run = _run(tmp_path, f"sleep 1{marker} & setsid sleep 2{marker} & echo started")
    result = await asyncio.wait_for(run, 30)
    assert processes_with(marker) == []
    text = result.text()
    assert "Background processes were still running when the command ended" in text
    assert f"sleep 1{marker}" in text
    assert f"sleep 2{marker}" in text
    _nothing_left(marker)


async def test_a_job_that_ignores_sigterm_is_gone_when_the_call_returns(tmp_path: Path) -> None:
    marker = f"{os.getpid()}{time.monotonic_ns() % 10**6}"
    command = (
        f"(trap '' TERM; : > ignoring; sleep 1{marker}) &"
        " until [ -e ignoring ]; do :; done; echo started"
    )
    result = await asyncio.wait_for(_run(tmp_path, command), 30)
    # Inside the sandbox the stopper sends SIGKILL after the grace period; the call returns
    # once the sandbox's namespace, and so the job, is gone.
    assert processes_with(marker) == []
    assert f"sleep 1{marker}" in result.text()
    assert "after SIGKILL" not in result.text()
    timed_out = await asyncio.wait_for(
        _run(tmp_path, f"trap '' TERM; sleep 2{marker} & sleep 3{marker}", timeout_ms=300), 30
    )
    assert processes_with(marker) == []
    assert "Command timed out after 300 ms." in timed_out.text()
    assert "after SIGKILL" not in timed_out.text()


async def test_cancel_keeps_the_output_and_says_sigterm(tmp_path: Path) -> None:
    reports: list[ToolResultView] = []
    ctx = _ctx(tmp_path, report=reports.append)
    task = asyncio.ensure_future(
        invoke(SANDBOXED, BashArgs(command="echo one; echo two; sleep 30"), ctx)
    )
    await eventually(
        lambda: any("two" in (getattr(v, "output", None) or "") for v in reports),
        "the command's output was reported",
    )
    ctx.cancelled.set()
    result = await asyncio.wait_for(task, 10)
    assert result.text() == "one\ntwo\nCommand was cancelled.\nTerminated by signal SIGTERM"


@pytest.mark.parametrize("mode", [m for m in MODES if m != "plan"])  # plan refuses it
async def test_escalation_asks_in_every_mode(tmp_path: Path, mode: PolicyMode) -> None:
    asker = Always("allow_always")
    gate = PolicyGate(Workspace.at(tmp_path), mode=mode, asker=asker)
    marker = Path.home() / f".tether-escalated-{os.getpid()}-{mode}"
    command = f"touch {marker} && echo wrote"
    try:
        for _ in range(2):
            result = await invoke(
                SANDBOXED, BashArgs(command=command, unsandboxed=True), _ctx(tmp_path, gate=gate)
            )
            assert result.text() == "wrote\nExit code: 0"
        assert marker.exists()
    finally:
        marker.unlink(missing_ok=True)
    # Asked once: "always allow" covers this exact command for the rest of the session.
    [request] = asker.requests
    assert request.subject == UnsandboxedAccess(command=command, tool_call_id="")
    assert request.reason == "commands outside the sandbox always need approval"
    labels = [o.name for o in request.options]
    assert f"Always allow the command `{command}` outside the sandbox for this session" in labels
    # Another command asks again.
    await invoke(SANDBOXED, BashArgs(command="true", unsandboxed=True), _ctx(tmp_path, gate=gate))
    assert len(asker.requests) == 2


async def test_escalation_is_refused_headless_naming_the_flag(tmp_path: Path) -> None:
    gate = PolicyGate(Workspace.at(tmp_path), mode="auto", asker=None)
    marker = tmp_path / "ran"
    result = await invoke(
        SANDBOXED,
        BashArgs(command=f"touch {marker}", unsandboxed=True),
        _ctx(tmp_path, gate=gate),
    )
    assert result.is_error
    assert "outside the sandbox needs approval" in result.text()
    assert "--sandbox off" in result.text()
    assert not marker.exists()


async def test_auto_mode_without_a_working_sandbox_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The documented hook: TETHER_BWRAP names the bwrap to use; /bin/false cannot sandbox.
    monkeypatch.setenv(BWRAP_ENV, "/bin/false")
    gate = PolicyGate(Workspace.at(tmp_path), mode="auto")
    marker = tmp_path / "ran"
    result = await invoke(SANDBOXED, BashArgs(command=f"touch {marker}"), _ctx(tmp_path, gate=gate))
    assert result.is_error
    assert result.text() == (
        "The sandbox cannot start (/bin/false cannot start a sandbox here: it exited with"
        " status 1), and auto mode does not run commands unsandboxed; pass --sandbox off"
        " explicitly to run them without it"
    )
    assert not marker.exists()
    assert SANDBOXED.binding() == "unsandboxed"


async def test_ask_mode_without_a_working_sandbox_runs_unsandboxed_after_a_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv(BWRAP_ENV, str(tmp_path / "no-such-bwrap"))
    asker = Always("allow_once")
    gate = PolicyGate(Workspace.at(tmp_path), mode="accept-edits", asker=asker)
    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            result = await invoke(
                SANDBOXED, BashArgs(command="echo ran"), _ctx(tmp_path, gate=gate)
            )
            assert result.text().startswith("ran\nThe sandbox cannot start (")
            assert "the command ran unsandboxed." in result.text()
    notices = [r for r in caplog.records if "the sandbox cannot start" in r.getMessage()]
    assert len(notices) == 1
    assert len(asker.requests) == 2
    assert asker.requests[0].subject.sandbox_problem is not None
