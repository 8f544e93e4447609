"""Line diffs: the numbered hunks every surface shows."""

from __future__ import annotations

from difflib import SequenceMatcher

from hypothesis import given
from hypothesis import strategies as st

from tether.linediff import _changed, _line_count, display_lines, row_hunks


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


@given(
    st.lists(st.sampled_from(["a", "b", ""]), max_size=1),
    st.lists(st.sampled_from(["a", "b", ""]), max_size=1),
)
def test_a_changed_middle_of_a_line_or_none_is_what_the_matcher_finds(
    old: list[str], new: list[str]
) -> None:
    # A middle of at most a line a side (its common head and tail cut off, so two lines
    # there differ) is taken without the matcher: the same changes.
    if old and new and old == new:
        return
    matcher = SequenceMatcher(None, old, new, False)
    expected = [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]
    assert _changed(old, new) == expected


def test_a_one_line_edit_keeps_its_context_and_numbers() -> None:
    old = "".join(f"line {i}\n" for i in range(1, 9))
    assert _rows(old, old.replace("line 4\n", "line four\n")) == [
        (" ", 1, 1, "line 1"),
        (" ", 2, 2, "line 2"),
        (" ", 3, 3, "line 3"),
        ("-", 4, None, "line 4"),
        ("+", None, 4, "line four"),
        (" ", 5, 5, "line 5"),
        (" ", 6, 6, "line 6"),
        (" ", 7, 7, "line 7"),
    ]
    assert _rows(old, old.replace("line 4\n", "")) == [
        *[(" ", n, n, f"line {n}") for n in (1, 2, 3)],
        ("-", 4, None, "line 4"),
        *[(" ", n + 1, n, f"line {n + 1}") for n in (4, 5, 6)],
    ]


@given(st.one_of(st.none(), st.text(st.sampled_from(["a", "\n", "\r", " "]), max_size=12)))
def test_lines_are_counted_as_they_are_shown(text: str | None) -> None:
    assert _line_count(text) == len(display_lines(text))
