"""One diff card, numbered the same by the edit tool, the terminal card and the web page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.render.helpers import body_lines, plain
from tests.tools.fs.edit_support import context, observe, run
from tether.render import render_result_view
from tether.tools.card_context import CardContext
from tether.tools.fs.edit import EditArgs, EditTool
from tether.views import DiffResultView, dump_view
from tether.web.enrich import enrich_update

Row = tuple[str, int | None, int | None, str]


def terminal_rows(view: DiffResultView) -> list[Row]:
    """(sign, old number, new number, text) of each row the terminal card shows."""
    rows: list[Row] = []
    for line in body_lines(plain(render_result_view(view), width=200)):
        gutter, sep, rest = line.partition(" │ ")
        if not sep:
            continue
        half = len(gutter) // 2
        old_no, new_no = gutter[:half].strip(), gutter[half + 1 :].strip()
        rows.append(
            (
                rest[0],
                int(old_no) if old_no else None,
                int(new_no) if new_no else None,
                rest[2:],
            )
        )
    return rows


def web_rows(view: DiffResultView) -> tuple[list[Row], list[int]]:
    """The rows the page draws, and where each of its hunks starts in the new file."""
    update: dict[str, Any] = {
        "sessionUpdate": "tool_call_update",
        "toolCallId": "call-1",
        "_meta": {"tether": {"view": dump_view(view)}},
    }
    diffs = enrich_update(update)["_meta"]["tether"]["view"]["diffs"]
    assert all(diff["placed"] for diff in diffs)
    rows = [
        (row["op"], row["old"], row["new"], row["text"])
        for diff in diffs
        for hunk in diff["hunks"]
        for row in hunk["lines"]
    ]
    return rows, [hunk["newStart"] for diff in diffs for hunk in diff["hunks"]]


async def test_the_tool_the_terminal_and_the_web_number_one_edit_alike(tmp_path: Path) -> None:
    old_lines = [f"line {i}" + (" marker" if i in (20, 80) else "") for i in range(1, 101)]
    target = tmp_path / "f.txt"
    target.write_text("".join(f"{line}\n" for line in old_lines))
    ctx = context(tmp_path)
    await observe(ctx, target)
    tool = EditTool()
    args = {"path": "f.txt", "old_string": " marker\n", "new_string": "\nextra a\nextra b\n"}
    result = await run(tool, ctx, **args, replace_all=True)
    assert not result.is_error, result.text()
    view = tool.present_result(EditArgs(**args, replace_all=True), result, CardContext())
    assert isinstance(view, DiffResultView)
    new_lines = target.read_text().splitlines()

    # The tool places two hunks, each starting three lines of context before its change.
    assert view.locations is not None
    tool_starts = [location.line for location in view.locations]
    assert tool_starts == [17, 79]

    terminal = terminal_rows(view)
    web, web_starts = web_rows(view)
    assert web_starts == tool_starts
    assert terminal == [(sign, old, new, text) for sign, old, new, text in web]
    assert len(terminal) == 20
    for _sign, old, new, text in terminal:
        if old is not None:
            assert old_lines[old - 1] == text
        if new is not None:
            assert new_lines[new - 1] == text
