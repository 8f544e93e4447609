"""What the server adds to, and removes from, the updates it relays."""

from __future__ import annotations

from typing import Any

from tether.views import ReadFileLine, ReadResultView, dump_view
from tether.web.enrich import enrich_tool_call, enrich_update


def _update(view: Any, kind: str = "tool_call_update", **extra: Any) -> dict[str, Any]:
    return {"sessionUpdate": kind, "toolCallId": "t1", "_meta": {"tether": {"view": view}}, **extra}


def test_read_views_gain_highlight_tokens_per_line() -> None:
    view = dump_view(
        ReadResultView(
            path="a.py",
            offset=3,
            lines=(ReadFileLine(number=3, text="def f():"), ReadFileLine(number=4, text="")),
            total_lines=9,
            lang="py",
        )
    )
    out = enrich_update(_update(view))["_meta"]["tether"]["view"]
    assert tuple(out["tokens"][0][0]) == ("k", "def")
    assert out["tokens"][1] == []
    assert out["lines"] == view["lines"]


def test_views_the_unions_reject_are_dropped_and_other_meta_kept() -> None:
    update = _update({"card": "chart"})
    update["_meta"]["tether"]["other"] = 1
    update["_meta"]["zed"] = True
    out = enrich_update(update)
    assert out["_meta"] == {"tether": {"other": 1}, "zed": True}
    # A result card on the call side is rejected too: each side has its own union.
    read = {"card": "read", "path": "a", "offset": 1, "lines": [], "totalLines": 0}
    assert "view" not in enrich_update(_update(read, kind="tool_call"))["_meta"]["tether"]
    assert "view" in enrich_tool_call(_update(read), call=False)["_meta"]["tether"]


def test_diffs_gain_hunks_in_cards_and_in_standard_content() -> None:
    diff = {"path": "x", "oldText": "a\n", "newText": "b\n"}
    out = enrich_update(
        _update(
            {"card": "diff", "diffs": [diff]}, content=[{"type": "diff", **diff}, {"type": "x"}]
        )
    )
    card_rows = out["_meta"]["tether"]["view"]["diffs"][0]["hunks"][0]["lines"]
    assert [r["op"] for r in card_rows] == ["-", "+"]
    assert out["content"][0]["hunks"] == out["_meta"]["tether"]["view"]["diffs"][0]["hunks"]
    assert out["content"][1] == {"type": "x"}


def test_other_updates_pass_through_untouched() -> None:
    chunk = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "<b>"}}
    assert enrich_update(chunk) is chunk
