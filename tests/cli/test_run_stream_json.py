"""`tether run --output-format stream-json|json`: every stdout line is one JSON object that
the pinned schema accepts: `init`, every update as `show --json` lists it, then `result`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.cli.in_process import tether_in_process
from tests.cli.stream_lines import lines_of
from tests.cli.support import TETHER, scripted_model
from tests.tools.web.search_api import Hit, env_for, ok_reply, serve_api
from tests.tools.web.server import reply, serve


def cards(lines: list[dict[str, Any]]) -> set[str]:
    """The cards the updates carry: `call:generic`, `result:search/paths`, `result:web/fetch`."""
    seen = set()
    for line in lines:
        view = line.get("view")
        if view is None:
            continue
        side = "call" if line["type"] == "tool_call_started" else "result"
        sub = view.get("shape") or (view.get("kind") if view["card"] == "web" else None)
        seen.add(f"{side}:{view['card']}" + (f"/{sub}" if sub else ""))
    return seen


def test_stream_json_carries_every_card_and_matches_show(
    tmp_path: Path, ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (ws / "a.py").write_text("def one():\n    return 1\n")
    with serve() as pages, serve_api() as api:
        pages.routes["/doc"] = lambda h: reply(h, 200, b"<title>Doc</title><p>Body.</p>")
        for name, value in env_for("searxng", api).items():
            monkeypatch.setenv(name, value)
        api.answer(ok_reply("searxng", [Hit("Result", "https://example.org/", "About it")]))
        model = scripted_model(
            tmp_path / "s.json",
            {
                "text": "Looking around.",
                "toolCalls": [
                    {"id": "r1", "name": "read", "arguments": {"path": "a.py"}},
                    {"id": "g1", "name": "grep", "arguments": {"pattern": "def"}},
                    {"id": "g2", "name": "glob", "arguments": {"pattern": "*.py"}},
                    {"id": "b1", "name": "bash", "arguments": {"command": "echo hi"}},
                    {"id": "f1", "name": "web_fetch", "arguments": {"url": pages.url("/doc")}},
                    {"id": "s1", "name": "web_search", "arguments": {"query": "tether"}},
                    {"id": "t1", "name": "task", "arguments": {"description": "d", "prompt": "p"}},
                    {"id": "n1", "name": "no_such_tool", "arguments": {}},
                ],
                "usage": {"inputTokens": 100, "outputTokens": 10},
            },
            {
                "toolCalls": [
                    {
                        "id": "e1",
                        "name": "edit",
                        "arguments": {"path": "a.py", "old_string": "1", "new_string": "2"},
                    },
                    {"id": "w1", "name": "write", "arguments": {"path": "b.txt", "content": "b\n"}},
                ],
                "usage": {"inputTokens": 200, "outputTokens": 20, "cachedReadTokens": 90},
            },
            {"text": "All done.", "usage": {"inputTokens": 300, "outputTokens": 5}},
        )
        args = ["--model", model, "--cwd", str(ws), "--mode", "auto", "--allow-private-fetch"]
        run = tether_in_process(home, "run", "look", *args, "--output-format", "stream-json")
    assert run.returncode == 0, run.stderr
    lines = lines_of(run.stdout)
    init, *updates, result = lines
    assert init["type"] == "init" and result["type"] == "result"
    assert (init["cwd"], init["mode"], init["model"]) == (str(ws), "auto", model)
    assert init["sandbox"] == {"mode": "workspace-write", "allowNetwork": False}
    assert {"read", "edit", "write", "bash", "grep", "glob", "web_fetch", "web_search"} <= set(
        init["tools"]
    )
    assert "exit_plan_mode" not in init["tools"]  # offered in plan mode alone
    # Every line has `type`, the one field a reader switches on; an update's is its `kind`.
    assert all(u["type"] == u["kind"] for u in updates)
    assert cards(updates) == {
        "call:generic",
        "call:terminal",
        "call:diff",
        "result:generic",
        "result:terminal",
        "result:diff",
        "result:read",
        "result:search/matches",
        "result:search/paths",
        "result:web/fetch",
        "result:web/search",
        "result:task",
    }
    assert result == {
        "type": "result",
        "sessionId": init["sessionId"],
        "stopReason": "end_turn",
        "isError": False,
        "result": "All done.",
        "usage": {"inputTokens": 600, "outputTokens": 35, "cachedReadTokens": 90},
        "durationMs": result["durationMs"],
        "numTurns": 3,
    }
    assert result["durationMs"] >= 0
    # The same updates `show --json` replays from the log (but those it cannot know: a
    # command's progress is live only, and the context's size needs the model's window).
    shown = json.loads(tether_in_process(home, "show", init["sessionId"], "--json").stdout)[
        "updates"
    ]
    live = {"tool_call_progress", "usage_changed"}
    kept = [{k: v for k, v in u.items() if k != "type"} for u in updates if u["type"] not in live]
    assert kept == shown
    assert [u["used"] for u in updates if u["type"] == "usage_changed"] == [110, 220, 305]
    assert (ws / "b.txt").read_text() == "b\n"


def test_a_failing_model_and_a_refused_call_end_with_an_error_result(
    tmp_path: Path, ws: Path
) -> None:
    home = tmp_path / "home"
    failing = scripted_model(
        tmp_path / "f.json", {"text": "Let me", "error": "the API key was rejected"}
    )
    run = tether_in_process(
        home, "run", "hi", "--model", failing, "--cwd", str(ws), "--output-format=stream-json"
    )
    assert run.returncode == 1, run.stderr
    lines = lines_of(run.stdout)
    assert [line["type"] for line in lines] == [
        "init",
        "user_text",
        "title_changed",
        "turn_failed",
        "result",
    ]
    assert lines[-1]["stopReason"] == "error" and lines[-1]["isError"] is True
    assert lines[-1]["error"] == lines[-2]["message"] == "the API key was rejected"
    assert lines[-1]["numTurns"] == 0

    # `json` prints the result object alone; a call the mode does not allow is refused
    # (no one is asked) and the run says it did not do what was asked.
    asks = scripted_model(
        tmp_path / "a.json",
        {"toolCalls": [{"id": "c1", "name": "bash", "arguments": {"command": "touch x"}}]},
        {"text": "It was refused."},
    )
    run = tether_in_process(
        home, "run", "make x", "--model", asks, "--cwd", str(ws), "--output-format", "json"
    )
    assert run.returncode == 2, run.stderr
    [result] = lines_of(run.stdout)
    assert result["type"] == "result" and result["isError"] is True
    assert (result["stopReason"], result["result"], result["numTurns"]) == (
        "end_turn",
        "It was refused.",
        2,
    )
    assert not (ws / "x").exists()


def test_a_cancelled_run_streams_its_cancelled_turn_and_result(tmp_path: Path, ws: Path) -> None:
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "c1", "name": "bash", "arguments": {"command": "sleep 60"}}]},
        {"text": "never"},
    )
    env = {**os.environ, "TETHER_HOME": str(tmp_path / "home")}
    args = ["run", "wait", "--model", model, "--cwd", str(ws), "--mode", "auto"]
    with subprocess.Popen(
        [str(TETHER), *args, "--output-format", "stream-json"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None
        seen: list[str] = []
        # Read until the command runs (a line per update, as it happens), then interrupt.
        for text in process.stdout:
            seen.append(text)
            if '"kind":"tool_call_started"' in text:
                break
        timer = threading.Timer(0.3, process.send_signal, (signal.SIGINT,))
        timer.start()
        rest, errors = process.communicate(timeout=60)
        timer.join()
    assert process.returncode == 130, errors
    lines = lines_of("".join(seen) + rest)
    finished = [line for line in lines if line.get("kind") == "tool_call_finished"]
    assert [f["status"] for f in finished] == ["failed"]
    assert lines[-2] == {"type": "turn_ended", "kind": "turn_ended", "stopReason": "cancelled"}
    assert lines[-1]["type"] == "result"
    assert (lines[-1]["stopReason"], lines[-1]["isError"]) == ("cancelled", True)
