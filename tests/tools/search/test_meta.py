"""The search meta narrowing: what it accepts round-trips; what is off is refused, never raised."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tether.tools.search.meta import (
    MatchesMeta,
    PathsMeta,
    glob_meta,
    grep_meta,
    matches_meta_from_meta,
    paths_meta_from_meta,
)
from tether.tools.search.value import GlobValue, GrepValue
from tether.views import SearchFile, SearchMatch

GOOD_MATCHES: dict[str, Any] = {
    "files": [
        {
            "path": "a.py",
            "matches": [{"lineNumber": 1, "line": "x"}, {"lineNumber": 4, "line": ""}],
        },
        {"path": "b/c.py", "matches": [{"lineNumber": 2, "line": "y"}]},
    ],
    "truncated": True,
    "total": 9,
    "totalFiles": 5,
}
GOOD_PATHS: dict[str, Any] = {"paths": ["b.py", "a.py"], "truncated": False, "total": 2}


def changed(base: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(base)
    target: Any = out
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


_DELETE = object()


def test_good_meta_narrows() -> None:
    assert matches_meta_from_meta(GOOD_MATCHES) == MatchesMeta(
        files=(
            SearchFile(
                path="a.py",
                matches=(
                    SearchMatch(line_number=1, line="x"),
                    SearchMatch(line_number=4, line=""),
                ),
            ),
            SearchFile(path="b/c.py", matches=(SearchMatch(line_number=2, line="y"),)),
        ),
        truncated=True,
        total=9,
        total_files=5,
    )
    # Stored before files were counted: still a good result, the count unknown.
    without = {k: v for k, v in GOOD_MATCHES.items() if k != "totalFiles"}
    assert matches_meta_from_meta(without) == dataclasses.replace(
        matches_meta_from_meta(GOOD_MATCHES), total_files=None
    )
    assert paths_meta_from_meta(GOOD_PATHS) == PathsMeta(("b.py", "a.py"), False, 2)
    assert matches_meta_from_meta({**GOOD_MATCHES, "extra": [1]}) is not None
    assert matches_meta_from_meta({"files": [], "truncated": False, "total": 0}) is not None


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("files",), _DELETE),
        (("files",), {}),
        (("truncated",), _DELETE),
        (("truncated",), 1),
        (("truncated",), "true"),
        (("total",), _DELETE),
        (("total",), True),
        (("total",), 9.0),
        (("total",), float("nan")),
        (("total",), "9"),
        (("total",), 2),  # below the three listed
        (("totalFiles",), 1),  # below the two listed
        (("totalFiles",), True),
        (("totalFiles",), 5.0),
        (("totalFiles",), "5"),
        (("files", 0), "a.py"),
        (("files", 0, "path"), 3),
        (("files", 0, "path"), ""),
        (("files", 0, "path"), _DELETE),
        (("files", 1, "path"), "a.py"),  # the same file twice
        (("files", 0, "matches"), []),
        (("files", 0, "matches"), {"lineNumber": 1, "line": "x"}),
        (("files", 0, "matches", 0), [1, "x"]),
        (("files", 0, "matches", 0, "lineNumber"), True),
        (("files", 0, "matches", 0, "lineNumber"), 1.0),
        (("files", 0, "matches", 0, "lineNumber"), 0),
        (("files", 0, "matches", 0, "lineNumber"), -1),
        (("files", 0, "matches", 0, "lineNumber"), "1"),
        (("files", 0, "matches", 0, "lineNumber"), _DELETE),
        (("files", 0, "matches", 1, "lineNumber"), 1),  # not increasing
        (("files", 0, "matches", 1, "lineNumber"), 0),  # going back
        (("files", 0, "matches", 0, "line"), None),
        (("files", 0, "matches", 0, "line"), _DELETE),
    ],
)
def test_malformed_matches_meta_is_refused(path: tuple[Any, ...], value: Any) -> None:
    assert matches_meta_from_meta(changed(GOOD_MATCHES, path, value)) is None


def test_an_untruncated_total_must_equal_what_is_listed() -> None:
    assert matches_meta_from_meta({**GOOD_MATCHES, "truncated": False}) is None
    assert matches_meta_from_meta({**GOOD_MATCHES, "truncated": False, "total": 3}) is not None
    assert paths_meta_from_meta({**GOOD_PATHS, "total": 3}) is None
    assert paths_meta_from_meta({**GOOD_PATHS, "total": 3, "truncated": True}) is not None


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("paths",), _DELETE),
        (("paths",), "a.py"),
        (("paths", 0), 1),
        (("paths", 0), ""),
        (("paths", 0), None),
        (("paths", 1), "b.py"),  # listed twice
        (("truncated",), 0),
        (("truncated",), None),
        (("total",), False),
        (("total",), 2.0),
        (("total",), 1),
        (("total",), -1),
    ],
)
def test_malformed_paths_meta_is_refused(path: tuple[Any, ...], value: Any) -> None:
    assert paths_meta_from_meta(changed(GOOD_PATHS, path, value)) is None


@pytest.mark.parametrize("meta", [None, [], "x", 1, True])
def test_non_objects_are_refused(meta: object) -> None:
    assert matches_meta_from_meta(meta) is None
    assert paths_meta_from_meta(meta) is None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
keys = st.sampled_from(["files", "paths", "truncated", "total", "path", "matches", "lineNumber"])


@given(st.dictionaries(keys, json_values, max_size=5) | json_values)
def test_narrowing_never_raises(meta: object) -> None:
    matches_meta_from_meta(meta)
    paths_meta_from_meta(meta)


files = st.lists(
    st.tuples(
        st.text(min_size=1, max_size=10),
        st.lists(st.integers(1, 10_000), min_size=1, max_size=5, unique=True),
        st.text(max_size=10),
    ),
    max_size=5,
    unique_by=lambda f: f[0],
)


@given(files, st.integers(0, 50))
def test_what_the_tool_stores_narrows_back(raw: list[Any], extra: int) -> None:
    value = GrepValue(
        pattern="p",
        files=tuple(
            SearchFile(
                path=path,
                matches=tuple(SearchMatch(line_number=n, line=line) for n in sorted(numbers)),
            )
            for path, numbers, line in raw
        ),
        total=sum(len(numbers) for _, numbers, _ in raw) + extra,
        total_files=len(raw) + extra,
    )
    narrowed = matches_meta_from_meta(grep_meta(value))
    assert narrowed == MatchesMeta(value.files, value.truncated, value.total, len(raw) + extra)


@given(st.lists(st.text(min_size=1, max_size=10), unique=True, max_size=8), st.integers(0, 9))
def test_what_glob_stores_narrows_back(paths: list[str], extra: int) -> None:
    value = GlobValue(pattern="p", paths=tuple(paths), total=len(paths) + extra)
    assert paths_meta_from_meta(glob_meta(value)) == PathsMeta(
        tuple(paths), value.truncated, value.total
    )
