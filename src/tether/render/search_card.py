"""The search card: grep's matches under file headers with line numbers, or glob's paths."""

from __future__ import annotations

import re
from typing import assert_never

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from tether.render.theme import GUTTER, HEADING, SUBTLE, TAB_SIZE, card, note, printable
from tether.views import SearchMatch, SearchMatchesResultView, SearchPathsResultView

__all__ = ["MATCH", "PATH", "SHOWN", "render_search_result"]

PATH = Style(color="magenta", bold=True)
"""A file header, as `rg` prints it."""
MATCH = Style(color="red", bold=True)
"""The matched text inside a line, as `rg` prints it."""
SHOWN = 20
"""Matches (grep) or paths (glob) a card shows unless asked in full; the model got them all."""


def render_search_result(
    view: SearchMatchesResultView | SearchPathsResultView,
    pattern: str | None = None,
    *,
    full: bool = True,
) -> RenderableType:
    """Matches grouped by file (the text `pattern` matches highlighted), or paths.

    Unless `full`, the card stops after `SHOWN` matches or paths; `… N more` counts the rest
    of the total (what the tool found, beyond what it returned too).
    """
    limit = None if full else SHOWN
    match view:
        case SearchMatchesResultView():
            return _matches(view, _compiled(pattern), limit)
        case SearchPathsResultView():
            return _paths(view, limit)
        case _:
            assert_never(view)


def _matches(
    view: SearchMatchesResultView, regex: re.Pattern[str] | None, limit: int | None
) -> RenderableType:
    title = _title(view.title or "Grep", _count(view.total, "match", "matches"))
    if not view.files:
        return card(note("no matches"), title=title)
    kept = _first_matches(view, limit)
    width = len(str(max(m.line_number for _, matches in kept for m in matches)))
    parts: list[RenderableType] = []
    for index, (path, matches) in enumerate(kept):
        if index:
            parts.append(Text(""))
        parts.append(Text(printable(path), PATH))
        for found in matches:
            row = Text(no_wrap=True, overflow="ellipsis")
            row.append(f"{found.line_number:>{width}} │ ", GUTTER)
            parts.append(row.append_text(_highlighted(found.line, regex)))
    shown = sum(len(matches) for _, matches in kept)
    if view.total > shown:
        parts.append(note(f"… {_count(view.total - shown, 'more match', 'more matches')}"))
    return card(Group(*parts), title=title)


def _first_matches(
    view: SearchMatchesResultView, limit: int | None
) -> list[tuple[str, list[SearchMatch]]]:
    """The files and their matches up to `limit` matches in all (every one when `None`)."""
    kept: list[tuple[str, list[SearchMatch]]] = []
    room = limit
    for file in view.files:
        matches = list(file.matches) if room is None else list(file.matches[:room])
        if not matches:
            break
        kept.append((file.path, matches))
        if room is not None:
            room -= len(matches)
    return kept


def _paths(view: SearchPathsResultView, limit: int | None) -> RenderableType:
    title = _title(view.title or "Glob", _count(view.total, "file", "files"))
    if not view.paths:
        return card(note("no files"), title=title)
    paths = view.paths if limit is None else view.paths[:limit]
    parts: list[RenderableType] = [
        Text(printable(path), no_wrap=True, overflow="ellipsis") for path in paths
    ]
    if view.total > len(paths):
        parts.append(note(f"… {_count(view.total - len(paths), 'more file', 'more files')}"))
    return card(Group(*parts), title=title)


def _highlighted(line: str, regex: re.Pattern[str] | None) -> Text:
    text = Text(printable(line.expandtabs(TAB_SIZE)), no_wrap=True, overflow="ellipsis", end="")
    if regex is None:
        return text
    for found in regex.finditer(text.plain):
        if found.end() > found.start():
            text.stylize(MATCH, found.start(), found.end())
    return text


def _compiled(pattern: str | None) -> re.Pattern[str] | None:
    # ripgrep's syntax is close to Python's for everyday patterns; one Python cannot read
    # (`\p{Greek}`, say) is shown without highlighting rather than refused.
    if pattern is None:
        return None
    try:
        return re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return None


def _title(subject: str, count: str) -> Text:
    return Text.assemble((printable(subject), HEADING), "  ", (count, SUBTLE))


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"
