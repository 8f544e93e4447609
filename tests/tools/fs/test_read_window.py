"""The window scan against a whole-file reference, for any bytes cut into any chunks."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from tether.tools.fs.read_window import (
    LINE_CHARS,
    TRUNCATION_SUFFIX,
    Window,
    scan_window,
    scan_window_from,
)
from tether.views import ReadFileLine


def reference(data: bytes, offset: int, limit: int, cap: int) -> Window:
    """The window computed the obvious way: the whole file in memory."""
    parts = data.split(b"\n")
    if parts[-1] == b"":
        parts.pop()
    lines: list[ReadFileLine] = []
    used = 0
    capped = False
    for index in range(offset - 1, min(len(parts), offset - 1 + limit)):
        raw = parts[index]
        text = (raw[:-1] if raw.endswith(b"\r") else raw).decode("utf-8", "replace")
        if len(text) > LINE_CHARS:
            text = text[:LINE_CHARS] + TRUNCATION_SUFFIX
        size = len(text.encode()) + (1 if lines else 0)
        if used + size > cap:
            capped = True
            break
        used += size
        lines.append(ReadFileLine(number=index + 1, text=text))
    return Window(tuple(lines), len(parts), capped)


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    """`data` cut at the given positions (bytes objects, some possibly empty)."""
    points = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    return [data[a:b] for a, b in pairwise(points)] + [b""]


# Pieces that matter at boundaries: newlines, CR, multi-byte and broken UTF-8, plain text.
PIECES = [b"\n", b"\r", b"\r\n", b"a", b"xyz", "é".encode(), "€".encode(), "😀".encode()]
PIECES += [b"\xe2\x82", b"\xff", b"\xf0\x9f", b"\x80", b"\xc3"]


@st.composite
def contents(draw: st.DrawFn) -> bytes:
    """Files built from boundary-prone pieces, some repeated into lines past the line cap."""
    runs = draw(
        st.lists(
            st.tuples(st.sampled_from(PIECES), st.sampled_from([1, 1, 1, 2, 700, 2100, 4100])),
            max_size=12,
        )
    )
    return b"".join(piece * times for piece, times in runs)


@settings(max_examples=300, deadline=None)
@given(
    data=contents(),
    cuts=st.lists(st.integers(min_value=0, max_value=20_000), max_size=6),
    offset=st.integers(min_value=1, max_value=6),
    limit=st.integers(min_value=1, max_value=6),
    cap=st.sampled_from([0, 1, 5, 40, 3000, 9000, 51_200]),
)
def test_scan_matches_the_whole_file_reference(
    data: bytes, cuts: list[int], offset: int, limit: int, cap: int
) -> None:
    assert scan_window(chunked(data, cuts), offset, limit, cap) == reference(
        data, offset, limit, cap
    )


@settings(max_examples=300, deadline=None)
@given(
    data=contents(),
    cuts=st.lists(st.integers(min_value=0, max_value=20_000), max_size=6),
    start=st.integers(min_value=0, max_value=8),
    ahead=st.integers(min_value=0, max_value=4),
    limit=st.integers(min_value=1, max_value=6),
    cap=st.sampled_from([0, 5, 40, 9000, 51_200]),
)
def test_a_scan_started_at_a_later_chunk_finds_the_same_window(  # noqa: PLR0917
    data: bytes, cuts: list[int], start: int, ahead: int, limit: int, cap: int
) -> None:
    # A scan that starts at chunk `start`, told how many newlines came before it, returns the
    # same window as the whole scan when the newline before the window is in what it scans.
    chunks = chunked(data, cuts)
    start = min(start, len(chunks) - 1)
    before = sum(chunk.count(b"\n") for chunk in chunks[:start])
    offset = before + 1 + (ahead if start == 0 else ahead + 1)
    whole = reference(data, offset, limit, cap)
    assert scan_window_from(chunks[start:], offset, limit, cap, before) == (
        whole.lines,
        whole.capped,
    )


def test_every_cut_of_a_small_file_gives_the_same_window() -> None:
    data = "α\r\nb€\n\xe2\x82z\n".encode() + b"\xe2\x82\xffz\r\n" + "😀".encode()
    expected = reference(data, 1, 10, 100)
    for cut in range(len(data) + 1):
        assert scan_window([data[:cut], data[cut:]], 1, 10, 100) == expected


def test_a_line_split_between_chunks_keeps_its_characters() -> None:
    euro = "€".encode()
    window = scan_window([b"ab" + euro[:1], euro[1:2], euro[2:] + b"c\n"], 1, 5, 100)
    assert window.lines == (ReadFileLine(number=1, text="ab€c"),)
    assert window.total_lines == 1


def test_a_long_line_keeps_its_head_and_counts_its_tail() -> None:
    line = "é" * 3000 + "\n"
    window = scan_window([line.encode()[i : i + 1000] for i in range(0, 6002, 1000)], 1, 1, 9999)
    assert window.lines == (ReadFileLine(number=1, text="é" * LINE_CHARS + TRUNCATION_SUFFIX),)


def test_a_truncation_cut_inside_a_character_is_not_a_replacement() -> None:
    # 2000 three-byte characters, then more: the kept bytes end mid-character.
    data = ("€" * 2001 + "tail").encode()
    window = scan_window([data], 1, 1, 99_999)
    assert window.lines[0].text == "€" * LINE_CHARS + TRUNCATION_SUFFIX


def test_a_line_of_exactly_the_cap_plus_a_carriage_return_is_whole() -> None:
    data = b"x" * LINE_CHARS + b"\r\n"
    assert scan_window([data], 1, 1, 99_999).lines[0].text == "x" * LINE_CHARS


def test_counting_goes_on_after_the_window_and_the_cap() -> None:
    data = b"one\ntwo\nthree\nfour\nfive"
    assert scan_window([data], 2, 1, 100) == Window((ReadFileLine(number=2, text="two"),), 5, False)
    assert scan_window([data], 2, 3, 7) == Window((ReadFileLine(number=2, text="two"),), 5, True)


def test_empty_input_has_no_lines() -> None:
    assert scan_window([], 1, 10, 100) == Window((), 0, False)
    assert scan_window([b"", b""], 1, 10, 100) == Window((), 0, False)


def test_a_lone_newline_is_one_empty_line() -> None:
    assert scan_window([b"\n"], 1, 10, 100) == Window((ReadFileLine(number=1, text=""),), 1, False)


def test_skipping_lands_exactly_on_the_offset_across_chunks() -> None:
    data = b"".join(b"%d\n" % n for n in range(1, 1001))
    chunks = [data[i : i + 7] for i in range(0, len(data), 7)]
    window = scan_window(chunks, 500, 2, 100)
    assert [line.text for line in window.lines] == ["500", "501"]
    assert window.total_lines == 1000


def test_a_long_line_of_four_byte_characters_keeps_two_thousand_of_them() -> None:
    data = ("😀" * 2100 + "\n").encode()
    window = scan_window([data[i : i + 333] for i in range(0, len(data), 333)], 1, 1, 99_999)
    assert window.lines[0].text == "😀" * LINE_CHARS + TRUNCATION_SUFFIX
