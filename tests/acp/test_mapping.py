"""Session updates → ACP session updates, one case per update kind."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from acp.utils import serialize_params

from tether.acp.mapping import acp_update
from tether.acp.modes import AVAILABLE_MODES, mode_state
from tether.content import TextContent
from tether.policy import MODES
from tether.session import (
    AgentText,
    ClientUpdate,
    TitleChanged,
    ToolCallFinished,
    ToolCallPartial,
    ToolCallStarted,
    TurnEnded,
    TurnFailed,
    UserImage,
    UserText,
)
from tether.tools.result import ToolResult
from tether.views import (
    DiffCallView,
    DiffResultView,
    FileDiff,
    GenericCallView,
    GenericResultView,
    Location,
    ReadFileLine,
    ReadResultView,
    TerminalCallView,
    TerminalResultView,
)

CWD = Path("/ws")


def _wire(update: ClientUpdate) -> dict[str, Any] | None:
    mapped = acp_update(update, CWD)
    return None if mapped is None else serialize_params(mapped)


def test_text_updates() -> None:
    assert _wire(AgentText(text="hi")) == {
        "sessionUpdate": "agent_message_chunk",
        "content": {"type": "text", "text": "hi"},
    }
    assert _wire(UserText(text="q")) == {
        "sessionUpdate": "user_message_chunk",
        "content": {"type": "text", "text": "q"},
    }
    assert _wire(UserImage(data="AAAA", mime_type="image/png")) == {
        "sessionUpdate": "user_message_chunk",
        "content": {"type": "image", "data": "AAAA", "mimeType": "image/png"},
    }
    assert _wire(TitleChanged(title="Fix it")) == {
        "sessionUpdate": "session_info_update",
        "title": "Fix it",
    }
    # Where each prompt ended, and the model's error when it failed (live and on load).
    assert _wire(TurnEnded(stop_reason="end_turn")) == {
        "sessionUpdate": "session_info_update",
        "_meta": {"tether": {"turnEnd": {"stopReason": "end_turn"}}},
    }
    assert _wire(TurnFailed(message="down")) == {
        "sessionUpdate": "session_info_update",
        "_meta": {"tether": {"turnEnd": {"stopReason": "error", "error": "down"}}},
    }


def test_generic_call_keeps_its_kind_and_absolute_locations() -> None:
    view = GenericCallView(
        title="Read a.py",
        kind="read",
        raw_input={"path": "a.py"},
        locations=(Location(path="a.py", line=4),),
    )
    started = ToolCallStarted(
        tool_call_id="c1", name="read", arguments='{"path": "a.py"}', view=view
    )
    assert _wire(started) == {
        "sessionUpdate": "tool_call",
        "toolCallId": "c1",
        "title": "Read a.py",
        "kind": "read",
        "status": "pending",
        "locations": [{"path": "/ws/a.py", "line": 4}],
        "rawInput": {"path": "a.py"},
        "_meta": {
            "tether": {
                "view": {
                    "card": "generic",
                    "title": "Read a.py",
                    "kind": "read",
                    "rawInput": {"path": "a.py"},
                    # The card names the same place as ACP's locations.
                    "locations": [{"path": "/ws/a.py", "line": 4}],
                }
            }
        },
    }


def test_terminal_and_diff_calls_get_execute_and_edit() -> None:
    terminal = ToolCallStarted(
        tool_call_id="c2",
        name="bash",
        arguments="not json",
        view=TerminalCallView(title="ls -la"),
    )
    wire = _wire(terminal)
    assert wire is not None
    assert (wire["kind"], wire["title"], wire["rawInput"]) == ("execute", "ls -la", "not json")
    assert "locations" not in wire and "content" not in wire

    diff = DiffCallView(
        title="Write n.txt", diffs=(FileDiff(path="n.txt", old_text=None, new_text="x"),)
    )
    wire = _wire(ToolCallStarted(tool_call_id="c3", name="write", arguments="{}", view=diff))
    assert wire is not None
    assert wire["kind"] == "edit"
    # Without locations of its own, a diff card points at the files it changes.
    assert wire["locations"] == [{"path": "/ws/n.txt"}]
    assert wire["content"] == [{"type": "diff", "path": "/ws/n.txt", "newText": "x"}]
    assert wire["_meta"]["tether"]["view"]["diffs"] == [
        {"path": "/ws/n.txt", "oldText": None, "newText": "x"}
    ]


def test_generic_call_without_kind_is_other() -> None:
    view = GenericCallView(title="mystery")
    wire = _wire(ToolCallStarted(tool_call_id="c4", name="x", arguments="{}", view=view))
    assert wire is not None
    assert wire["kind"] == "other"


def test_progress_is_in_progress_with_the_partial_card() -> None:
    view = TerminalResultView(title="make", output="building\n")
    assert _wire(ToolCallPartial(tool_call_id="c1", view=view)) == {
        "sessionUpdate": "tool_call_update",
        "toolCallId": "c1",
        "status": "in_progress",
        "content": [
            {
                "type": "content",
                "content": {"type": "text", "text": "```console\n$ make\nbuilding\n```"},
            }
        ],
        "_meta": {
            "tether": {"view": {"card": "terminal", "title": "make", "output": "building\n"}}
        },
    }


def test_finished_terminal_reports_its_exit_or_signal() -> None:
    result = ToolResult(content=(TextContent(text="x"),))
    for view, raw, said in (
        (TerminalResultView(title="t", output="", exit_code=3), {"exitCode": 3}, "code 3"),
        (
            TerminalResultView(title="t", output="", signal="SIGKILL"),
            {"signal": "SIGKILL"},
            "Killed by SIGKILL",
        ),
    ):
        update = ToolCallFinished(tool_call_id="c", status="completed", view=view, result=result)
        wire = _wire(update)
        assert wire is not None
        assert wire["rawOutput"] == raw
        # A client that shows only standard content still learns how the command failed.
        text = wire["content"][0]["content"]["text"]
        assert text.endswith(said)
        assert "Exited with code 3" in text or "Killed by SIGKILL" in text
    ok = TerminalResultView(title="t", output="fine\n", exit_code=0)
    update = ToolCallFinished(tool_call_id="c", status="completed", view=ok, result=result)
    wire = _wire(update)
    assert wire is not None
    assert wire["content"][0]["content"]["text"] == "```console\n$ t\nfine\n```"


def test_finished_read_and_diff_carry_locations_and_the_call_title() -> None:
    result = ToolResult(content=(TextContent(text="x"),))
    read = ReadResultView(
        title="Read /ws/a.py",
        path="a.py",
        offset=7,
        lines=(ReadFileLine(number=7, text="x"),),
        total_lines=9,
    )
    update = ToolCallFinished(tool_call_id="r", status="completed", view=read, result=result)
    mapped = acp_update(update, CWD, "Read a.py (lines 7-7)")
    assert mapped is not None
    wire = serialize_params(mapped)
    assert wire["locations"] == [{"path": "/ws/a.py", "line": 7}]
    assert wire["_meta"]["tether"]["view"]["path"] == "/ws/a.py"
    assert wire["_meta"]["tether"]["view"]["title"] == "Read a.py (lines 7-7)"

    edit = DiffResultView(
        title="Edit /ws/b.py",
        diffs=(
            FileDiff(path="b.py", old_text="a", new_text="b"),
            FileDiff(path="b.py", old_text="c", new_text="d"),
        ),
        locations=(Location(path="/ws/b.py", line=3), Location(path="b.py", line=40)),
    )
    update = ToolCallFinished(tool_call_id="e", status="completed", view=edit, result=result)
    wire = _wire(update)
    assert wire is not None
    assert wire["locations"] == [{"path": "/ws/b.py", "line": 3}, {"path": "/ws/b.py", "line": 40}]
    assert [d["path"] for d in wire["_meta"]["tether"]["view"]["diffs"]] == ["/ws/b.py"] * 2

    # A diff without hunk lines (a whole-file write) points at the first line of each file.
    write = DiffResultView(diffs=(FileDiff(path="n.txt", old_text=None, new_text="x"),))
    update = ToolCallFinished(tool_call_id="w", status="completed", view=write, result=result)
    wire = _wire(update)
    assert wire is not None
    assert wire["locations"] == [{"path": "/ws/n.txt", "line": 1}]


def test_finished_generic_failure() -> None:
    result = ToolResult.error("File not found: x")
    view = GenericResultView(content="File not found: x")
    update = ToolCallFinished(tool_call_id="c", status="failed", view=view, result=result)
    assert _wire(update) == {
        "sessionUpdate": "tool_call_update",
        "toolCallId": "c",
        "status": "failed",
        "content": [{"type": "content", "content": {"type": "text", "text": "File not found: x"}}],
        "_meta": {"tether": {"view": {"card": "generic", "content": "File not found: x"}}},
    }


def test_modes_match_the_policy_modes() -> None:
    assert tuple(mode.id for mode in AVAILABLE_MODES) == MODES
    state = serialize_params(mode_state("accept-edits"))
    assert state["currentModeId"] == "accept-edits"
    assert [m["name"] for m in state["availableModes"]] == ["Ask", "Accept edits", "Auto", "Plan"]
    assert all(m["description"] for m in state["availableModes"])


def test_search_result_sends_the_model_text_and_its_first_matches_as_locations() -> None:
    from tether.acp.paths import MAX_MATCH_LOCATIONS, absolute_result
    from tether.views import SearchFile, SearchMatch, SearchMatchesResultView, dump_view

    view = SearchMatchesResultView(
        title="Grep x",
        files=(
            SearchFile(
                path="a.py",
                matches=tuple(SearchMatch(line_number=n, line="x") for n in range(1, 16)),
            ),
            SearchFile(
                path="/abs/b.py",
                matches=tuple(SearchMatch(line_number=n, line="x") for n in range(1, 16)),
            ),
        ),
        truncated=False,
        total=30,
    )
    model_text = "a.py\n  1: x\n...(as the model read it)"
    finished = ToolCallFinished(
        tool_call_id="g1",
        status="completed",
        view=view,
        result=ToolResult(content=(TextContent(text=model_text),)),
    )
    wire = _wire(finished)
    assert wire is not None
    assert wire["content"] == [{"type": "content", "content": {"type": "text", "text": model_text}}]
    # The card in `_meta` names its files absolutely, as the locations do.
    assert wire["_meta"] == {"tether": {"view": dump_view(absolute_result(view, CWD))}}
    assert [f["path"] for f in wire["_meta"]["tether"]["view"]["files"]] == [
        "/ws/a.py",
        "/abs/b.py",
    ]
    expected = [{"path": "/ws/a.py", "line": n} for n in range(1, 16)]
    expected += [{"path": "/abs/b.py", "line": n} for n in range(1, 6)]
    assert wire["locations"] == expected
    assert len(expected) == MAX_MATCH_LOCATIONS


def test_search_card_content_without_the_model_text_lists_its_lines() -> None:
    from tether.acp.content import card_content
    from tether.views import SearchFile, SearchMatch, SearchMatchesResultView, SearchPathsResultView

    matches = SearchMatchesResultView(
        files=(SearchFile(path="a.py", matches=(SearchMatch(line_number=2, line="y = x"),)),),
        truncated=False,
        total=1,
    )
    paths = SearchPathsResultView(paths=("a.py", "b.py"), truncated=False, total=2)
    assert [c.content.text for c in card_content(matches, CWD)] == ["a.py:2: y = x"]  # type: ignore[union-attr]
    assert [c.content.text for c in card_content(paths, CWD)] == ["a.py\nb.py"]  # type: ignore[union-attr]
    paths_done = ToolCallFinished(
        tool_call_id="g2",
        status="completed",
        view=paths,
        result=ToolResult(content=(TextContent(text="a.py\nb.py"),)),
    )
    wire = _wire(paths_done)
    # A path search's files are its locations, whole files (no line).
    assert wire is not None
    assert wire["locations"] == [{"path": "/ws/a.py"}, {"path": "/ws/b.py"}]


def test_a_path_search_sends_its_first_files_as_locations() -> None:
    from tether.acp.paths import MAX_MATCH_LOCATIONS
    from tether.views import SearchPathsResultView

    many = tuple(f"src/m{n:02}.py" for n in range(MAX_MATCH_LOCATIONS + 5))
    view = SearchPathsResultView(paths=many, truncated=False, total=len(many))
    done = ToolCallFinished(
        tool_call_id="g3",
        status="completed",
        view=view,
        result=ToolResult(content=(TextContent(text="\n".join(many)),)),
    )
    wire = _wire(done)
    assert wire is not None
    assert wire["locations"] == [{"path": f"/ws/{p}"} for p in many[:MAX_MATCH_LOCATIONS]]


def test_context_lines_and_counts_keep_their_marks_and_only_matches_are_locations() -> None:
    from tether.acp.content import card_content
    from tether.views import SearchFile, SearchMatch, SearchMatchesResultView, dump_view

    lines = SearchMatchesResultView(
        title="Grep x -C 1",
        files=(
            SearchFile(
                path="a.py",
                matches=(
                    SearchMatch(line_number=1, line="w", context=True),
                    SearchMatch(line_number=2, line="x"),
                    SearchMatch(line_number=3, line="y", context=True),
                ),
            ),
        ),
        truncated=False,
        total=1,
    )
    counts = SearchMatchesResultView(
        title="Grep x -c",
        files=(SearchFile(path="a.py", matches=(), count=4),),
        truncated=False,
        total=4,
    )
    assert [c.content.text for c in card_content(lines, CWD)] == [  # type: ignore[union-attr]
        "a.py-1- w\na.py:2: x\na.py-3- y"
    ]
    assert [c.content.text for c in card_content(counts, CWD)] == ["a.py:4"]  # type: ignore[union-attr]
    for view, locations in (
        (lines, [{"path": "/ws/a.py", "line": 2}]),
        (counts, [{"path": "/ws/a.py"}]),
    ):
        done = ToolCallFinished(
            tool_call_id="g",
            status="completed",
            view=view,
            result=ToolResult(content=(TextContent(text="as the model read it"),)),
        )
        wire = _wire(done)
        assert wire is not None and wire["locations"] == locations
        card = wire["_meta"]["tether"]["view"]
        assert card == dump_view(view) | {"files": card["files"]}
        assert card["files"][0] == dump_view(view)["files"][0] | {"path": "/ws/a.py"}
