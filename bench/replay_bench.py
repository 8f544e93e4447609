"""Benchmark loading a session log and deriving every card, against plain `json.loads`.

Builds, in a temporary directory removed afterwards, a session log of 100,000 events with a
realistic mix (turns of streamed text, reads with meta windows, edits with diffs, bash runs),
from results made by the real tools. Then, in the same run, alternates:
- load + replay: `read_log` (validated events) and `replay` (every card, through the tools'
  presenters), which is what `tether show` and ACP `session/load` do;
- baseline: `json.loads` of every line of the same file.
Prints the medians and their ratio. Goal: ratio <= 3.

Usage: python bench/replay_bench.py [--events N] [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tether.content import TextContent
from tether.session import SessionStore
from tether.session.log.eventlog import read_log
from tether.session.log.events import (
    AssistantChunk,
    AssistantMessageEvent,
    ToolCallEvent,
    ToolCallRecord,
    ToolResultEvent,
    TurnEnd,
    TurnStart,
    UserMessageEvent,
)
from tether.session.replay import replay
from tether.tools import AllowAll, ToolContext, ToolResult, Workspace, invoke, parse_arguments
from tether.tools.defaults import default_tools


async def sample_results(workspace: Path) -> list[tuple[str, str, ToolResult]]:
    """One real result per kind of call: (tool name, raw arguments, result)."""
    source = "".join(f"    value_{i} = compute({i}, 'item {i}')  # step {i}\n" for i in range(400))
    (workspace / "module.py").write_text("def run():\n" + source)
    calls = [
        ("read", {"path": "module.py"}),
        ("read", {"path": "module.py", "offset": 120, "limit": 60}),
        ("edit", {"path": "module.py", "old_string": "step 7\n", "new_string": "step seven\n"}),
        ("bash", {"command": "seq 1 80 | sed 's/^/output line /'", "description": "List"}),
        ("read", {"path": "missing.py"}),
    ]
    tools = default_tools()
    ctx = ToolContext(workspace=Workspace.at(workspace), gate=AllowAll())
    samples = []
    for name, arguments in calls:
        tool = tools.get(name)
        assert tool is not None
        raw = json.dumps(arguments)
        args = parse_arguments(tool, raw)
        assert not isinstance(args, ToolResult)
        samples.append((name, raw, await invoke(tool, args, ctx)))
    return samples


def build_log(path: Path, workspace: Path, events: int) -> int:
    """Write a log of about `events` events; returns the exact count."""
    samples = asyncio.run(sample_results(workspace))
    store = SessionStore(path)
    log = store.create(workspace)
    call_number = 0
    while len(log.events) < events:
        log.append(TurnStart())
        log.append(UserMessageEvent(content=(TextContent(text="Please fix the failing step."),)))
        for step in range(8):
            for chunk in ("Looking at ", "the module ", "now."):
                log.append(AssistantChunk(text=chunk))
            name, raw, result = samples[(call_number + step) % len(samples)]
            call_id = f"call_{call_number}"
            call_number += 1
            record = ToolCallRecord(id=call_id, name=name, arguments=raw)
            log.append(
                AssistantMessageEvent(text="Looking at the module now.", tool_calls=(record,))
            )
            log.append(ToolCallEvent(tool_call_id=call_id, name=name, arguments=raw))
            log.append(
                ToolResultEvent(
                    tool_call_id=call_id,
                    content=result.content,
                    is_error=result.is_error,
                    meta=result.meta,
                )
            )
        log.append(AssistantMessageEvent(text="Done."))
        log.append(TurnEnd(stop_reason="end_turn"))
    log.close()
    return len(log.events)


def load_and_replay(path: Path) -> int:
    """What `tether show` does: validated events, then every update with its cards."""
    contents = read_log(path)
    return len(replay(contents.events, default_tools(), contents.header.cwd))


def plain_json(path: Path) -> int:
    """The baseline: parse every line, nothing more."""
    return len([json.loads(line) for line in path.read_bytes().splitlines()])


def median_time(function: Any, path: Path, runs: int) -> float:
    """The median wall time of `function(path)` over `runs` runs."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function(path)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Build the log, time both paths alternately, print medians and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "ws").mkdir()
        count = build_log(root / "home", root / "ws", options.events)
        [path] = (root / "home" / "sessions").glob("*.jsonl")
        size = path.stat().st_size
        load_and_replay(path)  # warm the page cache and the imports
        replayed: list[float] = []
        baseline: list[float] = []
        for _ in range(options.runs):
            replayed.append(median_time(load_and_replay, path, 1))
            baseline.append(median_time(plain_json, path, 1))
        ours, theirs = statistics.median(replayed), statistics.median(baseline)
        print(f"log: {count} events, {size / 1e6:.1f} MB")
        print(f"load + replay (all cards): median {ours * 1000:.0f} ms")
        print(f"json.loads of every line: median {theirs * 1000:.0f} ms")
        print(f"ratio: {ours / theirs:.2f} (goal <= 3)")


if __name__ == "__main__":
    main()
