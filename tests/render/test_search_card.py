"""The search card in the terminal: file headers, numbered lines, the match highlighted, the cap."""

from __future__ import annotations

from tests.golden import check_golden
from tests.render.helpers import GOLDEN, body_lines, plain, segments
from tether.render import render_result_view
from tether.render.search_card import MATCH, PATH, SHOWN
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
        "… 37 more matches",
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
    assert "more" not in plain(render_result_view(whole))


def test_paths_with_the_cap() -> None:
    view = SearchPathsResultView(
        title="Glob *.py", paths=("b.py", "a/c.py"), truncated=True, total=7
    )
    text = plain(render_result_view(view))
    assert "7 files" in text.splitlines()[0]
    assert body_lines(text) == ["b.py", "a/c.py", "… 5 more files"]
    none = SearchPathsResultView(paths=(), truncated=False, total=0)
    assert body_lines(plain(render_result_view(none))) == ["no files"]


def test_a_long_search_shows_twenty_then_how_many_more_unless_in_full() -> None:
    files = tuple(
        SearchFile(
            path=f"f{n}.py",
            matches=tuple(SearchMatch(line_number=i, line=f"hit {i}") for i in range(1, 8)),
        )
        for n in range(5)
    )
    grep = SearchMatchesResultView(title="Grep hit", files=files, truncated=False, total=35)
    lines = body_lines(plain(render_result_view(grep, full=False)))
    rows = [line for line in lines if "│ hit" in line]
    assert len(rows) == SHOWN
    # Files 0-1 whole, file 2 cut after six matches: the count goes on across files.
    assert [line for line in lines if line.endswith(".py")] == ["f0.py", "f1.py", "f2.py"]
    assert lines[-1] == "… 15 more matches"
    assert len([row for row in body_lines(plain(render_result_view(grep))) if "│" in row]) == 35

    glob = SearchPathsResultView(
        title="Glob *", paths=tuple(f"p{i}" for i in range(30)), truncated=True, total=130
    )
    lines = body_lines(plain(render_result_view(glob, full=False)))
    assert lines[:SHOWN] == [f"p{i}" for i in range(SHOWN)]
    assert lines[SHOWN:] == ["… 110 more files"]
    assert body_lines(plain(render_result_view(glob)))[-1] == "… 100 more files"


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
        total_files=9,
    )
    text = plain(render_result_view(view))
    assert "40 matches" in text.splitlines()[0]
    assert body_lines(text) == ["12  a.py", " 3  b/c.py", "… 7 more files"]


def test_collapsed_context_stops_at_the_last_shown_match() -> None:
    lines = []
    for n in range(1, 31):
        lines += [
            SearchMatch(line_number=4 * n - 1, line="before", context=True),
            SearchMatch(line_number=4 * n, line=f"hit {n}"),
        ]
    view = SearchMatchesResultView(
        files=(SearchFile(path="a.py", matches=tuple(lines)),), truncated=False, total=30
    )
    body = body_lines(plain(render_result_view(view, full=False)))
    assert [row for row in body if "│" in row][-1].endswith(f"hit {SHOWN}")
    assert body[-2:] == [f"{4 * SHOWN} │ hit {SHOWN}", "… 10 more matches"]
    assert sum("┆" in row for row in body) == SHOWN
