"""The web search card: numbered results, each a title, its URL as a terminal link, and the
date and snippet dimmed beneath; the backend and the count in the footer."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.style import Style
from rich.text import Text

from tether.render.theme import HEADING, SUBTLE, card, note, printable
from tether.views import WebSearchHit, WebSearchResultView

__all__ = ["LINK", "SNIPPET_CHARS", "render_web_search_result"]

LINK = Style(color="blue", underline=True)
"""A result's URL; it is also a terminal hyperlink to the page."""
SNIPPET_CHARS = 160
"""Characters of a snippet a card shows unless asked in full; the model got all of it."""


def render_web_search_result(view: WebSearchResultView, *, full: bool = True) -> RenderableType:
    """`1. title`, the URL, `date · snippet`, for each result; unless `full`, snippets are cut."""
    # The search backends (and the HTTP and pydantic machinery they bring) load with the
    # first search card: every other card's session is shown without them.
    from tether.tools.web.backends import PROVIDER_LABELS

    title = Text.assemble(("web search ", SUBTLE), (printable(f'"{view.query}"'), HEADING))
    count = len(view.results)
    facts = f"{PROVIDER_LABELS[view.provider]} · {count} result{'' if count == 1 else 's'}"
    subtitle = Text(facts + (" · more not shown" if view.truncated else ""), style=SUBTLE)
    if not view.results:
        return card(note("no results"), title=title, subtitle=subtitle)
    width = len(str(count))
    parts: list[RenderableType] = []
    for number, hit in enumerate(view.results, 1):
        parts.append(_result(number, hit, width, full))
    return card(Group(*parts), title=title, subtitle=subtitle)


def _result(number: int, hit: WebSearchHit, width: int, full: bool) -> RenderableType:
    head = Text.assemble((f"{number:>{width}}. ", SUBTLE), (printable(hit.title), HEADING))
    # The URL was checked (http or https, no spaces or control characters) before it was
    # stored, so it is safe inside the terminal's hyperlink sequence.
    lines: list[RenderableType] = [Text(printable(hit.url), LINK + Style(link=hit.url))]
    snippet = hit.snippet or ""
    if not full and len(snippet) > SNIPPET_CHARS:
        snippet = snippet[: SNIPPET_CHARS - 1].rstrip() + "…"
    detail = " · ".join(part for part in (hit.published, snippet) if part)
    if detail:
        lines.append(Text(printable(detail), SUBTLE))
    # Wrapped lines stay under the title, not under the number.
    return Group(head, Padding(Group(*lines), (0, 0, 0, width + 2)))
