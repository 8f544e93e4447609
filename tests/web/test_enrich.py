"""What the server adds to, and removes from, the updates it relays."""

from __future__ import annotations

from typing import Any

from tether.views import (
    GenericCallView,
    GenericResultView,
    NotebookCell,
    NotebookView,
    ReadFileLine,
    ReadResultView,
    dump_view,
)
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


def test_edit_fragments_are_numbered_where_the_file_puts_them() -> None:
    # Two hunks of one file: the second's old numbers are shifted by the first's growth.
    first = {"path": "f.py", "oldText": "a\nb\n", "newText": "a\nB\nb2\n"}
    second = {"path": "f.py", "oldText": "x\ny\n", "newText": "x\nY\n"}
    view = {
        "card": "diff",
        "diffs": [first, second],
        "locations": [{"path": "f.py", "line": 4}, {"path": "f.py", "line": 20}],
    }
    diffs = enrich_update(_update(view))["_meta"]["tether"]["view"]["diffs"]
    rows = [[(r["op"], r["old"], r["new"]) for r in d["hunks"][0]["lines"]] for d in diffs]
    assert rows[0] == [(" ", 4, 4), ("-", 5, None), ("+", None, 5), ("+", None, 6)]
    assert rows[1] == [(" ", 19, 20), ("-", 20, None), ("+", None, 21)]
    assert [d["placed"] for d in diffs] == [True, True]


def test_fragments_without_a_start_are_unplaced_and_new_files_start_at_one() -> None:
    view = {
        "card": "diff",
        "title": "Edit f.py",
        "diffs": [
            {"path": "f.py", "oldText": "a", "newText": "b"},
            {"path": "g.py", "oldText": None, "newText": "n\n"},
        ],
        "locations": [{"path": "f.py"}, {"path": "g.py", "line": 1}],
    }
    diffs = enrich_update(_update(view, kind="tool_call"))["_meta"]["tether"]["view"]["diffs"]
    assert [d["placed"] for d in diffs] == [False, True]
    assert diffs[1]["hunks"][0]["lines"] == [{"op": "+", "old": None, "new": 1, "text": "n"}]


def test_a_plans_markdown_is_rendered_on_both_sides_and_plain_text_is_not() -> None:
    plan = "## Plan\n\n1. Rename `helo`.\n\n<script>alert(1)</script>"
    call = dump_view(GenericCallView(title="Plan", kind="other", content=plan, markdown=True))
    started = enrich_update(_update(call, kind="tool_call"))["_meta"]["tether"]["view"]
    assert started["html"].startswith("<h2>Plan</h2>\n<ol>\n<li>Rename <code>helo</code>.</li>")
    assert "<script>" not in started["html"]  # raw HTML shown as text, never passed through
    result = dump_view(GenericResultView(title="Plan approved · auto", content=plan, markdown=True))
    assert enrich_update(_update(result))["_meta"]["tether"]["view"]["html"] == started["html"]
    plain = dump_view(GenericResultView(title="Ran", content="## not a heading"))
    assert "html" not in enrich_update(_update(plain))["_meta"]["tether"]["view"]


def test_a_notebooks_code_cells_gain_tokens_and_markdown_cells_html() -> None:
    notebook = NotebookView(
        language="python",
        cells=(
            NotebookCell(id="a", cell_type="markdown", source="# Title\n<b>x</b>"),
            NotebookCell(id="b", cell_type="code", source="def f():\n    pass"),
            NotebookCell(id="c", cell_type="raw", source="raw"),
        ),
    )
    view = dump_view(
        ReadResultView(path="n.ipynb", offset=1, lines=(), total_lines=0, notebook=notebook)
    )
    out = enrich_update(_update(view))["_meta"]["tether"]["view"]
    intro, code, raw = out["notebook"]["cells"]
    assert intro["html"] == "<h1>Title</h1>\n<p>&lt;b&gt;x&lt;/b&gt;</p>\n"
    assert [tuple(t) for t in code["tokens"][0]][:2] == [("k", "def"), ("w", " ")]
    assert len(code["tokens"]) == 2
    assert raw == {"id": "c", "cellType": "raw", "source": "raw", "outputs": []}
    assert "tokens" not in out  # the lines' tokens are for the plain read card only
