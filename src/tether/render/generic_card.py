"""The generic card: a title and text, for any call and as every client's fallback."""

from __future__ import annotations

import json
from typing import Any, assert_never

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.control import strip_control_codes
from rich.style import Style
from rich.text import Text

from tether.render.bare_rows import fitting_rows
from tether.render.frame import bare_card
from tether.render.markdown import markdown
from tether.render.theme import GUTTER, HEADING, SUBTLE, byte_size, card, note, printable
from tether.views import (
    Attachment,
    GenericCallView,
    GenericResultView,
    ImageAttachment,
    LinkAttachment,
    Location,
    ResourceAttachment,
)

__all__ = [
    "FAILED_TEXT",
    "MAX_INPUT_CHARS",
    "bare_generic_result",
    "render_generic_call",
    "render_generic_result",
]

MAX_INPUT_CHARS = 600
"""Characters of a call's raw input shown when it has no text of its own."""

_BADGE = Style(color="cyan", reverse=True)
FAILED_TEXT = Style(color="red")
"""The error of a failed call."""


def render_generic_call(view: GenericCallView) -> RenderableType:
    """Kind badge and title, then the call's text (or its raw input) and the places it touches."""
    title = Text()
    if view.kind:
        title.append(f" {view.kind} ", _BADGE).append(" ")
    title.append(printable(view.title), HEADING)
    parts: list[RenderableType] = []
    if view.content:
        parts.append(_text(view.content, view.markdown))
    elif view.raw_input is not None:
        parts.append(_raw_input(view.raw_input))
    if view.locations:
        parts.append(_locations(view.locations))
    return card(Group(*parts) if parts else Text(""), title=title)


def render_generic_result(
    view: GenericResultView, *, failed: bool = False, call_title: str | None = None
) -> RenderableType:
    """The result's title (else `call_title`, what was called) and text, a failure in red,
    then each attachment named with its type and size."""
    shown = view.title or call_title
    title = Text(printable(shown), style=HEADING) if shown else None
    parts: list[RenderableType] = []
    if view.content and failed:
        parts.append(Text(printable(view.content), style=FAILED_TEXT))
    elif view.content:
        parts.append(_text(view.content, view.markdown))
    parts.extend(_attachment(a) for a in view.attachments or ())
    body = Group(*parts) if parts else note("no content")
    return card(body, title=title, failed=failed)


def bare_generic_result(
    view: GenericResultView,
    console: Console,
    options: ConsoleOptions,
    *,
    failed: bool = False,
    call_title: str | None = None,
) -> str | None:
    """What a console without colour writes of `render_generic_result` (the same arguments)
    at `options`' width, made from the view's text alone (no rich text, group or frame); None
    where rich must lay some of it out (Markdown, attachments, a line that does not fit)."""
    if view.attachments or (view.content and view.markdown and not failed):
        return None
    shown = view.title or call_title
    rows = fitting_rows(
        _plain(printable(view.content)) if view.content else "no content", options.max_width - 4
    )
    if rows is None:
        return None
    title = _plain(printable(shown)) if shown else None
    return bare_card(console, options, title, rows, "failed" if failed else None)


def _plain(text: str) -> str:
    """What rich keeps of `text` in a text (its control codes stripped)."""
    return text if text.isprintable() else strip_control_codes(text)


def _text(content: str, markdown_: bool | None) -> RenderableType:
    """The card's text: rendered when it is Markdown (control characters gone either way)."""
    return markdown(printable(content)) if markdown_ else Text(printable(content))


def _attachment(attachment: Attachment) -> Text:
    """`image  image/png · 12.3 KB`, `link  name  uri`, `resource  uri  text/plain · 1.2 KB`."""
    match attachment:
        case ImageAttachment(mime_type=mime_type, bytes=size):
            return _labelled("image", None, [mime_type, byte_size(size)])
        case LinkAttachment(uri=uri, mime_type=mime_type, size=size):
            name = attachment.title or attachment.name
            facts = [mime_type, byte_size(size) if size is not None else None]
            return _labelled("link", f"{name}  {uri}", facts)
        case ResourceAttachment(uri=uri, mime_type=mime_type, bytes=size):
            return _labelled("resource", uri, [mime_type, byte_size(size)])
        case _:
            assert_never(attachment)


def _labelled(kind: str, what: str | None, facts: list[str | None]) -> Text:
    line = Text.assemble((f" {kind} ", _BADGE))
    if what:
        line.append(" " + printable(what))
    shown = " · ".join(f for f in facts if f)
    if shown:
        line.append("  " + printable(shown), style=SUBTLE)
    return line


def _raw_input(raw: Any) -> Text:
    dumped = raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False, default=str)
    text = Text(printable(dumped[:MAX_INPUT_CHARS]), style=GUTTER)
    if len(dumped) > MAX_INPUT_CHARS:
        text.append_text(note(f" … {len(dumped) - MAX_INPUT_CHARS} more characters"))
    return text


def _locations(locations: tuple[Location, ...]) -> Text:
    places = [loc.path if loc.line is None else f"{loc.path}:{loc.line}" for loc in locations]
    return Text(printable("  ".join(places)), style=GUTTER)
