"""The search card: grep's matches grouped by file, or glob's paths, with the cap and the total."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, NonNegativeInt, PositiveInt
from pydantic.dataclasses import dataclass
from typing_extensions import TypeAliasType

from tether.wire import WIRE_CONFIG, Opt

__all__ = [
    "SearchFile",
    "SearchMatch",
    "SearchMatchesResultView",
    "SearchPathsResultView",
    "SearchResultView",
]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SearchMatch:
    """One line of a file: its 1-based number and its text (a preview, cut when long).

    A matching line, or with `context` a line shown around one (grep's `-A/-B/-C`).
    """

    line_number: PositiveInt
    line: str
    context: Opt[bool] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SearchFile:
    """The lines of one file, in line order; or, with `count`, how many lines matched and
    none listed (grep's `count` mode)."""

    path: str
    matches: tuple[SearchMatch, ...]
    count: Opt[NonNegativeInt] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SearchMatchesResultView:
    """Grep's result: matches grouped by file; `total` counts the matching lines, shown or not."""

    card: Literal["search"] = "search"
    shape: Literal["matches"] = "matches"
    files: tuple[SearchFile, ...]
    truncated: bool
    total: NonNegativeInt
    title: Opt[str] = None
    total_files: Opt[NonNegativeInt] = None
    """Files with a match, listed or not (absent when not known)."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SearchPathsResultView:
    """Glob's result (and grep's `files_with_matches`): file paths, newest first; `total`
    counts them all, shown or not."""

    card: Literal["search"] = "search"
    shape: Literal["paths"] = "paths"
    paths: tuple[str, ...]
    truncated: bool
    total: NonNegativeInt
    title: Opt[str] = None


SearchResultView = TypeAliasType(
    "SearchResultView",
    Annotated[SearchMatchesResultView | SearchPathsResultView, Field(discriminator="shape")],
)
"""Both shapes of the search card; `shape` tells them apart inside `card: 'search'`."""
