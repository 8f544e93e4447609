"""The diff card: +/- lines with old and new numbers, new files, hunks placed by locations."""

from __future__ import annotations

from tests.golden import check_golden
from tests.render.helpers import GOLDEN, body_lines, plain, segments
from tether.linediff import display_lines
from tether.render import render_call_view, render_result_view
from tether.render.diff_card import MAX_ROWS_PER_FILE
from tether.views import DiffCallView, DiffResultView, FileDiff, Location

OLD = "".join(f"line {i}\n" for i in range(1, 21))
NEW = OLD.replace("line 2\n", "line two\n").replace("line 15\n", "line 15a\nline 15b\n")


def row(text: str) -> tuple[str, str, str]:
    """(old number, new number, sign + text) of one diff row."""
    gutter, _, rest = text.partition(" │ ")
    old, new = gutter[: len(gutter) // 2], gutter[len(gutter) // 2 + 1 :]
    return old.strip(), new.strip(), rest


def rows(text: str) -> list[tuple[str, str, str]]:
    return [row(r) for r in body_lines(text) if " │ " in r]


def test_changed_lines_carry_signs_and_both_numbers() -> None:
    view = DiffCallView(
        title="Edit a.txt", diffs=(FileDiff(path="a.txt", old_text=OLD, new_text=NEW),)
    )
    text = plain(render_call_view(view))
    assert "Edit a.txt" in text.splitlines()[0]
    assert body_lines(text)[0] == "a.txt  +3 −2"
    got = rows(text)
    assert ("2", "", "- line 2") in got
    assert ("", "2", "+ line two") in got
    assert ("15", "", "- line 15") in got
    assert ("", "15", "+ line 15a") in got
    assert ("", "16", "+ line 15b") in got
    assert ("16", "17", "  line 16") in got
    # Unchanged lines far from a change are left out, and the gap is marked.
    assert not any(r[2] == "  line 9" for r in got)
    assert any(line.strip().startswith("⋯") for line in body_lines(text))


def test_removed_and_added_lines_are_red_and_green() -> None:
    view = DiffResultView(diffs=(FileDiff(path="a.txt", old_text="a\nb\n", new_text="a\nc\n"),))
    segs = segments(render_result_view(view))
    removed = next(s for s in segs if s.text == "- b")
    added = next(s for s in segs if s.text == "+ c")
    assert removed.style is not None and removed.style.color is not None
    assert added.style is not None and added.style.color is not None
    assert removed.style.color.name == "red"
    assert added.style.color.name == "green"


def test_new_file_is_all_added_with_new_numbers_only() -> None:
    view = DiffCallView(
        title="Write new.py", diffs=(FileDiff(path="new.py", old_text=None, new_text="a\nb\nc"),)
    )
    text = plain(render_call_view(view))
    assert body_lines(text)[0] == "new.py  +3 −0  new file"
    assert rows(text) == [("", "1", "+ a"), ("", "2", "+ b"), ("", "3", "+ c")]


def test_empty_new_file_and_unchanged_file() -> None:
    empty = DiffResultView(diffs=(FileDiff(path="e.txt", old_text=None, new_text=""),))
    assert body_lines(plain(render_result_view(empty)))[1] == "empty file"
    same = DiffResultView(diffs=(FileDiff(path="s.txt", old_text="x\n", new_text="x\n"),))
    assert body_lines(plain(render_result_view(same)))[1] == "no changes"
    nothing = DiffResultView(diffs=())
    assert body_lines(plain(render_result_view(nothing))) == ["no files changed"]


def test_crlf_text_is_split_like_the_read_tool() -> None:
    assert display_lines("a\r\nb\r\n") == ["a", "b"]
    assert display_lines("a\nb") == ["a", "b"]
    assert display_lines("") == []
    assert display_lines("\n") == [""]
    view = DiffResultView(
        diffs=(FileDiff(path="w.txt", old_text="one\r\ntwo\r\n", new_text="one\r\n2\r\n"),)
    )
    got = rows(plain(render_result_view(view)))
    assert got == [("1", "1", "  one"), ("2", "", "- two"), ("", "2", "+ 2")]


def test_hunk_locations_number_the_lines_in_the_file() -> None:
    view = DiffResultView(
        title="Edit a.py",
        diffs=(
            FileDiff(path="a.py", old_text="x\ny\nz\n", new_text="x\nY\nY2\nz\n"),
            FileDiff(path="a.py", old_text="p\nq\nr\n", new_text="p\nQ\nr\n"),
        ),
        locations=(Location(path="a.py", line=40), Location(path="a.py", line=90)),
    )
    text = plain(render_result_view(view))
    # Both hunks of one file sit under one header with the summed counts.
    assert body_lines(text)[0] == "a.py  +3 −2"
    got = rows(text)
    assert got[:5] == [
        ("40", "40", "  x"),
        ("41", "", "- y"),
        ("", "41", "+ Y"),
        ("", "42", "+ Y2"),
        ("42", "43", "  z"),
    ]
    # The first hunk added a line, so the second starts one line earlier in the old file.
    assert got[5:] == [
        ("89", "90", "  p"),
        ("90", "", "- q"),
        ("", "91", "+ Q"),
        ("91", "92", "  r"),
    ]


def test_locations_that_do_not_pair_with_diffs_are_ignored() -> None:
    diff = FileDiff(path="a.py", old_text="a\n", new_text="b\n")
    other_path = DiffResultView(diffs=(diff,), locations=(Location(path="b.py", line=50),))
    count_mismatch = DiffResultView(
        diffs=(diff,), locations=(Location(path="a.py", line=5), Location(path="a.py", line=9))
    )
    for view in (other_path, count_mismatch):
        assert rows(plain(render_result_view(view))) == [("1", "", "- a"), ("", "1", "+ b")]


def test_separate_files_get_separate_sections() -> None:
    view = DiffResultView(
        diffs=(
            FileDiff(path="a.txt", old_text="1\n", new_text="2\n"),
            FileDiff(path="b.txt", old_text=None, new_text="new\n"),
        )
    )
    lines = body_lines(plain(render_result_view(view)))
    assert "a.txt  +1 −1" in lines
    assert "b.txt  +1 −0  new file" in lines


def test_very_long_new_file_is_summarised() -> None:
    text_in = "".join(f"{i}\n" for i in range(MAX_ROWS_PER_FILE + 25))
    view = DiffResultView(diffs=(FileDiff(path="big.txt", old_text=None, new_text=text_in),))
    text = plain(render_result_view(view))
    assert len(rows(text)) == MAX_ROWS_PER_FILE
    assert "… 25 more diff lines not shown" in text


def test_tabs_are_expanded_and_long_lines_cropped() -> None:
    view = DiffResultView(
        diffs=(
            FileDiff(path="t.go", old_text="\tx := 1\n", new_text="\tx := 2" + "0" * 200 + "\n"),
        )
    )
    got = rows(plain(render_result_view(view), width=60))
    assert got[0] == ("1", "", "-     x := 1")
    assert got[1][2].startswith("+     x := 2000") and got[1][2].endswith("…")


def test_golden_diff_card() -> None:
    view = DiffCallView(
        title="Edit a.txt", diffs=(FileDiff(path="a.txt", old_text=OLD, new_text=NEW),)
    )
    check_golden(GOLDEN / "diff.txt", plain(render_call_view(view)))


def test_edit_call_without_a_line_shows_no_numbers() -> None:
    view = DiffCallView(
        title="Edit a.py",
        diffs=(FileDiff(path="a.py", old_text="return 1\n", new_text="return 2\n"),),
        locations=(Location(path="a.py"),),
    )
    assert body_lines(plain(render_call_view(view))) == ["a.py  +1 −1", "- return 1", "+ return 2"]


def test_unplaced_hunk_gap_marker_without_gutter() -> None:
    old = "".join(f"{i}\n" for i in range(20))
    new = old.replace("1\n", "one\n", 1).replace("18\n", "eighteen\n")
    view = DiffCallView(
        title="Edit n",
        diffs=(FileDiff(path="n", old_text=old, new_text=new),),
        locations=(Location(path="n"),),
    )
    lines = body_lines(plain(render_call_view(view)))
    assert "⋯" in lines
    assert "- 1" in lines and "+ eighteen" in lines
    assert not any("│" in line for line in lines)


def test_escape_sequences_in_file_text_are_shown_not_sent() -> None:
    view = DiffResultView(diffs=(FileDiff(path="x", old_text=None, new_text="a\x1b[2Jb\n"),))
    out = plain(render_result_view(view))
    assert "\x1b" not in out
    assert "+ a␛[2Jb" in out
