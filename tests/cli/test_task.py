"""Agents at the command line: `run` prints the task card, `sessions` and `show` find children."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.cli.in_process import tether_in_process
from tests.cli.terminal import Terminal
from tests.cli.tui import Tui
from tether.cli.sessions import session_tree
from tether.session.document import SESSION_DOCUMENT, SessionDocument
from tether.session.log.events import ParentLink
from tether.session.log.store import StoredSession


def test_run_show_and_sessions_with_an_agents_session(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    (ws / "client.py").write_text("def retry():\n    pass\n")
    script = tmp_path / "s.json"
    script.write_text(
        json.dumps(
            {
                "turns": [
                    {
                        "toolCalls": [
                            {
                                "id": "t1",
                                "name": "task",
                                "arguments": {
                                    "description": "find retry",
                                    "prompt": "Where is retry?",
                                    "agent": "explore",
                                },
                            }
                        ]
                    },
                    {"text": "It is in client.py."},
                ],
                "tasks": {
                    "t1": {
                        "turns": [
                            {
                                "toolCalls": [
                                    {"id": "r", "name": "read", "arguments": {"path": "client.py"}}
                                ],
                                "usage": {"inputTokens": 1200, "outputTokens": 100},
                            },
                            {
                                "text": "`retry` is defined at **client.py:1**.",
                                "usage": {"inputTokens": 1500, "outputTokens": 300},
                            },
                        ]
                    }
                },
            }
        )
    )
    run = tether_in_process(
        home, "run", "where is retry?", "--model", f"script:{script}", "--cwd", str(ws)
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    # The task card: the agent and its task, its report rendered, what it did and spent.
    assert " explore  find retry" in out
    assert "retry is defined at client.py:1." in out  # markdown rendered, not raw
    assert "1 call · 3.1k tokens · session " in out
    assert "done" in out
    assert "It is in client.py." in out

    rows: list[dict[str, Any]] = json.loads(tether_in_process(home, "sessions", "--json").stdout)
    parent, child = rows
    assert child["parent"] == {"id": parent["id"], "callId": "t1"}
    assert child["title"] == "explore: find retry"
    assert "parent" not in parent
    assert f"session {child['id']}" in out  # the card says which session to open

    table = tether_in_process(home, "sessions").stdout
    lines = table.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(parent["id"]))
    assert lines[at + 2].startswith(f"└ {child['id']}")  # under its parent (after its cwd)
    assert "explore: find retry" in lines[at + 2]
    top = tether_in_process(home, "sessions", "--top-level")
    assert child["id"] not in top.stdout and parent["id"] in top.stdout
    assert [
        r["id"]
        for r in json.loads(tether_in_process(home, "sessions", "--json", "--top-level").stdout)
    ] == [parent["id"]]

    # `show` of the parent prints the card as `run` did; `show` of the child its transcript.
    shown = tether_in_process(home, "show", parent["id"])
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == out
    child_shown = tether_in_process(home, "show", child["id"])
    assert child_shown.returncode == 0, child_shown.stderr
    assert "> Where is retry?" in child_shown.stdout
    assert "client.py  lines 1–2 of 2" in child_shown.stdout
    assert f"started by call t1 of session {parent['id']}" in child_shown.stderr


def _stored(session_id: str, created: str, parent: str | None = None) -> StoredSession:
    link = ParentLink(id=parent, call_id="c") if parent else None
    return StoredSession(
        id=session_id,
        cwd="/w",
        title=None,
        created_at=created,
        updated_at=created,
        turns=1,
        parent=link,
    )


def test_sessions_are_listed_as_a_tree_and_the_limit_counts_top_level_ones() -> None:
    newest_first = [
        _stored("new", "5"),
        _stored("grandchild", "4", parent="child-b"),
        _stored("child-b", "3", parent="old"),
        _stored("child-a", "2", parent="old"),
        _stored("orphan", "1.5", parent="deleted"),
        _stored("old", "1"),
    ]
    tree = [(info.id, depth) for info, depth in session_tree(newest_first)]
    assert tree == [
        ("new", 0),
        ("orphan", 0),  # its parent is gone: it stands on its own
        ("old", 0),
        ("child-a", 1),  # children in the order they started
        ("child-b", 1),
        ("grandchild", 2),
    ]
    # Links that loop are listed once each, not forever.
    looped = [_stored("a", "2", parent="b"), _stored("b", "1", parent="a")]
    assert sorted(info.id for info, _ in session_tree(looped)) == ["a", "b"]


def test_at_a_terminal_an_agents_question_shows_its_call_and_names_it(
    tmp_path: Path, ws: Path
) -> None:
    script = tmp_path / "s.json"
    script.write_text(
        json.dumps(
            {
                "turns": [
                    {
                        "toolCalls": [
                            {
                                "id": "t1",
                                "name": "task",
                                "arguments": {"description": "make it", "prompt": "Make the file."},
                            }
                        ]
                    },
                    {"text": "Made."},
                ],
                "tasks": {
                    "t1": {
                        "turns": [
                            {
                                "toolCalls": [
                                    {
                                        "id": "b",
                                        "name": "bash",
                                        "arguments": {"command": "touch made"},
                                    }
                                ]
                            },
                            {"text": "I made it."},
                        ]
                    }
                },
            }
        )
    )
    args = ["run", "make it", "--model", f"script:{script}", "--cwd", str(ws), "--sandbox", "off"]
    terminal = Terminal(tmp_path / "home", args)
    asked = terminal.wait_for("[n]o: ")
    # The card of what the agent would run, then the question naming the agent.
    assert "$ touch made" in asked
    assert "Allow general › touch made?" in asked
    terminal.type(b"y\n")
    assert terminal.finish() == 0
    assert (ws / "made").exists()
    assert "I made it." in terminal.text  # the task card's report


def test_the_show_document_of_an_agents_session_names_its_parent() -> None:
    link = ParentLink(id="p", call_id="t1")
    child = SessionDocument(id="c", cwd="/w", created_at="t", updates=[], parent=link)
    top = SessionDocument(id="p", cwd="/w", created_at="t", updates=[])
    assert SESSION_DOCUMENT.dump_python(child, mode="json", by_alias=True)["parent"] == {
        "id": "p",
        "callId": "t1",
    }
    assert "parent" not in SESSION_DOCUMENT.dump_python(top, mode="json", by_alias=True)


def test_usage_at_the_terminal_counts_each_agent_apart(tmp_path: Path, ws: Path) -> None:
    """`/usage` in the interactive terminal: the session's own requests per model, then what
    the children of each agent spent (a grandchild's tokens counted with its agent), and the
    total of all."""
    (ws / "client.py").write_text("def retry():\n    pass\n")
    call = {"description": "find retry", "prompt": "Where is retry?", "agent": "explore"}
    script = tmp_path / "s.json"
    script.write_text(
        json.dumps(
            {
                "turns": [
                    {
                        "toolCalls": [
                            {"id": "t1", "name": "task", "arguments": call},
                            {"id": "t2", "name": "task", "arguments": call},
                        ],
                        "usage": {"inputTokens": 500, "outputTokens": 20},
                    },
                    {"text": "Both found it.", "usage": {"inputTokens": 800, "outputTokens": 10}},
                ],
                "tasks": {
                    "t1": {
                        "turns": [
                            {
                                "text": "In client.py:1.",
                                "usage": {"inputTokens": 1200, "outputTokens": 30},
                            }
                        ]
                    },
                    "t2": {
                        "turns": [
                            {
                                "text": "client.py:1.",
                                "usage": {
                                    "inputTokens": 3000,
                                    "outputTokens": 40,
                                    "cachedReadTokens": 2000,
                                },
                            }
                        ]
                    },
                },
            }
        )
    )
    home = tmp_path / "home"
    tui = Tui(home, ["--model", f"script:{script}"], cwd=ws, columns=100)
    try:
        tui.wait_for("script:s.json")
        tui.line("find retry twice")
        tui.wait_for("Both found it.")
        tui.line("/usage")
        tui.wait_in_scrollback("agent explore")
        # The table is read once its last row is whole: a row may be drawn in two reads.
        total = re.compile(r"^total .* unknown$", re.MULTILINE)
        tui.wait(lambda: total.search(tui.everything) is not None, "the usage table's total")
        rows = {
            line.split()[0] if not line.startswith("agent") else "agent": line.split()
            for line in tui.everything.splitlines()
            if line.startswith(("script:s.json ", "agent ", "total "))
        }
        # model, requests, input, cached read, cached write, output, cost (a script's: unknown)
        assert rows["script:s.json"] == ["script:s.json", "2", "1,300", "0", "0", "30", "unknown"]
        assert rows["agent"] == ["agent", "explore", "–", "4,200", "2,000", "0", "70", "unknown"]
        assert rows["total"] == ["total", "–", "5,500", "2,000", "0", "100", "unknown"]
        tui.press("ctrl-d")
        assert tui.finish() == 0
    finally:
        tui.kill()


def test_a_call_refused_in_an_agent_makes_run_exit_2(tmp_path: Path, ws: Path) -> None:
    # Headless, in the default mode: the agent's command needs someone to approve it and is
    # refused. The parent's turn ends normally, but the run did not do what was asked.
    home = tmp_path / "home"
    bash = {"id": "b", "name": "bash", "arguments": {"command": "touch made.txt"}}
    task = {"description": "make it", "prompt": "Create made.txt"}
    script = tmp_path / "s.json"
    script.write_text(
        json.dumps(
            {
                "turns": [
                    {"toolCalls": [{"id": "t1", "name": "task", "arguments": task}]},
                    {"text": "Asked for it."},
                ],
                "tasks": {"t1": {"turns": [{"toolCalls": [bash]}, {"text": "Could not."}]}},
            }
        )
    )
    for output in ("text", "json", "stream-json"):
        run = tether_in_process(
            home, "run", "make it", "--model", f"script:{script}", "--cwd", str(ws),
            "--output-format", output,
        )  # fmt: skip
        assert run.returncode == 2, (output, run.stdout, run.stderr)
    assert not (ws / "made.txt").exists()
