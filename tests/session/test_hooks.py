"""Hooks in a session: real bash and Python hook scripts at every event, what their decisions
do to the turn, what the model is told, and the `hook/run` events replayed as they were shown."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.hooks.scripts import GUARD, bash_hook, group, python_hook, recorded, recorder, user_hooks
from tests.policy.support import Always
from tests.processes import processes_with, unique_marker
from tests.session.helpers import Recorder, Sessions, call, log_lines, script, text
from tether.content import TextContent
from tether.models.messages import ToolResultMessage, UserMessage
from tether.models.script import ScriptModel
from tether.sandbox.policy import SandboxPolicy
from tether.session import SessionConfig, SessionStore, ToolCallFinished
from tether.session.commanded import prepare_command
from tether.session.hooked import MAX_STOP_CONTINUATIONS
from tether.session.limits import DEFAULT_COMPACT_AT
from tether.session.notices import HookRan
from tether.session.replay import replay
from tether.settings import Settings, load_settings
from tether.tools.bash.tool import BashTool
from tether.tools.defaults import default_tools
from tether.tools.registry import ToolRegistry


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """The data directory, made at once: the settings files go in it."""
    path = tmp_path / "home"
    path.mkdir()
    return path


def bash_tools() -> ToolRegistry:
    return ToolRegistry([BashTool(sandbox=SandboxPolicy("off"))])


def config(model: ScriptModel, settings: Settings, **kwargs: Any) -> SessionConfig:
    kwargs.setdefault("tools", bash_tools())
    kwargs.setdefault("mode", "auto")
    return SessionConfig(model=model, settings=settings, **kwargs)


def hook_runs(recorder: Recorder) -> list[HookRan]:
    return [u for u in recorder.updates if isinstance(u, HookRan)]


def results_of(model: ScriptModel, request: int) -> dict[str, ToolResultMessage]:
    messages = model.requests[request].messages
    return {m.tool_call_id: m for m in messages if isinstance(m, ToolResultMessage)}


def texts(message: object) -> list[str]:
    content = getattr(message, "content", ())
    return [b.text for b in content if isinstance(b, TextContent)]


async def test_every_event_runs_its_hooks_with_their_input(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    record, inputs = recorder(tmp_path)
    context = bash_hook(tmp_path, "context", "cat > /dev/null; echo 'The main branch is frozen.'\n")
    hooks = {
        event: [group(record)]
        for event in (
            "SessionStart",
            "PreToolUse",
            "PostToolUse",
            "Notification",
            "Stop",
            "PreCompact",
            "SessionEnd",
        )
    }
    hooks["UserPromptSubmit"] = [group(record), group(context)]
    frozen = bash_hook(tmp_path, "frozen", "cat > /dev/null; echo 'Still frozen.'\n")
    hooks["SessionStart"].append(group(frozen, matcher="compact"))
    settings = user_hooks(home, ws, hooks)
    model = script(
        {"toolCalls": [call("c1", "bash", {"command": "echo hi", "description": "Say hi"})]},
        {"text": "Said hi."},
        {"text": "We said hi."},  # the summary `/compact` asks for
        {"text": "Nothing else."},
    )
    asker = Always()
    session = sessions.create(ws, config(model, settings, mode="ask", asker=asker))
    live = Recorder()
    assert await session.prompt(text("say hi"), live) == "end_turn"
    assert await session.prompt(text("/compact keep it short"), live) == "end_turn"
    assert await session.prompt(text("anything else?"), live) == "end_turn"
    await session.aclose()

    seen = recorded(inputs)
    events = [i["hook_event_name"] for i in seen]
    # The notification's hooks run beside the question, and are done before the turn ends.
    assert [e for e in events if e != "Notification"] == [
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "Stop",
        "PreCompact",
        "SessionStart",
        "UserPromptSubmit",
        "Stop",
        "SessionEnd",
    ]
    assert events.index("PreToolUse") < events.index("Notification") < events.index("PreCompact")
    log_path = home / "sessions" / f"{session.id}.jsonl"
    for given in seen:
        assert given["session_id"] == session.id
        assert given["tether_log_path"] == str(log_path)
        assert given["transcript_path"] == str(home / "sessions" / "transcripts" / log_path.name)
        assert given["cwd"] == str(ws)
    first_inputs(seen)
    assert len(asker.requests) == 1

    # What the prompt's hooks printed reached the model with the prompt.
    first = model.requests[0].messages[0]
    assert isinstance(first, UserMessage)
    said = texts(first)
    assert said[0] == "say hi" and "The main branch is frozen." in said[-1]
    # What a hook adds after a compaction follows the summary (only the `compact` one ran).
    after = [t for m in model.requests[-1].messages for t in texts(m)]
    summary = next(i for i, t in enumerate(after) if "We said hi." in t)
    reminder = next(i for i, t in enumerate(after) if "Still frozen." in t)
    assert summary < reminder < after.index("anything else?")
    assert sum("Still frozen." in t for m in model.requests[0].messages for t in texts(m)) == 0

    # Every run is a `hook/run` event, shown live as a notice in order, and replayed so.
    types = [line["type"] for line in log_lines(session, home)]
    assert types.count("hook/run") == 14
    notices = hook_runs(live)
    assert [n.event for n in notices][:3] == [
        "SessionStart",
        "UserPromptSubmit",
        "UserPromptSubmit",
    ]
    assert notices[2].text.startswith("UserPromptSubmit hook added context for the model (bash ")
    stored = SessionStore(home).read(session.id)
    again = replay(
        stored.events, bash_tools(), stored.header.cwd, session.window, DEFAULT_COMPACT_AT
    )
    assert again[: len(live.without_progress())] == live.without_progress()
    # The session's end was logged after its last prompt: a replay shows it too.
    assert isinstance(again[-1], HookRan) and again[-1].event == "SessionEnd"


def first_inputs(seen: list[dict[str, Any]]) -> None:
    """Check each event's own fields in its first run (of the session of the test above)."""
    by_event: dict[str, dict[str, Any]] = {}
    for given in seen:
        by_event.setdefault(given["hook_event_name"], given)  # each event's first run
    assert by_event["SessionStart"]["source"] == "startup"
    # After the summary, SessionStart runs again: its source says why.
    assert [i["source"] for i in seen if i["hook_event_name"] == "SessionStart"] == [
        "startup",
        "compact",
    ]
    assert by_event["UserPromptSubmit"]["prompt"] == "say hi"
    assert by_event["UserPromptSubmit"]["permission_mode"] == "default"
    pre = by_event["PreToolUse"]
    assert (pre["tool_name"], pre["tether_tool_name"], pre["tool_use_id"]) == ("Bash", "bash", "c1")
    assert pre["tool_input"] == {"command": "echo hi", "description": "Say hi"}
    post = by_event["PostToolUse"]
    assert post["tool_response"]["isError"] is False
    assert post["tool_response"]["content"][0]["text"].startswith("hi\n")
    assert by_event["Notification"] == {
        **by_event["Notification"],
        "message": "tether needs your permission: echo hi",
        "notification_type": "permission_prompt",
    }
    assert by_event["Stop"]["stop_hook_active"] is False
    assert by_event["PreCompact"]["trigger"] == "manual"
    assert by_event["PreCompact"]["custom_instructions"] == "keep it short"
    assert by_event["SessionEnd"]["reason"] == "other"


async def test_a_pre_tool_use_hook_blocks_rm_rf_and_post_tool_use_speaks_to_the_model(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    (ws / "build").mkdir()
    lint = python_hook(
        tmp_path,
        "lint",
        "import json, sys\n"
        "data = json.load(sys.stdin)\n"
        "if 'echo' in data['tool_input']['command']:\n"
        "    print(json.dumps({'decision': 'block', 'reason': 'Use printf, not echo.',\n"
        "        'hookSpecificOutput': {'additionalContext': 'The linter ran.'}}))\n",
    )
    settings = user_hooks(
        home,
        ws,
        {
            "PreToolUse": [group(bash_hook(tmp_path, "guard", GUARD), matcher="Bash")],
            "PostToolUse": [group(lint, matcher="bash|edit")],
        },
    )
    model = script(
        {
            "toolCalls": [
                call("c1", "bash", {"command": "rm -rf build"}),
                call("c2", "bash", {"command": "echo done"}),
            ]
        },
        {"text": "Blocked, as it should be."},
    )
    session = sessions.create(ws, config(model, settings))
    live = Recorder()
    assert await session.prompt(text("clean up"), live) == "end_turn"

    assert (ws / "build").is_dir()  # the command never ran
    results = {
        m.tool_call_id: m for m in model.requests[1].messages if isinstance(m, ToolResultMessage)
    }
    assert results["c1"].is_error
    assert texts(results["c1"]) == [
        f"The PreToolUse hook `bash {tmp_path}/guard.sh` blocked this call: "
        "rm -rf is not allowed here"
    ]
    # After the other call's result, the model reads the linter's context and feedback.
    after = texts(results["c2"])
    assert after[0].startswith("done\n")
    assert "The linter ran." in after[1] and "Use printf, not echo." in after[1]

    finished = {u.tool_call_id: u for u in live.updates if isinstance(u, ToolCallFinished)}
    assert finished["c1"].status == "failed" and finished["c2"].status == "completed"
    blocked = next(n for n in hook_runs(live) if n.decision == "deny")
    assert blocked.tool_call_id == "c1"
    assert blocked.text.startswith(
        "PreToolUse hook blocked the call: rm -rf is not allowed here (bash /"
    )
    assert blocked.text.endswith(f", exit 2, {blocked.duration_ms} ms)")
    assert session.replay() == live.without_progress()


async def test_a_hook_allows_or_asks_but_never_overrides_a_deny_rule(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    decide = python_hook(
        tmp_path,
        "decide",
        "import json, sys\n"
        "command = json.load(sys.stdin)['tool_input']['command']\n"
        "decision = 'ask' if 'ask' in command else 'allow'\n"
        "print(json.dumps({'hookSpecificOutput': {'permissionDecision': decision,\n"
        "    'permissionDecisionReason': 'the hook says ' + decision}}))\n",
    )
    (home / "settings.json").write_text(
        json.dumps(
            {
                "permissions": {"deny": ["bash(rm:*)"]},
                "hooks": {"PreToolUse": [group(decide)]},
            }
        )
    )
    settings = load_settings(ws, home)
    model = script(
        {
            "toolCalls": [
                call("c1", "bash", {"command": "echo allowed"}),
                call("c2", "bash", {"command": "rm -f nothing"}),
                call("c3", "bash", {"command": "echo ask me"}),
            ]
        },
        {"text": "done"},
    )
    asker = Always()
    # Ask mode: a command would be asked about; the hook's allow lets it through unasked.
    session = sessions.create(ws, config(model, settings, mode="ask", asker=asker))
    assert await session.prompt(text("go"), Recorder()) == "end_turn"
    results = {
        m.tool_call_id: m for m in model.requests[1].messages if isinstance(m, ToolResultMessage)
    }
    assert not results["c1"].is_error and texts(results["c1"])[0].startswith("allowed")
    assert (
        results["c2"].is_error and "denied by the deny rule bash(rm:*)" in texts(results["c2"])[0]
    )
    assert not results["c3"].is_error
    [question] = asker.requests
    assert question.subject.tool_call_id == "c3"
    assert "the PreToolUse hook asks" in question.reason and "the hook says ask" in question.reason


async def test_a_prompt_a_hook_blocks_never_reaches_the_model(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    secret = bash_hook(
        tmp_path,
        "secret",
        'if grep -q "password"; then echo "That prompt holds a password." >&2; exit 2; fi\n',
    )
    no_compact = bash_hook(tmp_path, "nocompact", "cat >/dev/null; echo 'not today' >&2; exit 2\n")
    settings = user_hooks(
        home, ws, {"UserPromptSubmit": [group(secret)], "PreCompact": [group(no_compact)]}
    )
    model = script({"text": "Hello."})
    session = sessions.create(ws, config(model, settings))
    live = Recorder()
    assert await session.prompt(text("my password is hunter2"), live) == "end_turn"
    assert model.requests == []
    assert session.title is None  # a blocked prompt does not name the session
    [notice] = hook_runs(live)
    assert notice.text.startswith(
        "UserPromptSubmit hook blocked the prompt: That prompt holds a password."
    )
    assert await session.prompt(text("hello"), live) == "end_turn"
    # The next prompt goes on its own: the blocked one is not in what the model sees.
    assert [texts(m) for m in model.requests[0].messages] == [["hello"]]
    assert session.title == "hello"
    # A PreCompact hook that blocks stops a `/compact`.
    assert await session.prompt(text("/compact"), live) == "end_turn"
    assert len(model.requests) == 1
    assert hook_runs(live)[-1].text.startswith("PreCompact hook blocked the compaction: not today")
    assert not any(line["type"] == "context/compaction" for line in log_lines(session, home))
    assert session.replay() == live.without_progress()


async def test_stop_hooks_keep_the_model_going_five_times_in_a_row_at_most(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    record, inputs = recorder(tmp_path)
    lint = bash_hook(tmp_path, "lint", "cat >/dev/null; echo 'Run the linter first.' >&2; exit 2\n")
    settings = user_hooks(home, ws, {"Stop": [group(lint), group(record)]})
    model = script(*({"text": f"Done {n}."} for n in range(10)))
    session = sessions.create(ws, config(model, settings))
    live = Recorder()
    assert await session.prompt(text("fix it"), live) == "end_turn"

    assert len(model.requests) == 1 + MAX_STOP_CONTINUATIONS
    for request in model.requests[1:]:
        last = request.messages[-1]
        assert isinstance(last, UserMessage)
        assert texts(last) == [f"Stop hook feedback from `{lint}`:\nRun the linter first."]
    active = [i["stop_hook_active"] for i in recorded(inputs)]
    assert active == [False] + [True] * MAX_STOP_CONTINUATIONS
    unfollowed = [n for n in hook_runs(live) if n.command == lint][-1]
    assert unfollowed.message is not None and unfollowed.message.endswith(
        "not followed: Stop hooks already made the model go on 5 times in a row"
    )
    # A new prompt starts counting again; the unfollowed feedback is not said to the model.
    assert await session.prompt(text("again"), live) == "end_turn"
    assert texts(model.requests[6].messages[-1]) == ["again"]


async def test_continue_false_stops_the_turn(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    stop = python_hook(
        tmp_path,
        "stop",
        "import json\nprint(json.dumps({'continue': False, 'stopReason': 'Out of budget.'}))\n",
    )
    settings = user_hooks(home, ws, {"PreToolUse": [group(stop)]})
    model = script({"toolCalls": [call("c1", "bash", {"command": "echo hi"})]}, {"text": "never"})
    session = sessions.create(ws, config(model, settings))
    live = Recorder()
    assert await session.prompt(text("go"), live) == "end_turn"
    assert len(model.requests) == 1
    [notice] = hook_runs(live)
    assert notice.text.startswith("PreToolUse hook stopped the turn: Out of budget.")
    [done] = [u for u in live.updates if isinstance(u, ToolCallFinished)]
    assert done.status == "failed" and "stopped the turn: Out of budget." in done.result.text()


async def test_hooks_that_hang_or_flood_do_not_stop_the_session(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    marker = unique_marker("hook-hang")
    hang = bash_hook(tmp_path, "hang", f"exec -a {marker} sleep 300\n")
    flood = python_hook(
        tmp_path,
        "flood",
        "import sys\nsys.stdin.read()\nchunk = 'y' * (1024 * 1024)\n"
        "for _ in range(10):\n    sys.stdout.write(chunk)\n    sys.stderr.write(chunk)\n",
    )
    settings = user_hooks(
        home,
        ws,
        {"PreToolUse": [group(hang, timeout=0.5)], "PostToolUse": [group(flood)]},
    )
    model = script({"toolCalls": [call("c1", "bash", {"command": "echo hi"})]}, {"text": "ok"})
    session = sessions.create(ws, config(model, settings))
    live = Recorder()
    assert await session.prompt(text("go"), live) == "end_turn"
    assert processes_with(marker) == []
    hung, flooded = hook_runs(live)
    assert hung.failed and hung.message == "timed out after 0.5 s; its process group was killed"
    assert not flooded.failed and flooded.exit_code == 0
    # The call ran after the hook was killed, and the model never saw the 10 MB.
    [done] = [u for u in live.updates if isinstance(u, ToolCallFinished)]
    assert done.status == "completed"
    assert sum(len(t) for m in model.requests[1].messages for t in texts(m)) < 10_000
    runs = [line for line in log_lines(session, home) if line["type"] == "hook/run"]
    assert all(len(json.dumps(line)) < 10_000 for line in runs)
    assert runs[1]["stdout"].endswith("more bytes)")


async def test_project_hooks_wait_for_trust_and_come_from_claude_settings_too(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    guard = bash_hook(tmp_path, "guard", GUARD)
    (ws / ".claude").mkdir()
    (ws / ".claude/settings.json").write_text(
        json.dumps(
            {
                "permissions": {"allow": ["Bash(npm test)"]},
                "hooks": {"PreToolUse": [group(guard, matcher="Bash")]},
            }
        )
    )

    untrusted = load_settings(ws, home)
    assert untrusted.hooks == () and not untrusted.problems
    assert untrusted.trust.withheld == (
        "allow bash(npm test) (.claude/settings.json)",
        "hooks (1) (.claude/settings.json)",
    )
    model = script({"toolCalls": [call("c1", "bash", {"command": "rm -rf junk"})]})
    (ws / "junk").mkdir()
    session = sessions.create(ws, config(model, untrusted))
    assert await session.prompt(text("clean"), Recorder()) == "end_turn"
    assert not (ws / "junk").exists()  # no hook ran: the workspace is not trusted

    trusted = load_settings(ws, home, trusted=True)
    [entry] = trusted.hooks
    assert entry.source.path == ws / ".claude/settings.json"
    model = script({"toolCalls": [call("c1", "bash", {"command": "rm -rf junk"})]})
    (ws / "junk").mkdir()
    session = sessions.create(ws, config(model, trusted))
    live = Recorder()
    assert await session.prompt(text("clean"), live) == "end_turn"
    assert (ws / "junk").is_dir()
    assert hook_runs(live)[0].decision == "deny"
    # A change to Claude Code's file is a change to the workspace: its trust is asked again.
    assert trusted.trust.fingerprint == untrusted.trust.fingerprint
    (ws / ".claude/settings.local.json").write_text("{}")
    assert load_settings(ws, home).trust.fingerprint != untrusted.trust.fingerprint


async def test_an_agent_is_kept_going_by_subagent_stop(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    once = bash_hook(
        tmp_path,
        "once",
        f"cat >/dev/null; if [ ! -e {tmp_path}/told ]; then touch {tmp_path}/told; "
        'echo "Check the tests too." >&2; exit 2; fi\n',
    )
    record, inputs = recorder(tmp_path)
    settings = user_hooks(home, ws, {"SubagentStop": [group(once)], "Stop": [group(record)]})
    model = ScriptModel.from_json(
        json.dumps(
            {
                "turns": [
                    {"toolCalls": [call("t1", "task", {"description": "d", "prompt": "look"})]},
                    {"text": "Parent done."},
                ],
                "tasks": {"t1": {"turns": [{"text": "First look."}, {"text": "Tests too."}]}},
            }
        )
    )
    session = sessions.create(
        ws, config(model, settings, tools=default_tools(SandboxPolicy("off")))
    )
    live = Recorder()
    assert await session.prompt(text("go"), live) == "end_turn"
    [done] = [u for u in live.updates if isinstance(u, ToolCallFinished)]
    assert done.result.text().startswith("Tests too.")
    # The parent's Stop ran once; the child's hooks are in the child's log.
    assert [i["hook_event_name"] for i in recorded(inputs)] == ["Stop"]
    child_id = next(s.id for s in SessionStore(home).list_sessions() if s.parent is not None)
    child_lines = [
        json.loads(line)
        for line in (home / "sessions" / f"{child_id}.jsonl").read_text().splitlines()
    ]
    runs = [line for line in child_lines if line["type"] == "hook/run"]
    assert [(r["event"], r.get("decision")) for r in runs] == [
        ("SubagentStop", "block"),
        ("SubagentStop", None),
    ]


async def test_post_tool_use_reads_claude_code_s_fields(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    record, inputs = recorder(tmp_path)
    settings = user_hooks(home, ws, {"PostToolUse": [group(record, matcher="Write|Bash")]})
    model = script(
        {
            "toolCalls": [
                call("w1", "write", {"file_path": "notes/todo.txt", "content": "milk\n"}),
                call("b1", "bash", {"command": "printf hi"}),
            ]
        },
        {"text": "Done."},
    )
    tools = default_tools(SandboxPolicy("off"))
    session = sessions.create(ws, config(model, settings, tools=tools))
    assert await session.prompt(text("note it"), Recorder()) == "end_turn"
    by_tool = {i["tool_name"]: i for i in recorded(inputs)}  # the calls ran side by side
    wrote, ran = by_tool["Write"], by_tool["Bash"]
    path = str(ws / "notes/todo.txt")
    assert (wrote["tool_name"], wrote["tool_input"]["file_path"]) == ("Write", path)
    assert (wrote["tool_response"]["filePath"], wrote["tool_response"]["success"]) == (path, True)
    assert ran["tool_name"] == "Bash"
    response = ran["tool_response"]
    assert (response["stdout"], response["stderr"], response["interrupted"]) == ("hi", "", False)
    assert response["meta"]["exitCode"] == 0  # tether's own result is there too


async def test_a_hook_s_allow_lets_through_only_what_an_allow_rule_could(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    allow = python_hook(
        tmp_path,
        "allow",
        "import json, sys\nsys.stdin.read()\n"
        "print(json.dumps({'hookSpecificOutput': {'permissionDecision': 'allow'}}))\n",
    )
    settings = user_hooks(home, ws, {"PreToolUse": [group(allow)]})
    lines = {
        "c1": "echo plain",
        "c2": "echo $(echo hidden)",  # a substitution: no allow rule can allow it
        "c3": 'X=true; eval "$X"',  # what eval runs is not known before it runs
        "c4": "source ./x.sh",
    }
    model = script(
        {"toolCalls": [call(i, "bash", {"command": c}) for i, c in lines.items()]},
        {"text": "done"},
    )
    asker = Always("reject")
    session = sessions.create(ws, config(model, settings, mode="ask", asker=asker))
    assert await session.prompt(text("go"), Recorder()) == "end_turn"
    results = results_of(model, 1)
    assert not results["c1"].is_error and texts(results["c1"])[0].startswith("plain")
    # The others are asked about, as ask mode asks about any command no rule allows.
    assert sorted(q.subject.tool_call_id for q in asker.requests) == ["c2", "c3", "c4"]
    for call_id in ("c2", "c3", "c4"):
        assert results[call_id].is_error and "rejected" in texts(results[call_id])[0]


async def test_agents_start_and_stop_with_their_ids_and_transcript(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    record, inputs = recorder(tmp_path)
    advise = bash_hook(
        tmp_path,
        "advise",
        "cat >/dev/null\n"
        'echo \'{"hookSpecificOutput": {"hookEventName": "SubagentStart", '
        '"additionalContext": "Use pnpm, not npm."}}\'\n',
    )
    hooks = {
        "SubagentStart": [group(record, matcher="general"), group(advise)],
        "SubagentStop": [group(record, matcher="general"), group(record, matcher="explore")],
    }
    settings = user_hooks(home, ws, hooks)
    model = ScriptModel.from_json(
        json.dumps(
            {
                "turns": [
                    {"toolCalls": [call("t1", "task", {"description": "d", "prompt": "look"})]},
                    {"text": "Parent done."},
                ],
                "tasks": {"t1": {"turns": [{"text": "Looked."}]}},
            }
        )
    )
    session = sessions.create(
        ws, config(model, settings, tools=default_tools(SandboxPolicy("off")))
    )
    assert await session.prompt(text("go"), Recorder()) == "end_turn"
    child_id = next(s.id for s in SessionStore(home).list_sessions() if s.parent is not None)
    start, stop = recorded(inputs)
    assert start["hook_event_name"] == "SubagentStart"
    assert (start["agent_id"], start["agent_type"]) == (child_id, "general")
    assert stop["hook_event_name"] == "SubagentStop" and stop["agent_type"] == "general"
    assert stop["agent_id"] == child_id and stop["stop_hook_active"] is False
    transcript = home / "sessions" / "transcripts" / f"{child_id}.jsonl"
    assert stop["agent_transcript_path"] == str(transcript)
    # Claude Code's shape: the agent's prompt, then its answer, as a sidechain.
    lines = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert [(line["type"], line["isSidechain"]) for line in lines] == [
        ("user", True),
        ("assistant", True),
    ]
    assert lines[1]["message"]["content"] == [{"type": "text", "text": "Looked."}]
    assert lines[1]["parentUuid"] == lines[0]["uuid"] and lines[0]["sessionId"] == child_id
    # The matcher is the agent's name: the `explore` group did not run.
    assert len(recorded(inputs)) == 2
    # What SubagentStart added is the agent's context, given to its model with its prompt.
    child_lines = [
        json.loads(line)
        for line in (home / "sessions" / f"{child_id}.jsonl").read_text().splitlines()
    ]
    [added] = [r for r in child_lines if r["type"] == "hook/run" and r.get("context")]
    assert added["event"] == "SubagentStart" and "Use pnpm, not npm." in added["context"]


async def test_post_tool_use_failure_tells_the_model_after_a_failed_call(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    record, inputs = recorder(tmp_path)
    hint = bash_hook(
        tmp_path, "hint", "cat >/dev/null; echo 'Create the file first.' >&2; exit 2\n"
    )
    settings = user_hooks(
        home,
        ws,
        {
            "PostToolUseFailure": [group(record, matcher="Read"), group(hint)],
            "PostToolUse": [group(record)],
        },
    )
    model = script(
        {"toolCalls": [call("c1", "read", {"path": "missing.txt"})]},
        {"text": "done"},
    )
    tools = default_tools(SandboxPolicy("off"))
    session = sessions.create(ws, config(model, settings, tools=tools))
    assert await session.prompt(text("go"), Recorder()) == "end_turn"
    [failed] = recorded(inputs)
    assert failed["hook_event_name"] == "PostToolUseFailure" and failed["tool_name"] == "Read"
    assert failed["tool_use_id"] == "c1" and failed["is_interrupt"] is False
    assert "missing.txt" in failed["error"]
    result = results_of(model, 1)["c1"]
    assert result.is_error
    told = "\n".join(t for m in model.requests[1].messages for t in texts(m))
    assert "PostToolUseFailure hook feedback" in told and "Create the file first." in told


async def test_a_permission_request_hook_answers_only_what_a_rule_could(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    decide = python_hook(
        tmp_path,
        "decide",
        "import json, sys\n"
        "data = json.load(sys.stdin)\n"
        "target = json.dumps(data['tool_input'])\n"
        "if 'secret' in target:\n"
        "    answer = {'behavior': 'deny', 'message': 'Leave the secrets alone.'}\n"
        "else:\n"
        "    answer = {'behavior': 'allow'}\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PermissionRequest',\n"
        "    'decision': answer}}))\n",
    )
    settings = user_hooks(home, ws, {"PermissionRequest": [group(decide)]})
    model = script(
        {
            "toolCalls": [
                call("c1", "bash", {"command": "echo allowed"}),
                call("c2", "bash", {"command": "echo secret"}),
                # An edit of .git/config always asks: a hook cannot answer for the person.
                call("c3", "write", {"path": ".git/config", "content": "[core]\n"}),
            ]
        },
        {"text": "done"},
    )
    asker = Always("reject")
    tools = default_tools(SandboxPolicy("off"))
    session = sessions.create(ws, config(model, settings, mode="ask", asker=asker, tools=tools))
    assert await session.prompt(text("go"), Recorder()) == "end_turn"
    results = results_of(model, 1)
    assert not results["c1"].is_error and texts(results["c1"])[0].startswith("allowed")
    assert results["c2"].is_error and "Leave the secrets alone." in texts(results["c2"])[0]
    assert results["c3"].is_error and "rejected" in texts(results["c3"])[0]
    assert [q.subject.tool_call_id for q in asker.requests] == ["c3"]
    runs = [line for line in log_lines(session, home) if line["type"] == "hook/run"]
    [unfollowed] = [r for r in runs if r.get("toolCallId") == "c3"]
    assert unfollowed["note"].startswith("not followed: only a person may allow this")


async def test_a_permission_request_hook_does_not_answer_an_agent_s_question(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    record, inputs = recorder(tmp_path)
    allow = python_hook(
        tmp_path,
        "allow",
        "import json, sys\nsys.stdin.read()\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PermissionRequest',\n"
        "    'decision': {'behavior': 'allow'}}}))\n",
    )
    settings = user_hooks(
        home, ws, {"PermissionRequest": [group(allow), group(record, sandbox=False)]}
    )
    model = ScriptModel.from_json(
        json.dumps(
            {
                "turns": [
                    {"toolCalls": [call("t1", "task", {"description": "d", "prompt": "run"})]},
                    {"text": "Parent done."},
                ],
                "tasks": {
                    "t1": {
                        "turns": [
                            {"toolCalls": [call("c1", "bash", {"command": "echo child"})]},
                            {"text": "Child done."},
                        ]
                    }
                },
            }
        )
    )
    asker = Always("reject")
    tools = default_tools(SandboxPolicy("off"))
    session = sessions.create(ws, config(model, settings, mode="ask", asker=asker, tools=tools))
    assert await session.prompt(text("go"), Recorder()) == "end_turn"
    # The agent's command was asked about (the person said no); no hook answered for them.
    [question] = asker.requests
    assert question.title.endswith("echo child")
    assert recorded(inputs) == []


async def test_hooks_run_by_a_question_and_an_automatic_compaction_reach_the_prompt_s_output(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    # The four hooks that run outside the loop's own steps: in the asker (`PermissionRequest`,
    # `Notification`) and in the context's compaction (`PreCompact` auto, `SessionStart`
    # compact). Each one's notice is shown to the prompt that ran it, live.
    said = bash_hook(tmp_path, "said", "cat > /dev/null; echo 'Noted.'\n")
    settings = user_hooks(
        home,
        ws,
        {
            "PermissionRequest": [group(said)],
            "Notification": [group(said)],
            "PreCompact": [group(said)],
            "SessionStart": [group(said, matcher="compact")],
        },
    )
    model = script(
        {"toolCalls": [call("c1", "bash", {"command": "echo hi", "description": "Say hi"})]},
        # So large a request passes the threshold: the next prompt compacts first.
        {"text": "Said hi.", "usage": {"inputTokens": 31_000, "outputTokens": 10}},
        {"text": "We said hi."},  # the summary
        {"text": "Nothing else."},
    )
    session = sessions.create(
        ws, config(model, settings, mode="ask", asker=Always(), context_window=32_000)
    )
    first, second = Recorder(), Recorder()
    assert await session.prompt(text("say hi"), first) == "end_turn"
    assert await session.prompt(text("anything else?"), second) == "end_turn"

    assert [n.event for n in hook_runs(first)] == ["PermissionRequest", "Notification"]
    assert [n.event for n in hook_runs(second)] == ["PreCompact", "SessionStart"]
    compacting = [line for line in log_lines(session, home) if line["type"] == "hook/run"]
    assert [r["event"] for r in compacting] == [
        "PermissionRequest",
        "Notification",
        "PreCompact",
        "SessionStart",
    ]
    # What was shown live is what a replay shows.
    assert session.replay() == first.without_progress() + second.without_progress()


@dataclass(frozen=True)
class _Command:
    """A command file with no front matter (`tether.session.commanded.CommandFile`)."""

    name: str = "status"
    source: Path | None = None
    scope: str | None = None
    allowed_tools: tuple[str, ...] = ()
    model: str | None = None


async def test_a_command_s_shell_line_asks_through_the_hooks_and_shows_their_notice(
    home: Path, ws: Path, sessions: Sessions, tmp_path: Path
) -> None:
    # A `!` line of a command runs before its prompt; its question runs the `Notification`
    # hooks, whose notice goes to the output of the prompt the command makes.
    said = bash_hook(tmp_path, "said", "cat > /dev/null; echo 'Noted.'\n")
    settings = user_hooks(home, ws, {"Notification": [group(said)]})
    model = script({"text": "All clean."})
    asker = Always()
    session = sessions.create(ws, config(model, settings, mode="ask", asker=asker))
    shown = Recorder()
    prepared = await prepare_command(
        session, "Status: !`echo ran`", _Command(), shown, asyncio.Event()
    )
    assert await session.prompt(prepared.content, shown) == "end_turn"
    assert [q.title for q in asker.requests] == ["echo ran"]
    assert [n.event for n in hook_runs(shown)] == ["Notification"]
    assert session.replay() == shown.without_progress()
