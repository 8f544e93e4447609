"""A long headless session in a small window: usage, compaction, the budget line, replay."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

from tests.cli.in_process import tether_in_process
from tests.cli.support import tether
from tests.session.helpers import Sessions
from tether.content import TextContent
from tether.models.messages import AssistantMessage, ToolCall
from tether.models.script import ScriptModel, ScriptTurn
from tether.sandbox.policy import SandboxPolicy
from tether.session import SessionConfig
from tether.session.context.budget import (
    DEFAULT_COMPACT_AT,
    TARGET_SHARE,
    message_chars,
    request_chars,
    tokens,
)
from tether.tools.defaults import default_tools

WINDOW = 12000
"""Small enough that 300 reads need both methods: the system prompt and the tools' schemas
take about 5,100 tokens of it, which leaves room for a few results beside them."""
TURNS = 300
ESTIMATE = re.compile(r"request estimate: (\d+) of (\d+) tokens")


def _workspace(ws: Path) -> None:
    ws.mkdir()
    for n in range(40):
        body = "".join(f"def f{n}_{j}(x):\n    return x * {j}  # line {j}\n" for j in range(30))
        (ws / f"f{n}.py").write_text(body)


def _turns() -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = [
        {
            "text": f"Reading f{i % 40}.py (step {i}).",
            "toolCalls": [{"id": f"c{i}", "name": "read", "arguments": {"path": f"f{i % 40}.py"}}],
        }
        for i in range(TURNS)
    ]
    return [*turns, {"text": "All files read."}]


async def _measured_usage(
    home: Path, ws: Path, turns: list[dict[str, Any]], script: Path
) -> list[dict[str, int]]:
    """What each request of the same session weighs, as the usage a provider would report.

    The session is run once in-process without usage; each request's size (and its reply's)
    becomes the usage the scripted turn reports in the real run.
    """
    # Named as `--model script:FILE` names it: the system prompt states the model, and a
    # request a few tokens lighter than the real run's moves a compaction by a step whenever
    # an estimate falls that close to the threshold, after which no usage matches its request.
    model = ScriptModel([ScriptTurn.model_validate(t) for t in turns], name=f"script:{script}")
    # No sandbox in either run (nothing runs bash): the system prompt then does not depend on
    # whether each process's probe found that bubblewrap works, which a loaded machine can
    # make it miss.
    tools = default_tools(SandboxPolicy(mode="off"))
    config = SessionConfig(
        model=model, tools=tools, mode="auto", max_steps=400, context_window=WINDOW
    )
    with Sessions(home) as sessions:
        session = sessions.create(ws, config)
        await session.prompt([TextContent(text="read everything")], lambda _update: None)
    usage = []
    for request, turn in zip(model.requests, model.turns, strict=False):
        calls = tuple(ToolCall(c.id, c.name, c.raw_arguments()) for c in turn.tool_calls)
        reply = AssistantMessage(turn.text, calls)
        usage.append(
            {
                "inputTokens": tokens(request_chars(request)),
                "outputTokens": tokens(message_chars(reply)),
            }
        )
    return usage


async def test_a_300_turn_session_in_a_12000_token_window_runs_to_the_end(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    _workspace(ws)
    turns = _turns()
    script = tmp_path / "script.json"
    usage = await _measured_usage(tmp_path / "measure", ws.resolve(), turns, script)
    for turn, reported in zip(turns, usage, strict=False):
        turn["usage"] = reported
    script.write_text(json.dumps({"turns": turns}))
    home = tmp_path / "home"

    run = tether(
        home,
        "-v",
        "run",
        "read everything",
        "--model",
        f"script:{script}",
        "--cwd",
        str(ws),
        "--mode",
        "auto",
        "--context-window",
        str(WINDOW),
        "--max-steps",
        "400",
        "--sandbox",
        "off",
    )
    assert run.returncode == 0, run.stderr[-2000:]

    [log] = (home / "sessions").glob("*.jsonl")
    events = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    compactions = [e for e in events if e["type"] == "context/compaction"]
    methods = {e["method"] for e in compactions}
    # Pruning can make room only when what is always sent leaves some: each new tool makes
    # the first request heavier, and once it passes the target every compaction summarises.
    found = ESTIMATE.search(run.stderr)
    assert found is not None, run.stderr[-2000:]
    first, target = int(found[1]), int(WINDOW * DEFAULT_COMPACT_AT * TARGET_SHARE)
    assert first < target - 1000, f"{first} tokens always sent leave no room in {WINDOW}"
    assert methods == {"prune", "summary"}
    for event in compactions:
        assert event["afterTokens"] < event["beforeTokens"]
        assert event["throughSeq"] < event["seq"]
    assert all("summary" in e for e in compactions if e["method"] == "summary")
    # Every scripted turn answered a request: the conversation's or a summary's.
    assert sum(e["type"] == "model/usage" for e in events) == len(turns)

    estimates = [int(m[1]) for m in ESTIMATE.finditer(run.stderr)]
    assert {int(m[2]) for m in ESTIMATE.finditer(run.stderr)} == {WINDOW}
    summaries = sum(e["method"] == "summary" for e in compactions)
    assert len(estimates) == len(turns) - summaries
    assert max(estimates) <= WINDOW
    # The estimate against the usage the next response reports for the same request.
    answered = [
        e
        for previous, e in itertools.pairwise(events)
        if e["type"] == "model/usage" and previous["type"] == "assistant/message"
    ]
    errors = [
        abs(estimate - reported["inputTokens"]) / reported["inputTokens"]
        for estimate, reported in zip(estimates, answered, strict=True)
    ]
    print(f"estimate error: mean {sum(errors) / len(errors):.2%}, max {max(errors):.2%}")
    # Both runs sent the same first request, counted from its characters alone.
    assert estimates[0] == answered[0]["inputTokens"]
    assert max(errors) < 0.01

    budget = re.findall(rf"(\d+(?:\.\d)?k?) / {WINDOW // 1000}k tokens", run.stderr)
    assert len(budget) >= len(answered)
    notices = re.findall(r"context compacted by (prune|summary): \S+ → \S+ tokens", run.stdout)
    assert len(notices) == len(compactions)

    show = tether_in_process(home, "show", log.stem)
    assert show.returncode == 0, show.stderr
    assert show.stdout == run.stdout
