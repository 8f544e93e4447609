"""Cards made from checked values: the same card the class's validating `__init__` makes."""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import field_validator, model_validator
from pydantic.dataclasses import dataclass

from tether.views import (
    TOOL_CALL_VIEW,
    TOOL_RESULT_VIEW,
    DiffCallView,
    DiffResultView,
    FileDiff,
    GenericCallView,
    GenericResultView,
    Location,
    ReadLines,
    ReadResultView,
    TerminalCallView,
    TerminalResultView,
)
from tether.views.trusted import trusted
from tether.wire import WIRE_CONFIG

TEXT = st.text(max_size=6)
OPT_TEXT = st.none() | TEXT
OPT_INT = st.none() | st.integers(-5, 10**12)
LOCATIONS = st.builds(Location, path=TEXT, line=OPT_INT)
DIFFS = st.builds(FileDiff, path=TEXT, old_text=OPT_TEXT, new_text=TEXT)
LINES = st.lists(st.integers(1, 9), max_size=3).map(
    lambda numbers: ReadLines([{"number": n, "text": str(n)} for n in numbers], numbers)
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6,
)


@pytest.fixture(autouse=True)
def _made_afresh() -> None:
    """Each test makes its constructors itself: a replay run earlier in the same process
    (another test's) has made and kept them, and these tests are about how they are made."""
    importlib.import_module("tether.views.trusted")._MADE.clear()


# Each card class made through `trusted`, with its required and its defaulted fields.
FIELDS: dict[type[Any], tuple[dict[str, Any], dict[str, Any]]] = {
    Location: ({"path": TEXT}, {"line": OPT_INT}),
    FileDiff: ({"path": TEXT, "old_text": OPT_TEXT, "new_text": TEXT}, {}),
    GenericCallView: (
        {"title": TEXT},
        {
            "card": st.just("generic"),
            "kind": st.none() | st.sampled_from(["read", "edit", "execute", "other"]),
            "raw_input": JSON,
            "content": OPT_TEXT,
            "markdown": st.none() | st.booleans(),
            "locations": st.none() | st.tuples(LOCATIONS) | st.tuples(LOCATIONS, LOCATIONS),
        },
    ),
    TerminalResultView: (
        {},
        {
            "title": OPT_TEXT,
            "output": OPT_TEXT,
            "exit_code": OPT_INT,
            "notes": st.none() | st.lists(TEXT, max_size=2).map(tuple),
        },
    ),
    TerminalCallView: (
        {"title": TEXT},
        {"description": OPT_TEXT, "cwd": OPT_TEXT, "sandbox": OPT_TEXT},
    ),
    DiffCallView: (
        {"title": TEXT, "diffs": st.lists(DIFFS, max_size=3).map(tuple)},
        {"locations": st.none() | st.lists(LOCATIONS, max_size=3).map(tuple)},
    ),
    DiffResultView: (
        {"diffs": st.lists(DIFFS, max_size=3).map(tuple)},
        {"title": OPT_TEXT, "locations": st.none() | st.lists(LOCATIONS, max_size=3).map(tuple)},
    ),
    GenericResultView: ({}, {"title": OPT_TEXT, "content": OPT_TEXT, "markdown": st.none()}),
    ReadResultView: (
        {"path": TEXT, "offset": st.integers(1, 99), "lines": LINES, "total_lines": OPT_INT},
        {"title": OPT_TEXT, "lang": OPT_TEXT, "content": OPT_TEXT, "byte_cap": OPT_INT},
    ),
}


@st.composite
def made_with(draw: st.DrawFn) -> tuple[type[Any], dict[str, Any]]:
    """A card class and keywords for it: every required field, some of the defaulted ones."""
    cls = draw(st.sampled_from(sorted(FIELDS, key=lambda c: c.__name__)))
    required, optional = FIELDS[cls]
    fields = {name: draw(strategy) for name, strategy in required.items()}
    if cls is ReadResultView and fields["total_lines"] is None:
        fields["total_lines"] = 0
    for name in draw(
        st.lists(st.sampled_from(sorted(optional)), unique=True) if optional else st.just([])
    ):
        fields[name] = draw(optional[name])
    return cls, fields


def _json(card: Any) -> bytes:
    adapter: Any = TOOL_CALL_VIEW if "Call" in type(card).__name__ else TOOL_RESULT_VIEW
    if type(card) in (Location, FileDiff):
        from pydantic import TypeAdapter

        adapter = TypeAdapter(type(card))
    return bytes(adapter.dump_json(card, by_alias=True))


@settings(max_examples=300)
@given(made_with())
def test_a_trusted_card_is_the_card_its_class_makes(case: tuple[type[Any], dict[str, Any]]) -> None:
    cls, fields = case
    validated = cls(**fields)
    made = trusted(cls)(**fields)
    assert type(made) is cls
    assert made == validated
    # The same fields, in the same order, holding the same objects: nothing copied or coerced.
    assert list(vars(made)) == list(vars(validated))
    assert all(vars(made)[name] == value for name, value in vars(validated).items())
    assert repr(made) == repr(validated)
    assert _json(made) == _json(validated)
    assert hash(made) == hash(validated) if _hashable(validated) else True
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.card = "x"  # type: ignore[misc]


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def test_a_missing_or_unknown_field_is_refused() -> None:
    # The class refuses a missing field; an unknown one it would drop, and is refused here.
    with pytest.raises(TypeError, match="path"):
        trusted(Location)(line=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="colour"):
        trusted(Location)(path="a", colour=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        trusted(Location)("a")  # type: ignore[misc]


def test_a_cards_rules_across_fields_are_kept() -> None:
    # A terminal card holds an exit code or the signal that ended the command, never both.
    made = trusted(TerminalResultView)
    assert made(output="x", signal="TERM") == TerminalResultView(output="x", signal="TERM")
    with pytest.raises(ValueError, match="exitCode and signal are exclusive"):
        made(output="x", exit_code=1, signal="TERM")

    @dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
    class Ordered:
        low: int
        high: int

        @model_validator(mode="after")
        def _ordered(self) -> Ordered:
            if self.low > self.high:
                raise ValueError("low above high")
            return self

    assert trusted(Ordered)(low=1, high=2) == Ordered(low=1, high=2)
    with pytest.raises(ValueError, match="low above high"):
        trusted(Ordered)(low=3, high=2)


def test_a_class_whose_making_checks_more_than_types_is_refused() -> None:
    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Plain:
        path: str

    with pytest.raises(TypeError, match="not a pydantic dataclass"):
        trusted(Plain)

    @dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
    class Stripped:
        path: str

        @field_validator("path")
        @classmethod
        def _stripped(cls, path: str) -> str:
            return path.strip()

    with pytest.raises(TypeError, match="does more when made"):
        trusted(Stripped)

    @dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
    class Before:
        path: str

        @model_validator(mode="before")
        @classmethod
        def _renamed(cls, data: Any) -> Any:
            return data

    with pytest.raises(TypeError, match="does more when made"):
        trusted(Before)

    @dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
    class Underscored:
        _made_: int  # the constructor's own names start with one

    with pytest.raises(TypeError, match="is private"):
        trusted(Underscored)

    @dataclass(frozen=True, config=WIRE_CONFIG)
    class Positional:
        path: str

    with pytest.raises(TypeError, match="not a plain keyword field"):
        trusted(Positional)


def test_a_class_is_made_by_one_constructor() -> None:
    assert trusted(Location) is trusted(Location)
    assert trusted(Location) is not trusted(FileDiff)
