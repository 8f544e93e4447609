"""Background commands in a session: a dev server the model starts in the sandbox, read with
`bash_output`, reached from the host as documented, stopped with `kill_shell`, and gone when
the session ends; a cancelled turn leaves jobs running; the model is reminded of them."""

from __future__ import annotations

import asyncio
import socket
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.polling import eventually, until_file
from tests.processes import processes_with, unique_marker
from tests.sandbox.users import outside, python_for, user, workspace_for
from tests.session.helpers import Recorder, Sessions, call, log_lines, script, text
from tether.sandbox.bwrap import find_bwrap
from tether.sandbox.policy import SandboxPolicy
from tether.session import ClientUpdate, JobChanged, ToolCallPartial
from tether.tools.bash.jobs import MAX_JOBS, Jobs
from tether.tools.defaults import default_tools
from tether.views import TerminalResultView

__all__ = ["outside", "user"]

pytestmark = pytest.mark.skipif(not find_bwrap().works, reason="bubblewrap cannot start here")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
        return str(response.read().decode())


async def served(port: int, seconds: float = 10) -> str:
    for _ in range(int(seconds / 0.1)):
        try:
            return await asyncio.to_thread(fetch, port)
        except (urllib.error.URLError, ConnectionError):
            await asyncio.sleep(0.1)
    raise AssertionError(f"nothing answered on port {port}")


def _last_card(recorder: Recorder, job_id: str) -> tuple[str | None, bool]:
    """How the job's card last said it ended, and whether it showed the server's requests."""
    last = [u for u in recorder.updates if isinstance(u, JobChanged) and u.job_id == job_id][-1]
    assert last.ended
    return last.view.signal, '"GET / HTTP/1.1" 200' in (last.view.output or "")


async def test_a_dev_server_runs_on_is_read_reached_stopped_and_gone_with_the_session(
    outside: Path, user: str, sessions: Sessions
) -> None:
    ws = workspace_for(outside, user)
    (ws / "index.html").write_text("hello from the workspace\n")
    port, other = free_port(), free_port()
    server = f"{python_for(user)} -u -m http.server {port} --bind 127.0.0.1"
    left = f"{python_for(user)} -u -m http.server {other} --bind 127.0.0.1"
    model = script(
        {
            "toolCalls": [
                call("s", "Bash", {"command": server, "run_in_background": True}),
                call("l", "bash", {"command": left, "run_in_background": True}),
            ]
        },
        {"text": "Started."},
        {"toolCalls": [call("o", "BashOutput", {"bash_id": "shell-1"})]},
        {"toolCalls": [call("k", "KillShell", {"shell_id": "shell-1"})]},
        {"text": "Stopped."},
    )
    # --allow-network shares the host's network, loopback included: the person reaches it.
    tools = default_tools(SandboxPolicy(allow_network=True))
    session = sessions.new(ws, model, tools)
    everything = Recorder()
    recorder = Recorder()

    def both(update: ClientUpdate) -> None:
        everything(update)
        recorder(update)

    session.job_cards.listener = everything  # the jobs' cards, as they change
    assert await session.prompt(text("serve it"), both) == "end_turn"
    started = recorder.finished()["s"]
    assert started.status == "completed"
    assert "Running in the background as shell-1." in started.result.text()
    assert isinstance(started.view, TerminalResultView)
    assert started.view.exit_code is None and started.view.signal is None
    assert started.view.notes is not None
    assert "running in the background as shell-1" in started.view.notes
    assert await served(port) != ""
    assert "hello from the workspace" in await served(port)
    assert sorted(job.id for job in session.jobs.running()) == ["shell-1", "shell-2"]
    assert await served(other) != ""

    recorder = Recorder()
    assert await session.prompt(text("how is it going?"), both) == "end_turn"
    output = recorder.finished()["o"].result.text()
    assert '"GET / HTTP/1.1" 200' in output
    assert output.endswith(f"shell-1 ({server}): running")
    stopped = recorder.finished()["k"].result.text()
    assert stopped == f"Stopped shell-1 ({server}): killed by SIGTERM"
    assert [job.id for job in session.jobs.running()] == ["shell-2"]
    with pytest.raises(urllib.error.URLError):
        await asyncio.to_thread(fetch, port)
    # The model was reminded of the running server while it ran, in one line.
    reminders = [
        r.system for r in model.requests if "Background commands still running" in r.system
    ]
    assert reminders and f"shell-1 (`{server}`)" in reminders[0]
    assert "shell-1" not in model.requests[-1].system.split("Background commands")[-1]
    names = [e["name"] for e in log_lines(session, sessions.store.root) if e["type"] == "tool/call"]
    assert names == ["bash", "bash", "bash_output", "kill_shell"]
    # The cards replay as they were shown, the server's with its requests and its end.
    assert session.replay() == everything.without_progress()
    assert _last_card(everything, "shell-1") == ("SIGTERM", True)
    # The session's end stops the server still running: nothing of it is left.
    await session.aclose()
    # Everything got SIGKILL by now at the latest; on a loaded machine the kernel may take a
    # moment more to reap what it killed (tether names such processes as still running).
    for _ in range(50):
        if not processes_with(f"http.server {other}"):
            break
        await asyncio.sleep(0.1)
    assert processes_with(f"http.server {other}") == []
    with pytest.raises(urllib.error.URLError):
        await asyncio.to_thread(fetch, other)


async def test_network_off_the_server_listens_in_the_sandboxs_own_loopback(
    ws: Path, sessions: Sessions
) -> None:
    port = free_port()
    # Asked until the server listens (a fixed half second was too short for Python to start
    # on a busy machine), then left running.
    probe = (
        f"python3 -m http.server {port} --bind 127.0.0.1 & "
        'python3 -c "import time, urllib.request as u\n'
        "for _ in range(400):\n"
        f"    try: print(u.urlopen('http://127.0.0.1:{port}/').status); break\n"
        '    except OSError: time.sleep(0.05)"; wait'
    )
    model = script(
        {"toolCalls": [call("s", "bash", {"command": probe, "run_in_background": True})]},
        {"text": "ok"},
    )
    session = sessions.new(ws, model, default_tools(SandboxPolicy()))
    await session.prompt(text("serve"), Recorder())
    # Inside, the server answers on the sandbox's loopback...
    for _ in range(100):
        if (
            "200"
            in session.jobs.read("shell-1").shown + session.jobs.all()[0].capture.card().text()
        ):
            break
        await asyncio.sleep(0.1)
    assert "200" in session.jobs.all()[0].capture.card().text()
    # ...which is not the host's: nothing listens there.
    with pytest.raises(urllib.error.URLError):
        await asyncio.to_thread(fetch, port)
    await session.aclose()
    # SIGKILL at the latest; the kernel may take a moment more to reap on a loaded machine.
    for _ in range(50):
        if not processes_with(f"http.server {port}"):
            break
        await asyncio.sleep(0.1)
    assert processes_with(f"http.server {port}") == []


async def test_a_cancelled_turn_leaves_jobs_running_the_session_end_stops_them(
    ws: Path, sessions: Sessions
) -> None:
    marker = unique_marker("tether-job")
    model = script(
        {
            "toolCalls": [
                call(
                    "j",
                    "bash",
                    # A line first: the call returns once it printed, not after 1 s of silence.
                    {"command": f"echo up; exec -a {marker} sleep 60", "run_in_background": True},
                )
            ]
        },
        {"toolCalls": [call("f", "bash", {"command": "sleep 30"})]},
    )
    session = sessions.new(ws, model, default_tools())
    recorder = Recorder()
    turn = asyncio.create_task(session.prompt(text("go"), recorder))
    for _ in range(200):
        if any(u.kind == "tool_call_started" and u.tool_call_id == "f" for u in recorder.updates):
            break
        await asyncio.sleep(0.05)
    session.cancel()
    assert await asyncio.wait_for(turn, 15) == "cancelled"
    assert [job.id for job in session.jobs.running()] == ["shell-1"]
    assert processes_with(marker) != []
    await session.aclose()
    assert processes_with(marker) == []


async def test_at_most_eight_jobs_and_close_now_leaves_none(ws: Path) -> None:
    marker = unique_marker("tether-many")
    jobs = Jobs()
    for n in range(MAX_JOBS):
        await jobs.start(f"exec -a {marker}-{n} sleep 60", ws, confine=None, env=None)
    with pytest.raises(Exception, match="8 background commands are running already"):
        await jobs.start("sleep 1", ws, confine=None, env=None)
    # A job's process holds the marker once its shell has exec'd (until then its command
    # line is the forking interpreter's): wait for all eight, then exactly eight.
    await eventually(lambda: len(processes_with(marker)) >= MAX_JOBS, "eight jobs running")
    assert len(processes_with(marker)) == MAX_JOBS
    jobs.close_now()
    for _ in range(50):
        if not processes_with(marker):
            break
        await asyncio.sleep(0.1)
    assert processes_with(marker) == []
    await jobs.aclose()


async def test_a_jobs_card_stays_live_after_its_call_and_replays_as_it_was_seen(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    # Each next line waits for the test to let it go (a file appears), not for a clock.
    command = f"echo one; {until_file('two')}; echo two; {until_file('three')}; echo three; exit 3"
    model = script(
        {"toolCalls": [call("j", "bash", {"command": command, "run_in_background": True})]},
        {"text": "Started."},
    )
    session = sessions.new(ws, model, default_tools())
    recorder = Recorder()
    # What a surface shows: the prompt's updates, then the job's as they come, in one list.
    session.job_cards.listener = recorder
    assert await session.prompt(text("go"), recorder) == "end_turn"
    started = recorder.finished()["j"].view
    assert isinstance(started, TerminalResultView) and started.output == "one\n"
    (ws / "two").touch()

    def shown(line: str) -> bool:
        return any(
            isinstance(u, JobChanged) and line in (u.view.output or "") for u in recorder.updates
        )

    await eventually(lambda: shown("two"), "the job's second line on its card")
    (ws / "three").touch()
    await eventually(
        lambda: any(isinstance(u, JobChanged) and u.ended for u in recorder.updates), "its end"
    )
    jobs = [u for u in recorder.updates if isinstance(u, JobChanged)]
    # While it runs: its new output, said to be running; then how it ended, with all of it.
    assert [(u.tool_call_id, u.job_id) for u in jobs] == [("j", "shell-1")] * len(jobs)
    assert jobs[0].view == TerminalResultView(
        title=command, output="one\ntwo\n", notes=("running in the background as shell-1",)
    )
    assert jobs[-1].ended and jobs[-1].view == TerminalResultView(
        title=command,
        output="one\ntwo\nthree\n",
        exit_code=3,
        notes=("ran in the background as shell-1",),
    )
    assert [u.ended for u in jobs] == [False] * (len(jobs) - 1) + [True]
    # Each change is in the log, after the call's result, and replays as it was seen.
    logged = [e["type"] for e in log_lines(session, home)]
    assert logged.count("job/update") == len(jobs)
    assert logged.index("tool/result") < logged.index("job/update")
    assert session.replay() == recorder.without_progress()


async def test_a_running_command_moved_to_the_background_runs_on_as_a_job(
    ws: Path, sessions: Sessions
) -> None:
    marker = unique_marker("tether-moved")
    command = f"echo start; exec -a {marker} sleep 60"
    model = script(
        {"toolCalls": [call("b", "bash", {"command": command, "timeout_ms": 3000})]},
        {"text": "Moved on."},
    )
    session = sessions.new(ws, model, default_tools())
    recorder = Recorder()
    turn = asyncio.create_task(session.prompt(text("go"), recorder))
    # Nothing to move before the command runs; once it printed, the person moves it (Ctrl+B).
    assert session.jobs.to_background() == 0
    for _ in range(200):
        shown = [u for u in recorder.updates if isinstance(u, ToolCallPartial)]
        if processes_with(marker) and shown and "start" in (shown[-1].view.output or ""):
            break
        await asyncio.sleep(0.05)
    assert session.jobs.to_background() == 1
    assert await asyncio.wait_for(turn, 15) == "end_turn"
    moved = recorder.finished()["b"]
    assert moved.status == "completed"
    assert moved.result.text().startswith("start\n")
    assert (
        "The user moved the command to the background while it ran: it is running in the "
        "background as shell-1." in moved.result.text()
    )
    assert isinstance(moved.view, TerminalResultView) and moved.view.exit_code is None
    # Past its 3 s timeout it runs on: only kill_shell or the session's end stops it.
    await asyncio.sleep(3.5)
    assert [job.id for job in session.jobs.running()] == ["shell-1"]
    assert processes_with(marker) != []
    await session.aclose()
    for _ in range(50):
        if not processes_with(marker):
            break
        await asyncio.sleep(0.1)
    assert processes_with(marker) == []
