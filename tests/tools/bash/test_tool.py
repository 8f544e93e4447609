"""The bash tool end to end, with real shells, real process groups and real signals."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pydantic import JsonValue

from tests.processes import group_members, processes_in
from tether.errors import PermissionDenied
from tether.sandbox.policy import SandboxPolicy
from tether.tools import (
    Access,
    CommandAccess,
    ToolContext,
    ToolResult,
    Workspace,
    check_plain_json,
    invoke,
    parse_arguments,
)
from tether.tools.access import HookVerdict
from tether.tools.bash import BashArgs, BashTool, BashValue
from tether.tools.bash.group import Member
from tether.tools.bash.output import OutputCapture
from tether.tools.bash.value import card_meta, model_text
from tether.tools.card_context import CardContext
from tether.tools.invocation import MAX_META_BYTES
from tether.tools.result import TOOL_RESULT
from tether.views import TerminalCallView, TerminalResultView, ToolResultView, dump_view

TOOL = BashTool()
"""The default: commands in the `workspace-write` sandbox."""
HOST_TOOL = BashTool(sandbox=SandboxPolicy("off"))
"""Unsandboxed, for tests that look at the command's processes from outside (`$$` is a host
pid there; inside the sandbox it is one of its own namespace)."""


class Reports:
    """Collects live updates with the time each arrived."""

    def __init__(self) -> None:
        self.views: list[ToolResultView] = []
        self.times: list[float] = []

    def __call__(self, view: ToolResultView) -> None:
        self.views.append(view)
        self.times.append(time.monotonic())

    def outputs(self) -> list[str]:
        return [v.output or "" for v in self.views if isinstance(v, TerminalResultView)]

    async def first_line(self, within: float = 5.0) -> str:
        """The first line the command printed, once a report carried it."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            for output in self.outputs():
                if "\n" in output:
                    return output.split("\n", 1)[0]
            await asyncio.sleep(0.02)
        raise AssertionError("no output was reported")


def _ctx(tmp_path: Path, **kwargs: object) -> ToolContext:
    return ToolContext(workspace=Workspace.at(tmp_path), **kwargs)  # type: ignore[arg-type]


async def _run(tmp_path: Path, command: str, tool: BashTool = TOOL, **kwargs: object) -> ToolResult:
    args = BashArgs(command=command, **kwargs)
    return await invoke(tool, args, _ctx(tmp_path))


def _meta(result: ToolResult) -> dict[str, JsonValue]:
    assert isinstance(result.meta, dict)
    return result.meta


async def test_exit_code_is_reported_not_an_error(tmp_path: Path) -> None:
    result = await _run(tmp_path, "echo out; exit 3")
    assert not result.is_error
    assert result.text() == "out\nExit code: 3"
    assert _meta(result) == {
        "command": "echo out; exit 3",
        "cwd": str(tmp_path.resolve()),
        "output": "out\n",
        "exitCode": 3,
    }


async def test_a_signal_ends_the_shell(tmp_path: Path) -> None:
    result = await _run(tmp_path, "echo before; kill -9 $$", tool=HOST_TOOL)
    assert result.text() == "before\nTerminated by signal SIGKILL"
    meta = _meta(result)
    assert meta["signal"] == "SIGKILL"
    assert "exitCode" not in meta
    view = TOOL.present_result(BashArgs(command="kill -9 $$"), result, CardContext())
    assert view == TerminalResultView(title="kill -9 $$", output="before\n", signal="SIGKILL")


async def test_stdout_and_stderr_keep_their_order(tmp_path: Path) -> None:
    result = await _run(tmp_path, "echo a; echo b >&2; echo c; echo d >&2")
    assert result.text() == "a\nb\nc\nd\nExit code: 0"


async def test_stdin_is_closed(tmp_path: Path) -> None:
    # An open stdin would block `cat` until the timeout, and the result would say so.
    result = await _run(tmp_path, "cat; read line; echo read=$?", timeout_ms=10_000)
    assert result.text() == "read=1\nExit code: 0"


async def test_runs_in_the_workspace(tmp_path: Path) -> None:
    (tmp_path / "here.txt").write_text("hello\n")
    result = await _run(tmp_path, "pwd; cat here.txt; echo made > made.txt")
    assert result.text() == f"{tmp_path.resolve()}\nhello\nExit code: 0"
    assert (tmp_path / "made.txt").read_text() == "made\n"


async def test_no_output_says_so(tmp_path: Path) -> None:
    result = await _run(tmp_path, "true")
    assert result.text() == "(no output)\nExit code: 0"
    assert _meta(result)["output"] == ""


async def test_ansi_is_kept_for_the_card_and_stripped_for_the_model(tmp_path: Path) -> None:
    result = await _run(tmp_path, r"printf '\033[1;31mred\033[0m plain\n'")
    assert result.text() == "red plain\nExit code: 0"
    assert _meta(result)["output"] == "\x1b[1;31mred\x1b[0m plain\n"


async def test_the_model_sees_only_the_last_redraw_of_a_line(tmp_path: Path) -> None:
    command = r"printf 'get 10%%\rget 50%%\rget 100%%\ndone\r\nnext\n'"
    result = await _run(tmp_path, command)
    assert result.text() == "get 100%\ndone\nnext\nExit code: 0"
    assert _meta(result)["output"] == "get 10%\rget 50%\rget 100%\ndone\r\nnext\n"


async def test_invalid_utf8_becomes_replacement_characters(tmp_path: Path) -> None:
    result = await _run(tmp_path, r"printf '\xff\xfe ok\n'")
    assert result.text() == "\ufffd\ufffd ok\nExit code: 0"


async def test_a_character_split_across_reads_survives(tmp_path: Path) -> None:
    # The pause makes the two halves of "é" arrive in separate reads.
    result = await _run(tmp_path, r"printf '\xc3'; sleep 0.2; printf '\xa9t\xc3\xa9\n'")
    assert result.text() == "été\nExit code: 0"


async def test_timeout_terminates_the_group(tmp_path: Path) -> None:
    start = time.monotonic()
    # 2 s: long enough for the sandboxed shell to print first on a loaded machine (at 500 ms
    # such a shell has been killed before it ran: tests/web's results test, at load 19).
    result = await _run(tmp_path, "echo started; sleep 30", timeout_ms=2000)
    # Not before its time (the end is the result's to say: `sleep 30` did not finish).
    assert time.monotonic() - start >= 2.0
    assert not result.is_error
    assert result.text() == (
        "started\nCommand timed out after 2000 ms.\nTerminated by signal SIGTERM"
    )
    meta = _meta(result)
    assert meta["timedOut"] is True
    assert meta["signal"] == "SIGTERM"


async def test_a_command_that_ignores_sigterm_gets_sigkill_two_seconds_later(
    tmp_path: Path,
) -> None:
    # The command ignores SIGTERM from its first instruction: it inherits the ignored
    # signal, as under `nohup`-like launchers (a shell ignoring a signal at entry cannot
    # trap it back). A `trap '' TERM` of its own would race the 300 ms timeout: a shell
    # that starts late on a loaded machine is ended by the SIGTERM before its trap runs.
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        start = time.monotonic()
        result = await _run(tmp_path, "sleep 30 & sleep 30", timeout_ms=300, tool=HOST_TOOL)
    finally:
        signal.signal(signal.SIGTERM, previous)
    # The grace period was given before the SIGKILL.
    assert time.monotonic() - start >= 2.3
    assert result.text().endswith("Command timed out after 300 ms.\nTerminated by signal SIGKILL")
    assert processes_in(tmp_path.resolve()) == []


async def test_cancel_event_stops_the_whole_group(tmp_path: Path) -> None:
    reports = Reports()
    ctx = _ctx(tmp_path, report=reports)
    args = BashArgs(command="echo $$; sleep 100 & sleep 100")
    task = asyncio.ensure_future(invoke(HOST_TOOL, args, ctx))
    pgid = int(await reports.first_line())
    ctx.cancelled.set()
    # The command would run for 100 s: ending at all means the cancel stopped it.
    result = await asyncio.wait_for(task, 10)
    assert result.text() == f"{pgid}\nCommand was cancelled.\nTerminated by signal SIGTERM"
    assert _meta(result)["cancelled"] is True
    # No member left running (a killed orphan may stay a zombie until init reaps it, on
    # init's own schedule: that is no process of the group still running).
    assert group_members(pgid) == []


async def test_cancelling_the_task_stops_the_whole_group_and_reraises(tmp_path: Path) -> None:
    reports = Reports()
    args = BashArgs(command="echo $$; sleep 100 & sleep 100")
    task = asyncio.ensure_future(invoke(HOST_TOOL, args, _ctx(tmp_path, report=reports)))
    pgid = int(await reports.first_line())
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 5)
    # The group is stopped before the cancellation propagates, not some time after.
    assert group_members(pgid) == []


async def test_cancelling_before_the_start_still_cleans_up(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path)
    ctx.cancelled.set()
    marker = tmp_path / "ran"
    result = await invoke(TOOL, BashArgs(command=f"sleep 5; touch {marker}"), ctx)
    assert "Command was cancelled." in result.text()
    assert not marker.exists()


async def test_background_jobs_are_stopped_when_the_command_ends(tmp_path: Path) -> None:
    # The job would run for 1004 s: the call ending at all means it was stopped (that a
    # stop does not wait out the grace period is test_group's to show).
    run = _run(tmp_path, "echo $$; sleep 1004 & echo started", tool=HOST_TOOL)
    result = await asyncio.wait_for(run, 30)
    pgid = int(result.text().split("\n", 1)[0])
    assert group_members(pgid) == []
    text = result.text()
    assert "started\nBackground processes were still running when the command ended" in text
    assert "(SIGTERM, then SIGKILL after 2 s): " in text
    assert "sleep 1004" in text
    assert text.endswith("Exit code: 0")
    meta = _meta(result)
    [stopped] = meta["stoppedProcesses"]  # type: ignore[misc]
    # A job caught between fork and exec still shows the shell's command line, which names it.
    assert "sleep 1004" in stopped["command"]  # type: ignore[index]


async def test_a_background_job_that_ignores_sigterm_gets_sigkill(tmp_path: Path) -> None:
    start = time.monotonic()
    # The command ends only once the job ignores SIGTERM: a TERM sent before its `trap` ran
    # would end it at once, with no grace period to show.
    command = (
        "echo $$; (trap '' TERM; : > ignoring; sleep 1005) & until [ -e ignoring ]; do :; done"
    )
    run = _run(tmp_path, command, tool=HOST_TOOL)
    result = await asyncio.wait_for(run, 30)
    pgid = int(result.text().split("\n", 1)[0])
    # The grace period was given before the SIGKILL, which ended the job long before its time.
    assert time.monotonic() - start >= 2
    # Gone when the call returns: the tool waited for the kernel to finish with the job.
    assert group_members(pgid) == []
    assert "sleep 1005" in result.text()
    assert "after SIGKILL" not in result.text()
    assert "survivingProcesses" not in _meta(result)


async def test_a_command_without_background_jobs_names_none(tmp_path: Path) -> None:
    result = await _run(tmp_path, "sleep 0.1 & wait; echo done")
    assert result.text() == "done\nExit code: 0"
    assert "stoppedProcesses" not in _meta(result)


async def test_a_process_that_left_the_group_holding_the_output_does_not_hang(
    tmp_path: Path,
) -> None:
    # The process holds the output for 30 s: the call ending before means it did not wait.
    run = _run(tmp_path, "setsid sleep 30 & sleep 0.1; echo $!", tool=HOST_TOOL)
    result = await asyncio.wait_for(run, 20)
    pid = int(result.text().split("\n", 1)[0])
    try:
        assert "their later output is not captured" in result.text()
        assert result.text().endswith("Exit code: 0")
    finally:
        os.kill(pid, 9)


async def test_progress_is_throttled_and_carries_the_output_so_far(tmp_path: Path) -> None:
    reports = Reports()
    command = "for i in $(seq 1 40); do echo line$i; sleep 0.025; done"
    start = time.monotonic()
    result = await invoke(TOOL, BashArgs(command=command), _ctx(tmp_path, report=reports))
    elapsed = time.monotonic() - start
    final = _meta(result)["output"]
    assert isinstance(final, str)
    outputs = reports.outputs()
    # About one second of output: at most ten updates a second, but more than one.
    assert 3 <= len(outputs) <= elapsed * 10 + 1
    gaps = [b - a for a, b in zip(reports.times, reports.times[1:], strict=False)]
    assert min(gaps) >= 0.08
    assert all(final.startswith(o) for o in outputs)
    assert outputs == sorted(outputs, key=len)
    assert all(v.title == command for v in reports.views if isinstance(v, TerminalResultView))


async def test_long_output_keeps_head_and_tail_for_the_model(tmp_path: Path) -> None:
    result = await _run(tmp_path, "seq 1 40000")
    full = "".join(f"{i}\n" for i in range(1, 40_001))
    text = result.text()
    assert len(text) <= 30_000
    head, rest = text.split("\n... [", 1)
    count, tail = rest.split(" characters truncated] ...\n", 1)
    assert full.startswith(head)
    assert tail.endswith("40000\nExit code: 0")
    body_tail = tail.removesuffix("Exit code: 0")
    assert full.endswith(body_tail)
    assert len(head) + int(count) + len(body_tail) == len(full)
    card = _meta(result)["output"]
    assert card == full  # 229 KB fits in the card whole


async def test_huge_output_stays_bounded_in_memory(tmp_path: Path) -> None:
    script = """
import asyncio, json, sys
from tether.tools import ToolContext, Workspace, invoke
from tether.tools.bash import BashArgs, BashTool
from tether.sandbox.policy import SandboxPolicy
command = "echo START; head -c 50000000 /dev/zero | tr '\\\\0' a; echo; echo END"
result = asyncio.run(
    invoke(BashTool(), BashArgs(command=command), ToolContext(workspace=Workspace.at(sys.argv[1])))
)
# VmHWM, not ru_maxrss: after a fork the latter starts from the parent's peak.
status = open("/proc/self/status").read().split("VmHWM:")[1]
print(json.dumps({"text": result.text(), "meta": result.meta,
    "maxrss_kb": int(status.split()[0])}))
"""
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    report = json.loads(done.stdout)
    assert report["maxrss_kb"] < 200 * 1024
    text = report["text"]
    assert len(text) <= 30_000
    assert text.startswith("START\naaaa")
    assert text.endswith("aaaa\nEND\nExit code: 0")
    assert "characters truncated] ..." in text
    output = report["meta"]["output"]
    assert output.startswith("START\naaaa")
    assert output.endswith("aaaa\nEND\n")
    assert "characters truncated] ..." in output
    assert len(output) < 300 * 1024


async def test_meta_stays_under_the_stored_limit_for_escape_heavy_output(tmp_path: Path) -> None:
    result = await _run(tmp_path, r"head -c 400000 /dev/zero | tr '\0' '\001'")
    assert result.meta is not None
    check_plain_json(result.meta)
    assert len(json.dumps(result.meta).encode()) <= MAX_META_BYTES


async def test_a_long_command_leaves_room_in_the_meta(tmp_path: Path) -> None:
    command = r"head -c 400000 /dev/zero | tr '\0' '\001' # " + "\U0001f600" * 30_000
    result = await _run(tmp_path, command)
    assert result.meta is not None
    assert len(json.dumps(result.meta).encode()) <= MAX_META_BYTES


async def test_a_command_too_long_to_start_is_an_error(tmp_path: Path) -> None:
    result = await _run(tmp_path, "echo " + "x" * 200_000)
    assert result.is_error
    assert result.text().startswith("Cannot run the command: [Errno 7] Argument list too long")


async def test_permission_refused_is_an_error_and_nothing_runs(tmp_path: Path) -> None:
    asked: list[Access] = []

    class Refuse:
        planning = False

        async def authorize(self, access: Access, hook: HookVerdict | None = None) -> None:
            asked.append(access)
            raise PermissionDenied("the person refused to run this command")

    marker = tmp_path / "ran"
    ctx = ToolContext(workspace=Workspace.at(tmp_path), gate=Refuse(), tool_call_id="call-7")
    result = await invoke(TOOL, BashArgs(command=f"touch {marker}"), ctx)
    assert result.is_error
    assert result.text() == "the person refused to run this command"
    assert not marker.exists()
    assert asked == [CommandAccess(command=f"touch {marker}", tool_call_id="call-7")]
    assert TOOL.present_result(BashArgs(command="x"), result, CardContext()) is None


async def test_missing_workspace_is_an_error(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    ctx = _ctx(gone)
    gone.rmdir()
    result = await invoke(TOOL, BashArgs(command="echo hi"), ctx)
    assert result.is_error
    assert result.text() == f"Cannot run the command: the working directory {gone} does not exist"


def test_arguments_are_validated() -> None:
    assert isinstance(parse_arguments(TOOL, '{"command": "ls"}'), BashArgs)
    for raw, problem in [
        ('{"command": "ls", "timeout_ms": 0}', "timeout_ms"),
        ('{"command": "ls", "timeout_ms": 600001}', "timeout_ms"),
        ('{"command": "   "}', "command is empty"),
        ("{}", "command"),
    ]:
        result = parse_arguments(TOOL, raw)
        assert isinstance(result, ToolResult)
        assert result.is_error
        assert problem in result.text()
    schema = TOOL.parameters_schema()
    assert schema["required"] == ["command"]
    assert set(schema["properties"]) == {
        "command",
        "description",
        "timeout_ms",
        "run_in_background",
        "unsandboxed",
    }
    assert TOOL.name == "bash"
    assert TOOL.serial_key(BashArgs(command="ls")) is None


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ('{"command": "echo a\\u0000b"}', "command holds a NUL character"),
        ('{"command": "echo \\ud800"}', "command holds a lone surrogate"),
    ],
)
def test_a_command_bash_cannot_be_given_is_refused_before_asking(raw: str, problem: str) -> None:
    result = parse_arguments(TOOL, raw)
    assert isinstance(result, ToolResult)
    assert result.is_error
    assert problem in result.text()


def test_call_view_is_a_terminal_card() -> None:
    args = BashArgs(command="make test", description="Run the tests")
    view = TOOL.present_call(args, CardContext())
    label = "sandbox: workspace-write, no network"
    assert view == TerminalCallView(title="make test", description="Run the tests", sandbox=label)
    assert dump_view(view) == {
        "card": "terminal",
        "title": "make test",
        "description": "Run the tests",
        "sandbox": label,
    }
    assert HOST_TOOL.present_call(args, CardContext()).sandbox == "unsandboxed"
    escalated = BashArgs(command="git push", unsandboxed=True)
    assert TOOL.present_call(escalated, CardContext()).sandbox == "unsandboxed"
    # A stored call is presented as it ran, whatever this process's settings are.
    stored = CardContext(cwd="/work/app", binding=label)
    assert HOST_TOOL.present_call(args, stored) == TerminalCallView(
        title="make test", description="Run the tests", cwd="/work/app", sandbox=label
    )


def test_a_tool_made_without_a_policy_labels_and_runs_with_the_default_one() -> None:
    # Its policy is made when first asked for; a card says its label without it.
    tool = BashTool()
    args = BashArgs(command="ls")
    assert tool.present_call(args, CardContext()).sandbox == SandboxPolicy().label()
    assert tool.sandbox == SandboxPolicy()
    for policy in (SandboxPolicy("read-only", allow_network=True), SandboxPolicy("off")):
        tool.sandbox = policy
        assert tool.present_call(args, CardContext()).sandbox == policy.label()
        assert tool.sandbox is policy


@pytest.mark.parametrize(
    ("command", "timeout_ms"),
    [("printf '\\033[32mok\\033[0m\\n'; exit 4", None), ("kill -TERM $$", None), ("sleep 5", 200)],
)
async def test_result_view_is_the_same_after_a_round_trip(
    tmp_path: Path, command: str, timeout_ms: int | None
) -> None:
    args = BashArgs(command=command, timeout_ms=timeout_ms)
    live = await invoke(TOOL, args, _ctx(tmp_path))
    wire = json.dumps(TOOL_RESULT.dump_python(live, mode="json", by_alias=True))
    stored = TOOL_RESULT.validate_python(json.loads(wire))
    assert stored == live
    live_view = TOOL.present_result(args, live, CardContext())
    replayed = TOOL.present_result(args, stored, CardContext())
    assert isinstance(live_view, TerminalResultView)
    assert replayed == live_view
    assert dump_view(replayed) == dump_view(live_view)


@pytest.mark.parametrize(
    "meta",
    [
        None,
        "text",
        [1],
        {},
        {"output": "x"},
        {"output": 3, "exitCode": 0},
        {"output": "x", "exitCode": True},
        {"output": "x", "exitCode": 1.5},
        {"output": "x", "signal": 9},
        {"output": "x", "exitCode": 0, "signal": "SIGTERM"},
    ],
)
def test_malformed_meta_falls_back_to_the_generic_card(meta: object) -> None:
    result = ToolResult(content=(), meta=meta)  # type: ignore[arg-type]
    assert TOOL.present_result(BashArgs(command="ls"), result, CardContext()) is None


def test_processes_still_running_after_sigkill_are_named() -> None:
    capture = OutputCapture()
    capture.feed(b"started\n")
    capture.close()
    value = BashValue(
        command="make serve",
        cwd="/work",
        card=capture.card(),
        model=capture.model(),
        exit_code=0,
        signal=None,
        stopped=None,
        timeout_ms=1000,
        detached=False,
        leftovers=(Member(12, "nfs-reader"),),
        survivors=(Member(12, "nfs-reader"),),
    )
    assert model_text(value) == (
        "started\nBackground processes were still running when the command ended and were"
        " stopped (SIGTERM, then SIGKILL after 2 s): 12 nfs-reader\nStill running 2 s after"
        " SIGKILL (the kernel had not finished with them): 12 nfs-reader\nExit code: 0"
    )
    meta = card_meta(value)
    assert isinstance(meta, dict)
    assert meta["survivingProcesses"] == [{"pid": 12, "command": "nfs-reader"}]
