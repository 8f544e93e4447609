"""The pieces under write and edit: text files, hunks and the stored diff."""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tether.linediff import Hunk, hunks
from tether.tools.fs.change_diff import AppliedChange, change_meta, diff_result_view
from tether.tools.fs.textfile import TextFile, count_lines, display_text, line_endings
from tether.tools.result import ToolResult
from tether.views import DiffResultView, FileDiff, Location


@pytest.mark.parametrize(
    ("text", "style"),
    [("", "lf"), ("a", "lf"), ("a\nb\n", "lf"), ("a\r\nb\r\n", "crlf"), ("a\r\nb\n", "mixed")],
)
def test_line_endings(text: str, style: str) -> None:
    assert line_endings(text) == style
    assert TextFile(text, TextFile.decode(b"").encoding).line_endings == style


@pytest.mark.parametrize(
    ("text", "count"), [("", 0), ("a", 1), ("a\n", 1), ("a\nb", 2), ("\n\n", 2)]
)
def test_count_lines(text: str, count: int) -> None:
    assert count_lines(text) == count


def test_display_text_uses_lf_and_replaces_escaped_bytes() -> None:
    assert display_text("a\r\nb\udcff\n") == "a\nb\ufffd\n"


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"plain\n",
        b"bad \xff\xfe utf-8\r\n",
        codecs.BOM_UTF8 + "bom ☃\n".encode(),
        codecs.BOM_UTF16_LE + "le\r\n𝄞".encode("utf-16-le"),
        codecs.BOM_UTF16_BE + "be\n".encode("utf-16-be"),
        codecs.BOM_UTF32_LE + "32\n".encode("utf-32-le"),
        codecs.BOM_UTF16_LE + b"\x00\xd8",  # a lone surrogate survives too
    ],
)
def test_decode_then_encode_is_byte_exact(data: bytes) -> None:
    file = TextFile.decode(data)
    assert file.encode(file.text) == data


@given(st.binary(max_size=200))
def test_any_utf8_bytes_round_trip(data: bytes) -> None:
    file = TextFile.decode(data)
    assert file.encode(file.text) == data


def test_truncated_utf16_does_not_decode() -> None:
    with pytest.raises(UnicodeDecodeError):
        TextFile.decode(codecs.BOM_UTF16_LE + b"a")


def test_no_hunks_for_equal_text() -> None:
    assert hunks("a\nb\n", "a\nb\n") == []


def test_hunk_context_is_clamped_at_both_ends() -> None:
    assert hunks("a\nb\n", "a\nc\n") == [Hunk("a\nb\n", "a\nc\n", 1)]
    assert hunks("", "new\n") == [Hunk("", "new\n", 1)]
    assert hunks("gone\n", "") == [Hunk("gone\n", "", 1)]


def test_hunks_count_lines_at_newlines_only() -> None:
    # A form feed is not a line break for the read tool, so not for the hunks either.
    old = "1\x0c1\n2\n3\n4\n5\n6\n"
    new = "1\x0c1\n2\n3\n4\n5\nsix\n"
    assert hunks(old, new) == [Hunk("3\n4\n5\n6\n", "3\n4\n5\nsix\n", 3)]


def test_changes_six_lines_apart_share_a_hunk_and_seven_do_not() -> None:
    lines = [f"{n}\n" for n in range(1, 21)]
    six = lines.copy()
    six[2], six[9] = "x\n", "y\n"  # lines 3 and 10: six equal lines between
    assert len(hunks("".join(lines), "".join(six))) == 1
    seven = lines.copy()
    seven[2], seven[10] = "x\n", "y\n"  # lines 3 and 11: seven between
    got = hunks("".join(lines), "".join(seven))
    assert [h.new_start for h in got] == [1, 8]
    assert got[1].old_text == "8\n9\n10\n11\n12\n13\n14\n"


@given(
    st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d"]), max_size=30),
    st.lists(st.sampled_from(["a\n", "b\n", "c\n", "e\n"]), max_size=30),
)
def test_hunks_cover_every_change(old_lines: list[str], new_lines: list[str]) -> None:
    old, new = "".join(old_lines), "".join(new_lines)
    found = hunks(old, new)
    assert (found == []) == (old == new)
    for hunk in found:
        assert hunk.new_start >= 1
        assert hunk.old_text in old
        assert hunk.new_text in new


def _change(**overrides: Any) -> AppliedChange:
    fields: dict[str, Any] = {
        "path": Path("/w/a.txt"),
        "diffs": (FileDiff(path="/w/a.txt", old_text="a\n", new_text="b\n"),),
        "lines": (4,),
        "created": False,
        "line_count": 9,
    }
    return AppliedChange(**(fields | overrides))


def test_meta_round_trips_to_the_card() -> None:
    meta = change_meta(_change())
    assert meta == {
        "path": "/w/a.txt",
        "diffs": [{"path": "/w/a.txt", "oldText": "a\n", "newText": "b\n"}],
        "lines": [4],
    }
    assert diff_result_view(ToolResult(content=(), meta=meta), "Edit") == DiffResultView(
        title="Edit /w/a.txt",
        diffs=(FileDiff(path="/w/a.txt", old_text="a\n", new_text="b\n"),),
        locations=(Location(path="/w/a.txt", line=4),),
    )


GOOD_DIFF = {"path": "/w/a", "oldText": None, "newText": "x"}


@pytest.mark.parametrize(
    "meta",
    [
        None,
        "text",
        [],
        {"diffs": [GOOD_DIFF], "lines": [1]},
        {"path": 3, "diffs": [GOOD_DIFF], "lines": [1]},
        {"path": "/w/a", "diffs": "x", "lines": [1]},
        {"path": "/w/a", "diffs": [GOOD_DIFF], "lines": 1},
        {"path": "/w/a", "diffs": [GOOD_DIFF], "lines": [1, 2]},
        {"path": "/w/a", "diffs": [], "lines": []},
        {"path": "/w/a", "diffs": ["x"], "lines": [1]},
        {"path": "/w/a", "diffs": [{"path": "/w/a", "newText": "x"}], "lines": [1]},
        {"path": "/w/a", "diffs": [{"path": 1, "oldText": None, "newText": "x"}], "lines": [1]},
        {"path": "/w/a", "diffs": [{"path": "/w/a", "oldText": None, "newText": 1}], "lines": [1]},
        {"path": "/w/a", "diffs": [{"path": "/w/a", "oldText": 2, "newText": "x"}], "lines": [1]},
        {"path": "/w/a", "diffs": [GOOD_DIFF], "lines": [0]},
        {"path": "/w/a", "diffs": [GOOD_DIFF], "lines": [True]},
        {"path": "/w/a", "diffs": [GOOD_DIFF], "lines": [1.0]},
    ],
)
def test_malformed_meta_gives_the_generic_card(meta: Any) -> None:
    assert diff_result_view(ToolResult(content=(), meta=meta), "Write") is None


def test_error_results_give_the_generic_card() -> None:
    meta = change_meta(_change())
    assert diff_result_view(ToolResult(content=(), is_error=True, meta=meta), "Edit") is None
