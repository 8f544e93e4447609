"""`lang_from_path`, `read_meta_from_meta` and the envelope helpers, case by case."""

from __future__ import annotations

import dataclasses
import enum
import math
from typing import Annotated, Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st
from pydantic import Strict, TypeAdapter
from pydantic.dataclasses import dataclass as pydantic_dataclass

from tether.tools.fs.read_render import (
    ReadMeta,
    envelope_content,
    footer,
    lang_from_path,
    read_meta_from_meta,
    render_envelope,
)
from tether.views import ReadFileLine
from tether.wire import WIRE_CONFIG


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("src/app.py", "python"),
        ("types.pyi", "python"),
        ("a/b/index.ts", "typescript"),
        ("view.tsx", "tsx"),
        ("main.js", "javascript"),
        ("mod.mjs", "javascript"),
        ("App.jsx", "jsx"),
        ("package.json", "json"),
        ("Rakefile.rb", "ruby"),
        ("main.go", "go"),
        ("lib.rs", "rust"),
        ("Main.java", "java"),
        ("x.c", "c"),
        ("x.h", "c"),
        ("x.cpp", "cpp"),
        ("x.hpp", "cpp"),
        ("x.cc", "cpp"),
        ("Program.cs", "csharp"),
        ("x.kt", "kotlin"),
        ("x.swift", "swift"),
        ("x.php", "php"),
        ("run.sh", "bash"),
        ("ci.yaml", "yaml"),
        ("ci.yml", "yaml"),
        ("pyproject.toml", "toml"),
        ("setup.ini", "ini"),
        ("README.md", "markdown"),
        ("index.html", "html"),
        ("index.htm", "html"),
        ("site.css", "css"),
        ("site.scss", "scss"),
        ("q.sql", "sql"),
        ("pom.xml", "xml"),
        ("init.lua", "lua"),
        ("README.MD", "markdown"),
        ("Main.PY", "python"),
        ("C:\\src\\main.rs", "rust"),
        ("C:\\src.d\\Makefile", None),
        ("dir.py/Makefile", None),
        (".gitignore", None),
        ("src/.env", None),
        ("Makefile", None),
        ("archive.", None),
        ("notes.unknownext", None),
        ("", None),
        ("a.tar.gz", None),
        ("..py", "python"),
    ],
)
def test_lang_from_path(path: str, lang: str | None) -> None:
    assert lang_from_path(path) == lang


def valid_meta(**changes: Any) -> dict[str, Any]:
    """A well-formed meta, with some keys replaced (or removed when given `...`)."""
    meta: dict[str, Any] = {
        "path": "/w/a.py",
        "offset": 2,
        "lines": [{"number": 2, "text": "b"}, {"number": 3, "text": "c"}],
        "totalLines": 5,
        "lang": "python",
    }
    meta.update(changes)
    return {k: v for k, v in meta.items() if v is not ...}


def test_a_valid_meta_narrows() -> None:
    assert read_meta_from_meta(valid_meta()) == ReadMeta(
        path="/w/a.py",
        offset=2,
        lines=(ReadFileLine(number=2, text="b"), ReadFileLine(number=3, text="c")),
        total_lines=5,
        lang="python",
    )


@pytest.mark.parametrize(
    "meta",
    [
        valid_meta(lang=...),
        valid_meta(lines=[]),
        valid_meta(lines=[], offset=1, totalLines=0),
        valid_meta(lines=[], offset=9),
        valid_meta(extra={"anything": [1]}, another=None),
        valid_meta(lines=[{"number": 2, "text": "b", "extra": True}]),
        valid_meta(lines=[{"number": 5, "text": ""}]),
        valid_meta(lang=""),
        valid_meta(byteCap=51_200),
    ],
)
def test_accepted(meta: dict[str, Any]) -> None:
    assert read_meta_from_meta(meta) is not None


@pytest.mark.parametrize(
    "meta",
    [
        None,
        [],
        "meta",
        3,
        valid_meta(path=...),
        valid_meta(path=1),
        valid_meta(path=None),
        valid_meta(offset=...),
        valid_meta(totalLines=...),
        valid_meta(lines=...),
        valid_meta(lines=None),
        valid_meta(lines={"number": 2, "text": "b"}),
        valid_meta(lines=({"number": 2, "text": "b"},)),
        valid_meta(lang=None),
        valid_meta(lang=1),
        valid_meta(lang=["python"]),
        valid_meta(byteCap=0),
        valid_meta(byteCap=True),
        valid_meta(byteCap="50 KB"),
        valid_meta(offset=True),
        valid_meta(offset=2.0),
        valid_meta(offset=math.nan),
        valid_meta(offset=math.inf),
        valid_meta(offset="2"),
        valid_meta(offset=0),
        valid_meta(offset=-1),
        valid_meta(totalLines=-1),
        valid_meta(totalLines=5.0),
        valid_meta(totalLines=False),
        valid_meta(totalLines=math.nan),
        valid_meta(totalLines=math.inf),
        valid_meta(lines=[{"number": 0, "text": "x"}], offset=1),
        valid_meta(lines=[{"number": 1, "text": "a"}]),
        valid_meta(lines=[{"number": 6, "text": "f"}]),
        valid_meta(lines=[{"number": 3, "text": "c"}, {"number": 2, "text": "b"}]),
        valid_meta(lines=[{"number": 2, "text": "b"}, {"number": 2, "text": "b"}]),
        valid_meta(lines=[{"number": True, "text": "b"}], offset=1),
        valid_meta(lines=[{"number": 2.0, "text": "b"}]),
        valid_meta(lines=[{"number": math.nan, "text": "b"}]),
        valid_meta(lines=[{"number": "2", "text": "b"}]),
        valid_meta(lines=[{"number": 2}]),
        valid_meta(lines=[{"text": "b"}]),
        valid_meta(lines=[{"number": 2, "text": None}]),
        valid_meta(lines=[{"number": 2, "text": 2}]),
        valid_meta(lines=[[2, "b"]]),
        valid_meta(lines=["2: b"]),
        valid_meta(lines=[None]),
    ],
)
def test_rejected(meta: object) -> None:
    assert read_meta_from_meta(meta) is None


JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=5)
    | st.sampled_from(["path", "offset", "lines", "totalLines", "lang", "number", "text"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["path", "offset", "lines", "totalLines", "lang", "number", "text", "x"]
            ),
            inner,
            max_size=6,
        )
    ),
    max_leaves=30,
)


@given(JSONISH)
def test_narrowing_never_raises(meta: object) -> None:
    narrowed = read_meta_from_meta(meta)
    assert narrowed is None or isinstance(narrowed, ReadMeta)


@st.composite
def metas(draw: st.DrawFn) -> dict[str, Any]:
    """Valid metas: increasing line numbers within [offset, totalLines]."""
    offset = draw(st.integers(min_value=1, max_value=50))
    total = draw(st.integers(min_value=0, max_value=80))
    numbers = sorted(draw(st.sets(st.integers(min_value=offset, max_value=max(total, offset)))))
    numbers = [n for n in numbers if n <= total]
    meta: dict[str, Any] = {
        "path": draw(st.text(max_size=10)),
        "offset": offset,
        "lines": [{"number": n, "text": draw(st.text(max_size=8))} for n in numbers],
        "totalLines": total,
    }
    lang = draw(st.none() | st.text(max_size=5))
    if lang is not None:
        meta["lang"] = lang
    return meta


@given(metas())
def test_valid_metas_round_trip(meta: dict[str, Any]) -> None:
    narrowed = read_meta_from_meta(meta)
    assert narrowed is not None
    assert narrowed.path == meta["path"]
    assert narrowed.offset == meta["offset"]
    assert narrowed.total_lines == meta["totalLines"]
    assert narrowed.lang == meta.get("lang")
    assert [{"number": x.number, "text": x.text} for x in narrowed.lines] == meta["lines"]


def test_footers() -> None:
    assert footer(1, 3, 3, False, 51_200) == "(End of file - total 3 lines)"
    assert footer(4, 2, 9, False, 51_200) == "(Showing lines 4-5 of 9. Use offset=6 to continue.)"
    assert footer(4, 2, 9, True, 51_200) == (
        "(Output capped at 50 KB. Showing lines 4-5. Use offset=6 to continue.)"
    )
    assert footer(1, 0, 0, False, 51_200) == "(End of file - total 0 lines)"
    assert footer(7, 0, 9, True, 10) == (
        "(Output capped at 10 bytes. Showing lines 7-6. Use offset=7 to continue.)"
    )
    assert footer(1, 1, 2, True, 2048).startswith("(Output capped at 2 KB.")
    assert footer(1, 1, 2, True, 1536).startswith("(Output capped at 1.5 KB.")


def test_envelope_round_trip() -> None:
    lines = (ReadFileLine(number=9, text="x = 1"), ReadFileLine(number=10, text=""))
    text = render_envelope("/w/a.py", lines, "(End of file - total 10 lines)")
    assert text == (
        "<path>/w/a.py</path>\n<type>file</type>\n<content>\n"
        "9: x = 1\n10: \n\n(End of file - total 10 lines)\n</content>"
    )
    assert envelope_content(text) == "9: x = 1\n10: \n\n(End of file - total 10 lines)"


def test_an_empty_window_is_the_footer_alone() -> None:
    text = render_envelope("/w/e", (), "(End of file - total 0 lines)")
    assert text == (
        "<path>/w/e</path>\n<type>file</type>\n<content>\n(End of file - total 0 lines)\n</content>"
    )
    assert envelope_content(text) == "(End of file - total 0 lines)"


def test_a_line_that_looks_like_the_closing_tag_stays_content() -> None:
    lines = (ReadFileLine(number=1, text="</content>"),)
    text = render_envelope("/w/x.xml", lines, "(End of file - total 1 lines)")
    assert envelope_content(text) == "1: </content>\n\n(End of file - total 1 lines)"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "File not found: /w/a",
        "<path>/w/a</path>\n<type>file</type>\n<content>\n1: a",
        "<path>/w/a</path>\n<type>directory</type>\n<content>\n1: a\n</content>",
        "<path>/w/a\n</path>\n<type>file</type>\n<content>\nx\n</content>",
        "<path>/w/a</path>\n<type>file</type>\n<content>\n</content>",
        " <path>/w/a</path>\n<type>file</type>\n<content>\nx\n</content>",
    ],
)
def test_not_an_envelope(text: str) -> None:
    assert envelope_content(text) is None


@pydantic_dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class _LineAsBefore:
    """`ReadFileLine` as it was before it took slots: each line with a `__dict__`."""

    number: Annotated[int, Strict()]
    text: Annotated[str, Strict()]


_LINES_AS_BEFORE = TypeAdapter(list[_LineAsBefore])


def _narrowed_as_before(meta: dict[str, Any]) -> list[tuple[object, object]] | None:
    """The lines as narrowing took them before, as (number, text) pairs; `None` if refused."""
    try:
        # A line already made (live, not from JSON) is taken as it is, as each class takes its own.
        raw = [
            _LineAsBefore(number=line.number, text=line.text)
            if isinstance(line, ReadFileLine)
            else line
            for line in meta["lines"]
        ]
        lines = _LINES_AS_BEFORE.validate_python(raw)
    except ValueError:
        return None
    previous = meta["offset"] - 1
    for line in lines:
        if line.number <= previous or line.number > meta["totalLines"]:
            return None
        previous = line.number
    return [(line.number, line.text) for line in lines]


class _Number(int):
    """An int that is not exactly `int` (pydantic's strict int takes it as its value)."""


class _Text(str):
    """A str that is not exactly `str`."""


class _Kind(enum.IntEnum):
    TWO = 2


class _Lines(dict[str, Any]):
    """A dict that is not exactly `dict`."""


ODD_NUMBERS = st.sampled_from(
    [True, False, 2.0, math.nan, "2", None, [2], _Number(3), _Kind.TWO, 2**80, -(2**70), 0]
)
ODD_TEXTS = st.sampled_from([None, 2, b"b", ["b"], _Text("b"), "\ud800", "", "\x1b[2J"])


@st.composite
def hostile_metas(draw: st.DrawFn) -> dict[str, Any]:
    """Sound windows near their bounds (one step past `offset` or `total` often), sorted or not,
    with at most a few odd lines mixed in: odd numbers, texts or shapes."""
    offset = draw(st.integers(min_value=1, max_value=6))
    total = draw(st.integers(min_value=0, max_value=12))
    near = st.integers(min_value=offset - 1, max_value=max(offset, total + 1))
    numbers = draw(st.lists(near, max_size=6))
    if draw(st.booleans()):
        numbers.sort()
    lines: list[Any] = [{"number": n, "text": draw(st.text(max_size=3))} for n in numbers]
    for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):
        number = draw(near | ODD_NUMBERS)
        text = draw(st.text(max_size=3) | ODD_TEXTS)
        line: Any = draw(
            st.sampled_from(
                [
                    {"text": text, "x": [1], "number": number},
                    _Lines(number=number, text=text),
                    {"number": number},
                    {"text": text},
                    [number, text],
                    None,
                    "1: a",
                ]
            )
        )
        if type(number) is int and type(text) is str and draw(st.booleans()):
            line = ReadFileLine(number=number, text=text)
        lines.insert(draw(st.integers(min_value=0, max_value=len(lines))), line)
    return valid_meta(offset=offset, totalLines=total, lines=lines)


@given(hostile_metas())
def test_the_lines_are_refused_and_taken_as_before(meta: dict[str, Any]) -> None:
    narrowed = read_meta_from_meta(meta)
    before = _narrowed_as_before(meta)
    event("taken" if before is not None else "refused")
    if before is None:
        assert narrowed is None
        return
    assert narrowed is not None
    taken = [(line.number, line.text) for line in narrowed.lines]
    assert taken == before
    assert [(type(n), type(t)) for n, t in taken] == [(type(n), type(t)) for n, t in before]


def test_a_narrowed_line_holds_its_two_fields_in_slots() -> None:
    narrowed = read_meta_from_meta(valid_meta())
    assert narrowed is not None
    line = narrowed.lines[0]
    assert not hasattr(line, "__dict__")
    assert (line.number, line.text) == (2, "b")
    assert line == ReadFileLine(number=2, text="b")
    assert hash(line) == hash(ReadFileLine(number=2, text="b"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        line.number = 3  # type: ignore[misc]
