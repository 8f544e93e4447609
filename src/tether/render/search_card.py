"""The search card: grep's matches under file headers with line numbers (context lines dimmed,
a gap marked), grep's counts per file, or glob's paths."""

from __future__ import annotations

import re
from typing import assert_never

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from tether.render.theme import GUTTER, HEADING, SUBTLE, TAB_SIZE, card, note, printable
from tether.views import SearchMatchesResultView, SearchPathsResultView

__all__ = ["MATCH", "PATH", "render_search_result"]

PATH = Style(color="magenta", bold=True)
"""A file header, as `rg` prints it."""
MATCH = Style(color="red", bold=True)
"""The matched text inside a line, as `rg` prints it."""


def render_search_result(
    view: SearchMatchesResultView | SearchPathsResultView, pattern: str | None = None
) -> RenderableType:
    """Matches grouped by file (the text `pattern` matches highlighted), or paths; then the cap."""
    match view:
        case SearchMatchesResultView():
            return _matches(view, _compiled(pattern))
        case SearchPathsResultView():
            return _paths(view)
        case _:
            assert_never(view)


def _matches(view: SearchMatchesResultView, regex: re.Pattern[str] | None) -> RenderableType:
    title = _title(view.title or "Grep", _count(view.total, "match", "matches"))
    if not view.files:
        return card(note("no matches"), title=title)
    if any(f.count is not None for f in view.files):
        return _counts(view, title)
    shown = sum(not m.context for f in view.files for m in f.matches)
    width = len(str(max((m.line_number for f in view.files for m in f.matches), default=0)))
    parts: list[RenderableType] = []
    for index, file in enumerate(view.files):
        if index:
            parts.append(Text(""))
        parts.append(Text(printable(file.path), PATH))
        previous: int | None = None
        # Without context every line is a match and gaps are the rule: only context has them.
        gaps = any(found.context for found in file.matches)
        for found in file.matches:
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
    if view.truncated:
        parts.append(note(f"capped: showing {shown} of {view.total} matches"))
    return card(Group(*parts), title=title)


def _counts(view: SearchMatchesResultView, title: Text) -> RenderableType:
    width = max(len(str(f.count or 0)) for f in view.files)
    parts: list[RenderableType] = [
        Text.assemble((f"{f.count or 0:>{width}}  ", GUTTER), (printable(f.path), PATH))
        for f in view.files
    ]
    if view.truncated:
        parts.append(note(f"capped: showing the counts of {len(view.files)} files"))
    return card(Group(*parts), title=title)


def _paths(view: SearchPathsResultView) -> RenderableType:
    title = _title(view.title or "Glob", _count(view.total, "file", "files"))
    if not view.paths:
        return card(note("no files"), title=title)
    parts: list[RenderableType] = [
        Text(printable(path), no_wrap=True, overflow="ellipsis") for path in view.paths
    ]
    if view.truncated:
        parts.append(note(f"capped: showing the {len(view.paths)} newest of {view.total} files"))
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
