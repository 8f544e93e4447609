"""The search card: grep's matches under file headers with line numbers (context lines dimmed,
a gap marked), grep's counts per file, or glob's paths."""

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
    if any(f.count is not None for f in view.files):
        return _counts(view, title, limit)
    kept = _first_matches(view, limit)
    width = len(str(max(m.line_number for _, lines in kept for m in lines)))
    parts: list[RenderableType] = []
    for index, (path, lines) in enumerate(kept):
        if index:
            parts.append(Text(""))
        parts.append(Text(printable(path), PATH))
        previous: int | None = None
        # Without context every line is a match and gaps are the rule: only context has them.
        gaps = any(found.context for found in lines)
        for found in lines:
            if gaps and previous is not None and found.line_number > previous + 1:
                parts.append(Text(f"{'⋮':>{width}}", GUTTER))
            previous = found.line_number
            row = Text(no_wrap=True, overflow="ellipsis")
            if found.context:
                row.append(f"{found.line_number:>{width}} ┆ ", GUTTER)
                parts.append(row.append(_plain(found.line), SUBTLE))
            else:
                row.append(f"{found.line_number:>{width}} │ ", GUTTER)
                parts.append(row.append_text(_highlighted(found.line, regex)))
    shown = sum(not m.context for _, lines in kept for m in lines)
    if view.total > shown:
        parts.append(note(f"… {_count(view.total - shown, 'more match', 'more matches')}"))
    return card(Group(*parts), title=title)


def _first_matches(
    view: SearchMatchesResultView, limit: int | None
) -> list[tuple[str, list[SearchMatch]]]:
    """The files and their lines up to `limit` matches in all (every one when `None`), each
    match with the context before it."""
    kept: list[tuple[str, list[SearchMatch]]] = []
    room = limit
    for file in view.files:
        lines: list[SearchMatch] = []
        for line in file.matches:
            if not line.context:
                if room == 0:
                    break
                room = None if room is None else room - 1
            lines.append(line)
        while lines and lines[-1].context and room == 0:
            lines.pop()  # context leading to a match that is not shown
        if not any(not line.context for line in lines):
            break
        kept.append((file.path, lines))
    return kept


def _counts(view: SearchMatchesResultView, title: Text, limit: int | None) -> RenderableType:
    files = view.files if limit is None else view.files[:limit]
    width = max(len(str(f.count or 0)) for f in files)
    parts: list[RenderableType] = [
        Text.assemble((f"{f.count or 0:>{width}}  ", GUTTER), (printable(f.path), PATH))
        for f in files
    ]
    every = view.total_files if view.total_files is not None else len(view.files)
    if every > len(files):
        parts.append(note(f"… {_count(every - len(files), 'more file', 'more files')}"))
    return card(Group(*parts), title=title)


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


def _plain(line: str) -> str:
    return printable(line.expandtabs(TAB_SIZE))


def _highlighted(line: str, regex: re.Pattern[str] | None) -> Text:
    text = Text(_plain(line), no_wrap=True, overflow="ellipsis", end="")
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
