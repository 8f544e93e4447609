"""Markdown to safe HTML for the page: the transcript's text and the web card.

CommonMark with tables and task lists. Raw HTML in the source is escaped, never passed on;
links and images keep only http, https, mailto and relative targets; code fences are
highlighted with the same Pygments tokens as the read card.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

from markdown_it import MarkdownIt
from mdit_py_plugins.tasklists import tasklists_plugin

from tether.highlight import highlight_lines

__all__ = ["markdown_html"]

_SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*):", re.I)
_SAFE_SCHEMES = frozenset({"http", "https", "mailto"})


def markdown_html(text: str) -> str:
    """`text` rendered as HTML that is safe to insert into the page."""
    rendered: str = _parser().render(text)
    return rendered


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "highlight": _highlight})
    md.enable("table")
    md.use(tasklists_plugin)
    md.validateLink = _safe_link  # type: ignore[method-assign]
    return md


def _safe_link(url: str) -> bool:
    # Control characters and spaces can hide a scheme from a naive check ("java\tscript:").
    cleaned = re.sub(r"[\x00-\x20\x7f]", "", url)
    found = _SCHEME.match(cleaned)
    return found is None or found.group(1).lower() in _SAFE_SCHEMES


def _highlight(code: str, lang: str, _attrs: str) -> str:
    lines = code.removesuffix("\n").split("\n")
    rows = []
    for tokens in highlight_lines(lines, lang or None):
        rows.append(
            "".join(
                f'<span class="{css}">{html.escape(piece)}</span>' if css else html.escape(piece)
                for css, piece in tokens
            )
        )
    body = "\n".join(rows)
    language = f' class="language-{html.escape(lang)}"' if lang else ""
    return f'<pre class="hl"><code{language}>{body}\n</code></pre>'
