"""The read card: real line numbers in their own gutter, highlighted code, window notes."""

from __future__ import annotations

from rich.style import Style

from tests.golden import check_golden
from tests.render.helpers import GOLDEN, body_lines, plain, segments
from tether.render import render_result_view
from tether.views import ReadFileLine, ReadResultView

SOURCE = [
    "def greet(name):",
    '\tmessage = "hello " + name  # greet',
    "    return message",
    '"""a doc',
    'string"""',
]


def window(texts: list[str], offset: int, total: int, lang: str | None = "py") -> ReadResultView:
    lines = tuple(ReadFileLine(number=offset + i, text=t) for i, t in enumerate(texts))
    return ReadResultView(
        path="src/app/greet.py", offset=offset, lines=lines, total_lines=total, lang=lang
    )


def split_row(row: str) -> tuple[str, str]:
    gutter, _, code = row.partition(" │ ")
    return gutter, code


def test_header_names_path_and_window() -> None:
    first = plain(render_result_view(window(SOURCE, 98, 120))).splitlines()[0]
    assert "src/app/greet.py" in first
    assert "lines 98–102 of 120" in first


def test_gutter_holds_the_real_line_numbers_apart_from_the_code() -> None:
    rows = body_lines(plain(render_result_view(window(SOURCE, 98, 120))))[:5]
    gutters, codes = zip(*(split_row(r) for r in rows), strict=True)
    assert [g.strip() for g in gutters] == ["98", "99", "100", "101", "102"]
    # Right-aligned in one column: every rule sits at the same place.
    assert {len(g) for g in gutters} == {3}
    expected = [t.expandtabs(4) for t in SOURCE]
    assert [c.rstrip() for c in codes] == expected
    for code in codes:
        assert not any(str(n) in code for n in range(98, 103))


def test_gutter_is_dim_and_its_own_segments() -> None:
    segs = segments(render_result_view(window(SOURCE, 98, 120)))
    numbered = [s for s in segs if s.text.strip().startswith("100")]
    assert numbered
    assert all(s.style is not None and s.style.dim for s in numbered)
    assert "return" not in numbered[0].text


def test_keywords_and_strings_carry_distinct_styles() -> None:
    segs = segments(render_result_view(window(SOURCE, 1, 5)))
    by_text = {s.text: s.style for s in segs}
    keyword, string, comment = by_text["def"], by_text['"hello "'], by_text["# greet"]
    assert isinstance(keyword, Style) and isinstance(string, Style)
    assert keyword.color is not None and string.color is not None
    assert keyword.color != string.color
    assert comment is not None and comment.italic
    # The continuation of a multi-line string keeps the string's style on its own line.
    assert by_text['string"""'] == string


def test_continuation_hint_when_more_lines_remain() -> None:
    text = plain(render_result_view(window(SOURCE, 98, 120)))
    assert "… 18 more lines; continue at offset=103" in text


def test_no_hint_at_end_of_file() -> None:
    text = plain(render_result_view(window(SOURCE, 1, 5)))
    assert "continue at" not in text
    assert "lines 1–5 of 5" in text


def test_empty_window_of_a_non_empty_file() -> None:
    text = plain(render_result_view(window([], 7, 40)))
    assert "0 lines of 40" in text.splitlines()[0]
    assert "empty window: no lines shown from offset=7 of 40" in text


def test_empty_file_says_so() -> None:
    text = plain(render_result_view(window([], 1, 0)))
    assert "empty file" in text.splitlines()[0]
    assert body_lines(text) == ["empty file"]


def test_long_line_is_cropped_with_an_ellipsis_and_keeps_its_number() -> None:
    long = "x = [" + ", ".join(str(i) for i in range(200)) + "]"
    rows = body_lines(plain(render_result_view(window([long], 5000, 5000)), width=60))
    assert len(rows) == 1
    gutter, code = split_row(rows[0])
    assert gutter == "5000"
    assert code.endswith("…")
    assert code.startswith("x = [0, 1, 2")


def test_unknown_lang_renders_plain_text() -> None:
    view = window(["def f(): pass"], 1, 1, lang=None)
    segs = segments(render_result_view(view))
    code = [s for s in segs if "def f()" in s.text]
    assert code and all(s.style is None or s.style.color is None for s in code)


def test_golden_read_card() -> None:
    check_golden(GOLDEN / "read.txt", plain(render_result_view(window(SOURCE, 98, 120))))


def test_control_characters_in_code_are_made_visible() -> None:
    view = window(["x = 1\x1b[2J", "y\x7f"], 1, 2, lang=None)
    out = plain(render_result_view(view))
    assert "\x1b" not in out and "\x7f" not in out
    assert [split_row(r)[1] for r in body_lines(out)] == ["x = 1␛[2J", "y␡"]
