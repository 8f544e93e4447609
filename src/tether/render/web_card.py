"""The web card: the URL, a status pill, the size, and the first lines of the page as Markdown."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from tether.render.markdown import markdown
from tether.render.theme import HEADING, SUBTLE, byte_size, card, note, pill, printable
from tether.views import WebFetchResultView

__all__ = ["PREVIEW_LINES", "render_web_result"]

PREVIEW_LINES = 12
"""Lines of the page's markdown a terminal card shows; the model got all of it."""


def render_web_result(view: WebFetchResultView) -> RenderableType:
    """`URL  title`, the first lines of the markdown, then `12.3 KB` and the status pill."""
    title = Text.assemble((printable(view.url), HEADING))
    if view.title:
        title.append_text(Text.assemble("  ", (printable(view.title), SUBTLE)))
    parts: list[RenderableType] = []
    if view.redirect is not None:
        parts.append(note(f"redirects to another host, not followed: {printable(view.redirect)}"))
    lines = (view.content or "").strip("\n").split("\n")
    shown = lines[:PREVIEW_LINES]
    if any(shown):
        parts.append(markdown(printable("\n".join(shown))))
    elif view.redirect is None:
        parts.append(note("no text"))
    if len(lines) > PREVIEW_LINES:
        parts.append(note(f"… {len(lines) - PREVIEW_LINES} more lines"))
    if view.truncated:
        parts.append(note("truncated: the model saw the start of the page"))
    return card(Group(*parts), title=title, subtitle=_footer(view))


def _footer(view: WebFetchResultView) -> Text:
    footer = Text()
    size = byte_size(view.bytes) if view.bytes is not None else None
    facts = [fact for fact in (view.content_type, size) if fact]
    if facts:
        footer.append(printable(" · ".join(facts)) + "  ", style=SUBTLE)
    footer.append_text(pill(str(view.status_code), ok=view.status_code < 400))
    return footer
