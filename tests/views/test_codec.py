"""Cards round-trip through their camelCase JSON, and bad JSON is refused."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tether.views import (
    DiffCallView,
    DiffResultView,
    FileDiff,
    GenericCallView,
    GenericResultView,
    Location,
    ReadFileLine,
    ReadResultView,
    SearchFile,
    SearchMatch,
    SearchMatchesResultView,
    SearchPathsResultView,
    TerminalCallView,
    TerminalResultView,
    ToolCallView,
    ToolResultView,
    dump_view,
    load_call_view,
    load_result_view,
)
from tether.views.result import WebFetchResultView
from tether.views.task import TaskResultView

CALLS: list[ToolCallView] = [
    GenericCallView(title="Read a.py", kind="read", locations=(Location(path="/w/a.py", line=3),)),
    GenericCallView(title="x", raw_input={"a": [1, 2]}, content="text"),
    TerminalCallView(title="ls -la", description="list", cwd="/w"),
    DiffCallView(title="Write a", diffs=(FileDiff(path="/w/a", old_text=None, new_text="x\n"),)),
]
RESULTS: list[ToolResultView] = [
    GenericResultView(),
    GenericResultView(title="t", content="c"),
    TerminalResultView(output="hi\n", exit_code=0),
    TerminalResultView(output="", signal="SIGKILL"),
    DiffResultView(diffs=(FileDiff(path="/w/a", old_text="a\n", new_text="b\n"),)),
    ReadResultView(
        path="/w/a.py",
        offset=2,
        lines=(ReadFileLine(number=2, text="x = 1"),),
        total_lines=9,
        lang="python",
        content="2: x = 1",
    ),
    SearchMatchesResultView(
        title="Grep foo",
        files=(SearchFile(path="a.py", matches=(SearchMatch(line_number=3, line="foo()"),)),),
        truncated=True,
        total=7,
    ),
    SearchPathsResultView(paths=("b.py", "a.py"), truncated=False, total=2),
    WebFetchResultView(url="https://e.com/", status_code=200, truncated=False),
    WebFetchResultView(
        url="https://e.com/b",
        status_code=301,
        truncated=True,
        title="B",
        content_type="text/html",
        bytes=0,
        redirect="https://other.org/",
        content="# B",
    ),
    TaskResultView(
        agent="explore",
        description="find retry",
        session_id="0190a1b2c3d4e5f6a7b8",
        summary="`retry` is in a.py:3",
        tool_calls=4,
        stop_reason="end_turn",
        tokens=8100,
    ),
    TaskResultView(
        agent="general",
        description="fix it",
        session_id="0190a1b2c3d4e5f6a7b9",
        summary="",
        tool_calls=0,
        stop_reason="running",
        activity="Read a.py",
    ),
]


@pytest.mark.parametrize("view", CALLS)
def test_call_views_round_trip(view: ToolCallView) -> None:
    assert load_call_view(dump_view(view)) == view


@pytest.mark.parametrize("view", RESULTS)
def test_result_views_round_trip(view: ToolResultView) -> None:
    assert load_result_view(dump_view(view)) == view


def test_json_is_camel_case_and_leaves_unset_fields_out() -> None:
    assert dump_view(RESULTS[5]) == {
        "card": "read",
        "path": "/w/a.py",
        "offset": 2,
        "lines": [{"number": 2, "text": "x = 1"}],
        "totalLines": 9,
        "lang": "python",
        "content": "2: x = 1",
    }
    assert dump_view(TerminalResultView(exit_code=2)) == {"card": "terminal", "exitCode": 2}
    assert dump_view(CALLS[1])["rawInput"] == {"a": [1, 2]}


def test_a_new_file_keeps_its_null_old_text() -> None:
    assert dump_view(CALLS[3])["diffs"] == [{"path": "/w/a", "oldText": None, "newText": "x\n"}]


def test_exit_code_and_signal_are_exclusive() -> None:
    with pytest.raises(ValidationError, match="exclusive"):
        load_result_view({"card": "terminal", "exitCode": 1, "signal": "SIGTERM"})


@pytest.mark.parametrize(
    "data",
    [
        {"title": "no tag"},
        {"card": "read", "title": "read is result-side only"},
        {"card": "generic", "title": "x", "kind": "dance"},
        {"card": "diff", "title": "x"},
    ],
)
def test_bad_call_views_are_refused(data: object) -> None:
    with pytest.raises(ValidationError):
        load_call_view(data)


def test_unknown_extra_keys_are_ignored() -> None:
    view = load_result_view({"card": "generic", "content": "c", "future": 1})
    assert view == GenericResultView(content="c")


def test_search_cards_carry_their_shape() -> None:
    assert dump_view(RESULTS[6]) == {
        "card": "search",
        "shape": "matches",
        "title": "Grep foo",
        "files": [{"path": "a.py", "matches": [{"lineNumber": 3, "line": "foo()"}]}],
        "truncated": True,
        "total": 7,
    }
    assert dump_view(RESULTS[7]) == {
        "card": "search",
        "shape": "paths",
        "paths": ["b.py", "a.py"],
        "truncated": False,
        "total": 2,
    }


@pytest.mark.parametrize(
    "data",
    [
        {"card": "search", "paths": [], "truncated": False, "total": 0},
        {"card": "search", "shape": "tree", "paths": [], "truncated": False, "total": 0},
        {"card": "search", "shape": "paths", "paths": [], "truncated": False, "total": -1},
        {"card": "search", "shape": "matches", "files": [], "truncated": False},
        {
            "card": "search",
            "shape": "matches",
            "files": [{"path": "a", "matches": [{"lineNumber": 0, "line": "x"}]}],
            "truncated": False,
            "total": 1,
        },
    ],
)
def test_bad_search_cards_are_refused(data: object) -> None:
    with pytest.raises(ValidationError):
        load_result_view(data)


def test_the_web_card_carries_its_kind_and_camel_case_fields() -> None:
    assert dump_view(
        WebFetchResultView(url="https://e.com/", status_code=404, truncated=False)
    ) == {
        "card": "web",
        "kind": "fetch",
        "url": "https://e.com/",
        "statusCode": 404,
        "truncated": False,
    }
    with pytest.raises(ValidationError):
        load_result_view(
            {"card": "web", "kind": "search", "url": "u", "statusCode": 200, "truncated": False}
        )
    with pytest.raises(ValidationError):
        load_result_view({"card": "web", "url": "u", "statusCode": "200", "truncated": False})


def test_the_task_card_refuses_an_unknown_stop_and_negative_counts() -> None:
    card = {
        "card": "task",
        "agent": "explore",
        "description": "d",
        "sessionId": "s",
        "summary": "",
        "toolCalls": 0,
        "stopReason": "end_turn",
    }
    assert load_result_view(card) == TaskResultView(
        agent="explore",
        description="d",
        session_id="s",
        summary="",
        tool_calls=0,
        stop_reason="end_turn",
    )
    for bad in ({"stopReason": "finished"}, {"toolCalls": -1}, {"tokens": -5}):
        with pytest.raises(ValidationError):
            load_result_view({**card, **bad})
