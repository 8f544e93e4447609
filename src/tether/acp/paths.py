"""Cards with absolute paths, as ACP wants them: `_meta` views name the same places as `locations`.

A call card names a path as the model wrote it (`a.py`); ACP locations and diff items are
absolute. Before a card rides in `_meta.tether.view` its paths are made absolute the same way,
so a client never has to join the two spellings of one file.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import assert_never

from tether.views import (
    DiffCallView,
    DiffResultView,
    FileDiff,
    GenericCallView,
    GenericResultView,
    Location,
    ReadResultView,
    SearchMatchesResultView,
    SearchPathsResultView,
    TaskResultView,
    TerminalCallView,
    TerminalResultView,
    ToolCallView,
    ToolResultView,
    WebFetchResultView,
    WebSearchResultView,
)

__all__ = [
    "MAX_MATCH_LOCATIONS",
    "absolute",
    "absolute_call",
    "absolute_result",
    "result_locations",
]

MAX_MATCH_LOCATIONS = 20
"""Matches of a search result sent as locations: enough to follow, not the whole list."""


def absolute(path: str, cwd: Path) -> str:
    """`path` made absolute against the session's cwd (ACP paths are absolute)."""
    # `..` is folded away lexically: the client wants the place, not the spelling. The
    # string `expanduser` leaves an unknown `~user` as it is (as the tools resolve it).
    return os.path.normpath(cwd / os.path.expanduser(path))


def absolute_call(view: ToolCallView, cwd: Path) -> ToolCallView:
    """The call card with every path absolute."""
    match view:
        case TerminalCallView():
            return view
        case GenericCallView(locations=locations):
            return dataclasses.replace(view, locations=_places(locations, cwd))
        case DiffCallView(diffs=diffs, locations=locations):
            return dataclasses.replace(
                view, diffs=_diffs(diffs, cwd), locations=_places(locations, cwd)
            )
        case _:
            assert_never(view)


def absolute_result(view: ToolResultView, cwd: Path) -> ToolResultView:
    """The result card with every path absolute."""
    match view:
        case (
            GenericResultView()
            | TerminalResultView()
            | WebFetchResultView()
            | WebSearchResultView()
            | TaskResultView()
        ):
            return view
        case DiffResultView(diffs=diffs, locations=locations):
            return dataclasses.replace(
                view, diffs=_diffs(diffs, cwd), locations=_places(locations, cwd)
            )
        case ReadResultView(path=path):
            return dataclasses.replace(view, path=absolute(path, cwd))
        case SearchMatchesResultView(files=files):
            absolute_files = tuple(
                dataclasses.replace(f, path=absolute(f.path, cwd)) for f in files
            )
            return dataclasses.replace(view, files=absolute_files)
        case SearchPathsResultView(paths=paths):
            return dataclasses.replace(view, paths=tuple(absolute(p, cwd) for p in paths))
        case _:
            assert_never(view)


def result_locations(view: ToolResultView, cwd: Path) -> tuple[Location, ...] | None:
    """Where a finished call left the editor: a read's first line, each hunk of a change, a
    search's first matches (a path search's first files, with no line)."""
    match view:
        case ReadResultView(path=path, offset=offset):
            return (Location(path=absolute(path, cwd), line=offset),)
        case DiffResultView(locations=None, diffs=diffs):
            return tuple(Location(path=absolute(d.path, cwd), line=1) for d in diffs) or None
        case DiffResultView(locations=locations):
            return _places(locations, cwd)
        case SearchMatchesResultView(files=files):
            found = [
                Location(path=absolute(f.path, cwd), line=m.line_number)
                for f in files
                for m in f.matches
                if not m.context
            ]
            # Counts list files, not lines: each file is a place to go.
            found += [Location(path=absolute(f.path, cwd)) for f in files if f.count is not None]
            return tuple(found[:MAX_MATCH_LOCATIONS]) or None
        case SearchPathsResultView(paths=paths):
            # A path search found files, not lines: each place is a whole file.
            first = paths[:MAX_MATCH_LOCATIONS]
            return tuple(Location(path=absolute(p, cwd)) for p in first) or None
        case (
            GenericResultView()
            | TerminalResultView()
            | WebFetchResultView()
            | WebSearchResultView()
            | TaskResultView()
        ):
            return None
        case _:
            assert_never(view)


def _places(places: tuple[Location, ...] | None, cwd: Path) -> tuple[Location, ...] | None:
    if places is None:
        return None
    return tuple(Location(path=absolute(p.path, cwd), line=p.line) for p in places)


def _diffs(diffs: tuple[FileDiff, ...], cwd: Path) -> tuple[FileDiff, ...]:
    return tuple(dataclasses.replace(d, path=absolute(d.path, cwd)) for d in diffs)
