"""A decoded body as model-facing text: HTML to markdown, JSON pretty-printed, text as is."""

from __future__ import annotations

import html as htmllib
import json
import re
from dataclasses import dataclass
from pathlib import PurePath
from typing import Literal

import html_to_markdown
from html_to_markdown import ConversionOptions, InlineDataMedia, PreprocessingOptions

from tether.tools.fs.encoding import looks_binary

__all__ = [
    "HTML_BUDGETS",
    "JSON_PRETTY_LIMIT",
    "Converted",
    "Kind",
    "content_kind",
    "convert",
    "sniff_kind",
]

Kind = Literal["html", "text", "json"]

HTML_BUDGETS = (250_000, 1_000_000)
"""Characters of HTML converted: the first budget, then the second if the first gave too
little text. Conversion costs ~30 bytes of memory per character, and the model sees at most
100,000 characters anyway, so a 10 MB page is never converted whole."""

JSON_PRETTY_LIMIT = 1_000_000
"""Larger JSON is passed on as it came: parsing it would cost ~10x its size in memory."""

_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_JSON_TYPES = frozenset({"application/json", "text/json"})
_TEXT_APPLICATION_TYPES = frozenset(
    {"application/xml", "application/javascript", "application/x-javascript", "application/toml"}
)
_DROPPED = re.compile(r"<(script|style|svg|noscript|template|iframe)\b", re.I)
_COMMENT = "<!--"
_TITLE = re.compile(r"<title[^>]*>(.*?)</title\s*>", re.I | re.S)
_SELECTORS = ["nav", "aside", "[role=navigation]", "[role=banner]", "[aria-hidden=true]"]


def content_kind(media: str) -> Kind | None:
    """How a media type is turned into text, or `None` for one that is not text."""
    if media in _HTML_TYPES:
        return "html"
    if media in _JSON_TYPES or (media.startswith("application/") and media.endswith("+json")):
        return "json"
    if media.startswith("text/") or media in _TEXT_APPLICATION_TYPES or media.endswith("+xml"):
        return "text"
    return None


def sniff_kind(head: bytes) -> Kind | None:
    """The kind of a body that declared no type: HTML, else text unless it looks binary."""
    if looks_binary(PurePath(), head):
        return None
    start = head.lstrip()[:64].lower()
    if start.startswith((b"<!doctype html", b"<html")):
        return "html"
    return "text"


@dataclass(frozen=True)
class Converted:
    """The text for the model, the page's title, and whether conversion left part out."""

    text: str
    title: str | None = None
    cut: bool = False


def convert(text: str, kind: Kind, *, url: str, wanted: int) -> Converted:
    """Convert decoded text; `wanted` is how many characters the model can be shown."""
    match kind:
        case "html":
            return _html(text, url, wanted)
        case "json":
            return Converted(_pretty_json(text))
        case "text":
            return Converted(text)


def _html(page: str, url: str, wanted: int) -> Converted:
    title = _title(page)
    page = _without_dropped(page)
    markdown = ""
    for budget in HTML_BUDGETS:
        markdown = _markdown(page[:budget], url)
        if len(page) <= budget or len(markdown) >= wanted:
            return Converted(markdown, title, cut=len(page) > budget)
    return Converted(markdown, title, cut=True)


def _markdown(page: str, url: str) -> str:
    options = ConversionOptions(
        extract_metadata=False,
        preprocessing=PreprocessingOptions(enabled=True, remove_navigation=True, remove_forms=True),
        exclude_selectors=_SELECTORS,
        inline_data_media=InlineDataMedia.ALT_TEXT_ONLY,
        base_url=url,
    )
    markdown = html_to_markdown.convert(page, options).content or ""
    return markdown.strip("\n") + "\n"


def _title(page: str) -> str | None:
    found = _TITLE.search(page, 0, 65_536)
    if found is None:
        return None
    title = " ".join(htmllib.unescape(found.group(1)).split())
    return title or None


def _without_dropped(page: str) -> str:
    """The page without scripts, styles, SVG and comments, in one pass (linear time)."""
    parts: list[str] = []
    at = 0
    # The next opening of each kind, searched again only once `at` has passed it.
    script = _DROPPED.search(page)
    comment = page.find(_COMMENT)
    while script is not None or comment >= 0:
        if comment >= 0 and (script is None or comment < script.start()):
            parts.append(page[at:comment])
            end = page.find("-->", comment + len(_COMMENT))
            at = len(page) if end < 0 else end + 3
        else:
            assert script is not None
            parts.append(page[at : script.start()])
            close = re.compile(rf"</{script.group(1)}\s*>", re.I).search(page, script.end())
            at = len(page) if close is None else close.end()
        if script is not None and script.start() < at:
            script = _DROPPED.search(page, at)
        if 0 <= comment < at:
            comment = page.find(_COMMENT, at)
    if not parts:
        return page
    parts.append(page[at:])
    return "".join(parts)


def _pretty_json(text: str) -> str:
    if len(text) > JSON_PRETTY_LIMIT:
        return text
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return text  # not JSON after all: the model reads the text as it came
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"
