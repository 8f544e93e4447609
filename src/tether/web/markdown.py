"""Markdown to safe HTML for the web client: the model's messages and the web card.

CommonMark with tables, strikethrough and task lists (markdown-it-py). Raw HTML in the
source is shown as text, never passed through; links and images keep only http, https,
mailto and relative targets (anything else, `javascript:` included, loses its link);
links open in a new tab without an opener. Code fences are highlighted with Pygments
through `tether.highlight`, with the same token classes as the read card.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Any
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.tasklists import tasklists_plugin

from tether.highlight import highlight_lines

__all__ = ["SAFE_SCHEMES", "markdown_html", "safe_url"]

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
"""Link schemes kept; a link without a scheme (relative, `#anchor`) is kept too."""


def markdown_html(text: str) -> str:
    """The HTML for `text`; safe to insert into the page as is."""
    html = str(_parser().render(text))
    # The task list plugin draws unlabelled checkboxes; a labelled mark reads the same.
    for checkbox, state, mark in _TASK_BOXES:
        html = html.replace(
            checkbox, f'<span class="task-mark" role="img" aria-label="{state}">{mark}</span>'
        )
    return html


_TASK_BOXES = (
    (
        '<input class="task-list-item-checkbox" checked="checked" disabled="disabled" '
        'type="checkbox">',
        "done",
        "☑",
    ),
    ('<input class="task-list-item-checkbox" disabled="disabled" type="checkbox">', "to do", "☐"),
)


def safe_url(url: str) -> bool:
    """Whether a link target may stay: http(s), mailto, or relative."""
    # Browsers drop tabs and newlines inside a URL and ignore leading spaces and controls,
    # so `java\tscript:` is `javascript:` to them: judge the URL as they will read it.
    cleaned = "".join(ch for ch in url if ch not in "\t\n\r").lstrip("".join(map(chr, range(33))))
    try:
        scheme = urlsplit(cleaned).scheme.lower()
    except ValueError:
        return False
    return scheme in SAFE_SCHEMES if scheme else True


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.use(tasklists_plugin)
    md.validateLink = safe_url  # type: ignore[method-assign]
    md.add_render_rule("fence", _fence)
    md.add_render_rule("code_block", _fence)
    md.add_render_rule("link_open", _link_open)
    return md


def _fence(
    self: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    lang = token.info.strip().split(maxsplit=1)[0] if token.info.strip() else None
    lines = token.content.removesuffix("\n").split("\n")
    rows = []
    for line in highlight_lines(lines, lang):
        spans = "".join(
            f'<span class="{css}">{escape(text)}</span>' if css else escape(text)
            for css, text in line
        )
        rows.append(spans)
    label = f' data-lang="{escape(lang)}"' if lang else ""
    return f'<pre class="md-code hl"{label}><code>' + "\n".join(rows) + "</code></pre>\n"


def _link_open(
    self: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    token.attrSet("target", "_blank")
    token.attrSet("rel", "noopener noreferrer")
    rendered: Any = self.renderToken(tokens, idx, options, env)
    return str(rendered)
