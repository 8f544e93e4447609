"""Syntax highlighting of a window of lines into per-line tokens, shared by every client.

Tokens carry the short CSS class names of Pygments' `HtmlFormatter` ("k", "s2", "nf", ...;
"" for plain text), so the web client can style them with a Pygments stylesheet and the
terminal with its own palette, both from the same lexing.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

# Pygments ships no type information; the few names used here are typed at their use.
from pygments.lexer import Lexer  # type: ignore[import-untyped]
from pygments.lexers import get_lexer_by_name  # type: ignore[import-untyped]
from pygments.lexers.special import TextLexer  # type: ignore[import-untyped]
from pygments.token import STANDARD_TYPES, _TokenType  # type: ignore[import-untyped]
from pygments.util import ClassNotFound  # type: ignore[import-untyped]

__all__ = ["TokenLine", "css_class", "highlight_lines", "lexer_for"]

TokenLine = list[tuple[str, str]]
"""One line as (CSS class short name, text) pairs; their texts join to the line."""

_ALIASES: dict[str, str] = {
    "h": "c",
    "hh": "cpp",
    "hpp": "cpp",
    "hxx": "cpp",
    "cc": "cpp",
    "cxx": "cpp",
    "c++": "cpp",
    "kt": "kotlin",
    "kts": "kotlin",
    "mjs": "javascript",
    "cjs": "javascript",
    "mts": "typescript",
    "cts": "typescript",
    "htm": "html",
    "xhtml": "html",
    "jsonc": "json",
    "json5": "json",
    "yml": "yaml",
    "zsh": "bash",
    "markdown": "md",
    "plaintext": "text",
    "txt": "text",
}
"""Extension-like names Pygments does not know as aliases, mapped to ones it does."""


@lru_cache(maxsize=64)
def lexer_for(lang: str | None, *, startinline: bool = True) -> Lexer:
    """The Pygments lexer for a `lang` hint (extension or lexer alias); plain text if unknown.

    `startinline` matters to PHP only: a window from mid-file has no `<?php` opener.
    """
    if not lang:
        return TextLexer()
    name = lang.strip().lower()
    for candidate in (name, _ALIASES.get(name)):
        if candidate:
            try:
                return get_lexer_by_name(candidate, startinline=startinline)
            except ClassNotFound:
                continue
    return TextLexer()


def highlight_lines(lines: Sequence[str], lang: str | None) -> list[TokenLine]:
    """Highlight a window of lines, lexed as one text so multi-line tokens split per line.

    Returns one token list per input line (an empty line gives an empty list). A line must
    not contain a newline; one that does is shown with a space in its place, so the output
    always has exactly one entry per input line.
    """
    if not lines:
        return []
    if len(lines) > _KEPT_LINES:
        return [list(line) for line in _lexed(tuple(lines), lang)]
    return [list(line) for line in _kept(tuple(lines), lang)]


_KEPT_LINES = 40
"""The longest window kept once highlighted: a card's (a collapsed read shows 18 lines, an
uncollapsed one 30), so what is kept stays small however long the windows read."""


@lru_cache(maxsize=256)
def _kept(lines: tuple[str, ...], lang: str | None) -> tuple[tuple[tuple[str, str], ...], ...]:
    """`_lexed`, kept for a window shown again (a file read again, the same head of a file in
    card after card): lexing is most of what a code card costs."""
    return _lexed(lines, lang)


def _lexed(lines: tuple[str, ...], lang: str | None) -> tuple[tuple[tuple[str, str], ...], ...]:
    """The tokens of each line of `lines`, lexed as one text."""
    text = "\n".join(line.replace("\n", " ") for line in lines)
    # The unprocessed stream skips Pygments' input cleanup, which would turn a stray "\r"
    # into a line break; the trailing newline lets line-anchored rules match the last line.
    lexer = lexer_for(lang, startinline=not text.lstrip().startswith("<?"))
    out: list[TokenLine] = [[]]
    for _, ttype, value in lexer.get_tokens_unprocessed(text + "\n"):
        css = css_class(ttype)
        for i, piece in enumerate(value.split("\n")):
            if i:
                out.append([])
            if piece:
                _append(out[-1], css, piece)
    return tuple(tuple(line) for line in out[: len(lines)])


def css_class(ttype: _TokenType) -> str:
    """The short CSS class `HtmlFormatter` gives a token type ("" for plain text)."""
    fname: str | None = STANDARD_TYPES.get(ttype)
    suffix = ""
    while fname is None:
        suffix = "-" + ttype[-1] + suffix
        ttype = ttype.parent
        fname = STANDARD_TYPES.get(ttype)
    return fname + suffix


def _append(line: TokenLine, css: str, text: str) -> None:
    # Neighbouring pieces of one class are merged: fewer spans, same look.
    if line and line[-1][0] == css:
        line[-1] = (css, line[-1][1] + text)
    else:
        line.append((css, text))
