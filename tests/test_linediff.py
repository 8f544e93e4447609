"""Line diffs: the numbered hunks every surface shows."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tether.linediff import row_hunks


def _rows(old: str | None, new: str) -> list[tuple[str, int | None, int | None, str]]:
    return [(r.op, r.old, r.new, r.text) for h in row_hunks(old, new) for r in h.rows]


def test_a_change_keeps_both_numbers_and_context() -> None:
    assert _rows("a\nb\nc\n", "a\nB\nc\nd\n") == [
        (" ", 1, 1, "a"),
        ("-", 2, None, "b"),
        ("+", None, 2, "B"),
        (" ", 3, 3, "c"),
        ("+", None, 4, "d"),
    ]


def test_a_new_file_is_all_added() -> None:
    assert _rows(None, "x\ny") == [("+", None, 1, "x"), ("+", None, 2, "y")]
    assert _rows(None, "") == []


def test_no_change_has_no_hunks() -> None:
    assert row_hunks("same\n", "same\n") == []


def test_far_apart_changes_make_separate_hunks_with_their_starts() -> None:
    old = "".join(f"line {i}\n" for i in range(1, 31))
    new = old.replace("line 2\n", "line two\n").replace("line 25\n", "line 25!\n")
    hunks = row_hunks(old, new)
    assert [(h.old_start, h.new_start) for h in hunks] == [(1, 1), (22, 22)]
    assert hunks[1].rows[0].text == "line 22"


def test_crlf_lines_show_without_the_carriage_return() -> None:
    assert _rows("a\r\nb\r\n", "a\r\nc\r\n") == [
        (" ", 1, 1, "a"),
        ("-", 2, None, "b"),
        ("+", None, 2, "c"),
    ]


lines = st.lists(st.sampled_from(["a", "b", "c", "", "d e"]), max_size=12)


@given(lines, lines)
def test_hunks_rebuild_both_sides(old: list[str], new: list[str]) -> None:
    old_text, new_text = "".join(f"{x}\n" for x in old), "".join(f"{x}\n" for x in new)
    # With all context kept, the rows are the whole of both files, numbered in order.
    rows = [r for h in row_hunks(old_text, new_text) for r in h.rows]
    if old == new:
        assert rows == []
        return
    olds = [r for r in rows if r.op != "+"]
    news = [r for r in rows if r.op != "-"]
    assert [r.old for r in olds] == sorted(r.old for r in olds if r.old is not None)
    assert [r.new for r in news] == sorted(r.new for r in news if r.new is not None)
    for r in olds:
        assert r.old is not None and old[r.old - 1] == r.text
    for r in news:
        assert r.new is not None and new[r.new - 1] == r.text
