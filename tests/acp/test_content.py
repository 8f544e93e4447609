"""The one card → ACP content function, for every card of both unions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from acp.schema import ContentToolCallContent, FileEditToolCallContent
from hypothesis import given
from hypothesis import strategies as st

from tether.acp.content import absolute, card_content, console_text
from tether.views import (
    DiffCallView,
    DiffResultView,
    FileDiff,
    GenericCallView,
    GenericResultView,
    ReadFileLine,
    ReadResultView,
    TaskResultView,
    TerminalCallView,
    TerminalResultView,
)

CWD = Path("/work/project")


def _dump(items: list[Any]) -> list[dict[str, Any]]:
    return [i.model_dump(mode="json", by_alias=True, exclude_none=True) for i in items]


def test_read_is_one_text_block_with_the_window_text() -> None:
    view = ReadResultView(
        path="/work/project/a.py",
        offset=3,
        lines=(ReadFileLine(number=3, text="x = 1"),),
        total_lines=9,
        content="3: x = 1\n\n(Showing lines 3-3 of 9. Use offset=4 to continue.)",
    )
    assert _dump(card_content(view, CWD)) == [
        {
            "type": "content",
            "content": {
                "type": "text",
                "text": "3: x = 1\n\n(Showing lines 3-3 of 9. Use offset=4 to continue.)",
            },
        }
    ]


def test_read_without_content_falls_back_to_its_lines() -> None:
    view = ReadResultView(
        path="a.py",
        offset=1,
        lines=(ReadFileLine(number=1, text="a"), ReadFileLine(number=2, text="b")),
        total_lines=2,
    )
    [item] = card_content(view, CWD)
    assert isinstance(item, ContentToolCallContent)
    assert item.content.model_dump()["text"] == "a\nb"


def test_diffs_become_diff_items_with_absolute_paths() -> None:
    diffs = (
        FileDiff(path="src/a.py", old_text="a = 1\n", new_text="a = 2\n"),
        FileDiff(path="/elsewhere/new.txt", old_text=None, new_text="hi\n"),
    )
    for view in (DiffCallView(title="Edit", diffs=diffs), DiffResultView(diffs=diffs)):
        items = card_content(view, CWD)
        assert all(isinstance(i, FileEditToolCallContent) for i in items)
        assert _dump(items) == [
            {
                "type": "diff",
                "path": "/work/project/src/a.py",
                "oldText": "a = 1\n",
                "newText": "a = 2\n",
            },
            {"type": "diff", "path": "/elsewhere/new.txt", "newText": "hi\n"},
        ]


def test_terminal_result_is_fenced_console_text() -> None:
    view = TerminalResultView(title="make test", output="ok\n", exit_code=0)
    assert _dump(card_content(view, CWD)) == [
        {"type": "content", "content": {"type": "text", "text": "```console\n$ make test\nok\n```"}}
    ]


def test_terminal_call_has_no_content_yet() -> None:
    assert card_content(TerminalCallView(title="ls", cwd="/work"), CWD) == []


def test_generic_cards_carry_their_content_as_text() -> None:
    assert _dump(card_content(GenericResultView(title="t", content="result"), CWD)) == [
        {"type": "content", "content": {"type": "text", "text": "result"}}
    ]
    assert card_content(GenericResultView(title="only a title"), CWD) == []
    assert card_content(GenericCallView(title="x", kind="search"), CWD) == []
    assert len(card_content(GenericCallView(title="x", content="query"), CWD)) == 1


def test_console_text_shapes() -> None:
    assert console_text("ls", "") == "```console\n$ ls\n```"
    assert console_text("ls", "a") == "```console\n$ ls\na\n```"
    assert console_text(None, "a\n") == "```console\na\n```"
    # Output with a fence of its own gets a longer one around it.
    assert console_text("cat x.md", "````\n") == "`````console\n$ cat x.md\n````\n`````"


@given(st.text(alphabet="`ab\n $", max_size=40))
def test_console_text_fence_is_never_closed_by_the_output(output: str) -> None:
    text = console_text("cmd", output)
    fence = text[: text.index("console")]
    body = text[len(fence) + len("console\n") : -len(fence)]
    assert body == f"$ cmd\n{output}" + ("" if not output or output.endswith("\n") else "\n")
    assert fence not in body
    assert text.endswith("\n" + fence)


def test_absolute_folds_dots_but_keeps_absolute_paths() -> None:
    assert absolute("a/../b.txt", CWD) == "/work/project/b.txt"
    assert absolute("../up.txt", CWD) == "/work/up.txt"
    assert absolute("/abs/file", CWD) == "/abs/file"


def test_absolute_leaves_an_unknown_user_home_as_written() -> None:
    # The model may name `~nobody/x`; the card must still map (live and on session/load).
    assert absolute("~no-such-user-here/x.py", CWD) == "/work/project/~no-such-user-here/x.py"
    assert absolute("~/x.py", CWD) == str(Path.home() / "x.py")


def test_a_thinking_task_says_its_step_then_the_end_of_its_thought() -> None:
    running = TaskResultView(
        agent="explore",
        description="find retry",
        session_id="s1",
        summary="",
        tool_calls=2,
        stop_reason="running",
        activity="thinking",
        thought="…so it is in retry.py",
    )
    assert _dump(card_content(running, CWD)) == [
        {
            "type": "content",
            "content": {"type": "text", "text": "thinking · 2 calls so far\n…so it is in retry.py"},
        }
    ]
