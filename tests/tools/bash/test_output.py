"""The bounded output capture: head and tail, streaming ANSI stripping, split characters."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from tether.tools.bash.output import (
    AnsiStripper,
    Clipped,
    HeadTail,
    OutputCapture,
    cut_marker,
    strip_ansi,
)


def _pieces(text: str, cuts: list[int]) -> list[str]:
    points = sorted({min(c, len(text)) for c in cuts})
    bounds = [0, *points, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


@given(
    st.text(alphabet="ab\n", max_size=300),
    st.lists(st.integers(0, 300), max_size=20),
    st.integers(0, 40),
    st.integers(0, 40),
)
def test_head_tail_keeps_exactly_the_ends(text: str, cuts: list[int], h: int, t: int) -> None:
    buffer = HeadTail(h, t)
    for piece in _pieces(text, cuts):
        buffer.feed(piece)
    kept = buffer.snapshot()
    assert kept.total == len(text)
    assert kept.head == text[:h]
    rest = text[h:]
    assert kept.tail == rest[max(0, len(rest) - t) :]
    assert kept.dropped == max(0, len(text) - h - t)


def test_head_tail_memory_stays_bounded() -> None:
    buffer = HeadTail(10, 10)
    for _ in range(10_000):
        buffer.feed("x" * 1000)
    kept = buffer.snapshot()
    assert kept.total == 10_000_000
    assert len(kept.head) == 10
    assert len(kept.tail) == 10
    assert len(buffer._tail) <= 20 + 1000


def test_clipped_text_states_the_cut() -> None:
    assert Clipped("ab", "", 2).text() == "ab"
    assert Clipped("ab", "yz", 10).text() == "ab" + cut_marker(6) + "yz"
    assert cut_marker(6) == "\n... [6 characters truncated] ...\n"


@given(st.text(alphabet="abc", max_size=200), st.integers(0, 60), st.integers(0, 80))
def test_fit_keeps_a_prefix_and_a_suffix(text: str, head_limit: int, limit: int) -> None:
    buffer = HeadTail(head_limit, 30)
    buffer.feed(text)
    fitted = buffer.snapshot().fit(limit)
    assert len(fitted.head) + len(fitted.tail) <= max(limit, 0)
    assert text.startswith(fitted.head)
    assert text.endswith(fitted.tail)
    assert fitted.total == len(text)
    assert fitted.dropped == len(text) - len(fitted.head) - len(fitted.tail)
    if len(text) <= min(limit, head_limit + 30):
        assert fitted.text() == text


def test_strip_ansi_removes_colours_titles_and_charsets() -> None:
    text = (
        "\x1b[1;31mred\x1b[0m \x1b]0;title\x07"
        "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ \x1b(Bok\x1b=!"
    )
    assert strip_ansi(text) == "red link ok!"


_ANSI_ALPHABET = ["a", "\n", "\x1b", "[", "]", "3", "1", ";", "m", "\x07", "\\", "(", "B", " "]


@given(
    st.lists(st.sampled_from(_ANSI_ALPHABET), max_size=80).map("".join),
    st.lists(st.integers(0, 80), max_size=10),
)
def test_streaming_strip_matches_stripping_the_whole(text: str, cuts: list[int]) -> None:
    stripper = AnsiStripper()
    out = "".join(stripper.feed(piece) for piece in _pieces(text, cuts)) + stripper.flush()
    assert out == strip_ansi(text)


def test_a_sequence_split_across_reads_is_still_stripped() -> None:
    stripper = AnsiStripper()
    assert stripper.feed("one \x1b[3") == "one "
    assert stripper.feed("1mtwo\x1b]0;ti") == "two"
    assert stripper.feed("tle\x07three") == "three"
    assert stripper.flush() == ""


@given(
    st.binary(max_size=200) | st.text(max_size=60).map(lambda s: s.encode()),
    st.lists(st.integers(0, 200), max_size=20),
)
def test_capture_decodes_like_the_whole(data: bytes, cuts: list[int]) -> None:
    capture = OutputCapture()
    points = sorted({min(c, len(data)) for c in cuts})
    bounds = [0, *points, len(data)]
    for a, b in itertools.pairwise(bounds):
        capture.feed(data[a:b])
    capture.close()
    whole = data.decode("utf-8", errors="replace")
    assert capture.card().text() == whole
    assert capture.model().text() == strip_ansi(whole)


def test_capture_keeps_a_character_split_between_reads() -> None:
    capture = OutputCapture()
    encoded = "é€😀".encode()
    for i in range(len(encoded)):
        capture.feed(encoded[i : i + 1])
    capture.close()
    assert capture.card().text() == "é€😀"


def test_capture_bounds_card_and_model_separately() -> None:
    capture = OutputCapture(card_limits=(5, 5), model_limits=(3, 3))
    capture.feed(b"\x1b[31m" + b"x" * 100 + b"END")
    capture.close()
    card = capture.card()
    model = capture.model()
    assert card.head == "\x1b[31m"
    assert card.tail == "xxEND"
    assert card.total == 108
    assert (model.head, model.tail, model.total) == ("xxx", "END", 103)
    assert capture.version > 0


def test_recent_is_a_bounded_tail_from_a_line_start() -> None:
    capture = OutputCapture(card_limits=(100, 100))
    assert capture.recent(50) == ""
    capture.feed(b"short\n")
    assert capture.recent(50) == "short\n"
    capture.feed("".join(f"line {i}\n" for i in range(1, 200)).encode())
    recent = capture.recent(50)
    assert recent.endswith("line 199\n")
    first, _, rest = recent.partition("\n")
    assert first.startswith("... [") and first.endswith(
        " earlier characters not shown while it runs] ..."
    )
    # What follows the note starts at a line and is no longer than asked.
    assert rest.startswith("line ") and len(rest) <= 50
    shown = int(first.split("[")[1].split(" ")[0])
    assert shown + len(rest) == capture.card().total
    # One line longer than the limit is cut where it must be.
    long = OutputCapture()
    long.feed(b"x" * 500)
    assert (
        long.recent(10) == "... [490 earlier characters not shown while it runs] ...\n" + "x" * 10
    )
