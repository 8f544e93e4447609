"""The search card in the terminal: file headers, numbered lines, the match highlighted, the cap."""

from __future__ import annotations

from tests.golden import check_golden
from tests.render.helpers import GOLDEN, body_lines, plain, segments
from tether.render import render_result_view
from tether.render.search_card import MATCH, PATH
from tether.views import (
    GenericCallView,
    SearchFile,
    SearchMatch,
    SearchMatchesResultView,
    SearchPathsResultView,
)

MATCHES = SearchMatchesResultView(
    title="Grep greet\\(",
    files=(
        SearchFile(
            path="src/greet.py",
            matches=(
                SearchMatch(line_number=3, line="def greet(name):"),
                SearchMatch(line_number=12, line='    print(greet("x"))'),
            ),
        ),
        SearchFile(path="main.py", matches=(SearchMatch(line_number=1, line="greet(1)"),)),
    ),
    truncated=True,
    total=40,
)
CALL = GenericCallView(title="Grep greet\\(", kind="search", raw_input={"pattern": "greet\\("})


def test_files_as_headers_then_numbered_lines_then_the_cap() -> None:
    text = plain(render_result_view(MATCHES, CALL))
    assert "Grep greet\\(" in text.splitlines()[0] and "40 matches" in text.splitlines()[0]
    assert body_lines(text) == [
        "src/greet.py",
        " 3 │ def greet(name):",
        '12 │     print(greet("x"))',
        "",
        "main.py",
        " 1 │ greet(1)",
        "capped: showing 3 of 40 matches",
    ]


def test_the_match_is_highlighted_and_the_header_styled() -> None:
    segs = segments(render_result_view(MATCHES, CALL))
    hits = [s.text for s in segs if s.style is not None and s.style == MATCH]
    assert hits == ["greet(", "greet(", "greet("]
    assert any(s.text == "src/greet.py" and s.style == PATH for s in segs)


def test_without_the_call_or_with_a_pattern_python_cannot_read_nothing_is_highlighted() -> None:
    for call in (None, GenericCallView(title="Grep", raw_input={"pattern": "\\p{Greek}("})):
        segs = segments(render_result_view(MATCHES, call))
        assert not any(s.style == MATCH for s in segs)


def test_no_matches_and_no_cap() -> None:
    empty = SearchMatchesResultView(title="Grep zz", files=(), truncated=False, total=0)
    assert body_lines(plain(render_result_view(empty))) == ["no matches"]
    whole = SearchMatchesResultView(files=MATCHES.files, truncated=False, total=3)
    assert "capped" not in plain(render_result_view(whole))


def test_paths_with_the_cap() -> None:
    view = SearchPathsResultView(
        title="Glob *.py", paths=("b.py", "a/c.py"), truncated=True, total=7
    )
    text = plain(render_result_view(view))
    assert "7 files" in text.splitlines()[0]
    assert body_lines(text) == ["b.py", "a/c.py", "capped: showing the 2 newest of 7 files"]
    none = SearchPathsResultView(paths=(), truncated=False, total=0)
    assert body_lines(plain(render_result_view(none))) == ["no files"]


def test_golden_search_card() -> None:
    check_golden(GOLDEN / "search.txt", plain(render_result_view(MATCHES, CALL)))


CONTEXT = SearchMatchesResultView(
    title="Grep todo -i -C 1",
    files=(
        SearchFile(
            path="a.py",
            matches=(
                SearchMatch(line_number=1, line="x = 1", context=True),
                SearchMatch(line_number=2, line="# TODO one"),
                SearchMatch(line_number=3, line="y = 2", context=True),
                SearchMatch(line_number=9, line="z = 3", context=True),
                SearchMatch(line_number=10, line="# todo two"),
            ),
        ),
    ),
    truncated=False,
    total=2,
)
CONTEXT_CALL = GenericCallView(
    title="Grep todo -i -C 1",
    kind="search",
    raw_input={"pattern": "todo", "ignore_case": True, "context": 1},
)


def test_context_lines_are_dimmed_apart_from_matches_with_gaps_marked() -> None:
    text = plain(render_result_view(CONTEXT, CONTEXT_CALL))
    assert "2 matches" in text.splitlines()[0]
    assert body_lines(text) == [
        "a.py",
        " 1 ┆ x = 1",
        " 2 │ # TODO one",
        " 3 ┆ y = 2",
        " ⋮",
        " 9 ┆ z = 3",
        "10 │ # todo two",
    ]
    segs = segments(render_result_view(CONTEXT, CONTEXT_CALL))
    # Case-insensitive as the search was; context lines are never highlighted.
    assert [s.text for s in segs if s.style == MATCH] == ["TODO", "todo"]
    assert not any(s.style == MATCH for s in segments(render_result_view(CONTEXT, CALL)))


def test_counts_per_file_and_their_cap() -> None:
    view = SearchMatchesResultView(
        title="Grep todo -c",
        files=(
            SearchFile(path="a.py", matches=(), count=12),
            SearchFile(path="b/c.py", matches=(), count=3),
        ),
        truncated=True,
        total=40,
    )
    text = plain(render_result_view(view))
    assert "40 matches" in text.splitlines()[0]
    assert body_lines(text) == [
        "12  a.py",
        " 3  b/c.py",
        "capped: showing the counts of 2 files",
    ]
