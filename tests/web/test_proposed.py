"""The change a permission request proposes, drawn from another agent's raw input
(`tether.web.proposed`)."""

from __future__ import annotations

import difflib
from typing import Any

import pytest

from tether.web.proposed import with_proposed_diff


def _rows(item: dict[str, Any]) -> list[tuple[str, int | None, int | None, str]]:
    return [
        (row["op"], row["old"], row["new"], row["text"])
        for hunk in item["hunks"]
        for row in hunk["lines"]
    ]


@pytest.mark.parametrize(
    "raw",
    [
        {"file_path": "/w/a.py", "old_string": "x = 1\n", "new_string": "x = 2\n"},  # Claude Code
        {"filePath": "/w/a.py", "oldString": "x = 1\n", "newString": "x = 2\n"},  # opencode
        {"path": "/w/a.py", "old_str": "x = 1\n", "new_str": "x = 2\n"},
    ],
)
def test_old_and_new_text_become_a_diff_not_placed_in_the_file(raw: dict[str, Any]) -> None:
    call = with_proposed_diff({"toolCallId": "c1", "rawInput": raw, "content": []})
    [item] = call["content"]
    assert item["type"] == "diff" and item["path"] == "/w/a.py"
    assert item["placed"] is False
    assert _rows(item) == [("-", 1, None, "x = 1"), ("+", None, 1, "x = 2")]


def test_a_unified_diff_is_numbered_as_the_file_is() -> None:
    old = [f"line {n}\n" for n in range(1, 21)]
    new = [*old[:9], "line ten\n", *old[10:], "line 21\n"]
    diff = "".join(difflib.unified_diff(old, new, "a/f.txt", "b/f.txt", n=1))
    call = with_proposed_diff(
        {"toolCallId": "c1", "rawInput": {"filepath": "/w/f.txt", "diff": diff}}
    )
    [item] = call["content"]
    assert [h["oldStart"] for h in item["hunks"]] == [9, 20]
    assert _rows(item) == [
        (" ", 9, 9, "line 9"),
        ("-", 10, None, "line 10"),
        ("+", None, 10, "line ten"),
        (" ", 11, 11, "line 11"),
        (" ", 20, 20, "line 20"),
        ("+", None, 21, "line 21"),
    ]
    assert item["newText"].endswith("line 20\nline 21\n")


@pytest.mark.parametrize(
    "call",
    [
        # Its own diff content is shown as it is.
        {
            "toolCallId": "c1",
            "content": [{"type": "diff", "path": "/w/a", "oldText": "a", "newText": "b"}],
            "rawInput": {"path": "/w/a", "old_string": "x", "new_string": "y"},
        },
        {"toolCallId": "c1", "rawInput": {"command": "ls"}},  # no file
        {"toolCallId": "c1", "rawInput": {"path": "/w/a"}},  # no change
        {"toolCallId": "c1", "rawInput": {"path": "/w/a", "diff": "not a diff"}},
        {"toolCallId": "c1", "rawInput": "path=/w/a"},
    ],
)
def test_a_request_without_a_change_to_draw_is_left_as_it_is(call: dict[str, Any]) -> None:
    assert with_proposed_diff(call) is call
