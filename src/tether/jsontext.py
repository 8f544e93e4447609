"""Decoding JSON that came from outside: every way it can fail is one `ValueError`."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NoReturn

from tether.errors import TooDeep

__all__ = ["TooDeep", "parse_json", "strip_jsonc"]


def parse_json(text: str | bytes) -> Any:
    """Strict `json.loads`: only RFC 8259 JSON, and every failure a `ValueError`.

    `json.loads` already raises `ValueError` for text that is not JSON (and bytes that are
    not UTF-8), but it takes `NaN` and `Infinity`, which no other JSON reader does, and a
    line of a thousand `[` exhausts the interpreter's stack instead: a caller that catches
    `ValueError` would let that `RecursionError` through and crash. Here it is `TooDeep`.
    """
    try:
        if isinstance(text, str) and not text.startswith("\ufeff"):
            # What `json.loads` does with such text, without making a decoder for each call
            # (a replay parses every call's arguments); anything else goes through it whole.
            return _decoded(text)
        if isinstance(text, bytes):
            # What `json.loads` does with bytes (it decodes them, then makes a decoder for
            # the call): listing sessions parses three lines of each of a thousand logs. Text
            # that opens with `{` and no NUL after it is UTF-8 by JSON's own rule.
            utf8 = text[:1] == b"{" and text[1:2] != b"\0"
            encoding = "utf-8" if utf8 else json.detect_encoding(text)
            return _decoded(text.decode(encoding, "surrogatepass"))
        return json.loads(text, parse_constant=_not_json)
    except RecursionError:
        raise TooDeep("JSON nested too deeply to decode") from None


def _not_json(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON value")


_DECODER = json.JSONDecoder(parse_constant=_not_json)
_SCAN: Callable[[str, int], tuple[Any, int]] = vars(_DECODER)["scan_once"]
"""The decoder's scanner (an attribute of each decoder, which typeshed does not name)."""


def _decoded(text: str) -> Any:
    """`_DECODER.decode(text)`, its value scanned first at once: a value that fills the whole
    text, as a log's line or a call's arguments do, needs none of `decode`'s whitespace
    matching; anything else (or a failure) goes through `decode`, which says why."""
    try:
        value, end = _SCAN(text, 0)
    except StopIteration:
        return _DECODER.decode(text)
    return value if end == len(text) else _DECODER.decode(text)


def strip_jsonc(text: str) -> str:
    """`text` with the comments (`//`, `/* */`) and trailing commas of JSON with comments
    taken out, so that a strict parser reads it; string contents are left as they are.

    Each comment becomes spaces (a newline stays), so the parser's line and column numbers
    still point into the original text. An unclosed `/*` raises `ValueError`.
    """
    out: list[str] = []
    i, n = 0, len(text)
    comma: int | None = None
    """Where in `out` the last comma after a value is, while only blanks follow it."""
    last = ""
    """The last character outside comments and blanks (a comma after `[`, `{` or `,` is no
    trailing comma, and stays for the parser to refuse)."""
    while i < n:
        char = text[i]
        if char == '"':
            end = _string_end(text, i)
            out.append(text[i:end])
            comma = None
            last = '"'
            i = end
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end == -1 else end
            out.append(" " * (end - i))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end == -1:
                raise ValueError("a /* comment is not closed")
            out.append("".join(c if c == "\n" else " " for c in text[i : end + 2]))
            i = end + 2
        elif char in "]}" and comma is not None:
            out[comma] = " "
            comma = None
            last = char
            out.append(char)
            i += 1
        else:
            if char == ",":
                comma = len(out) if last not in ("", "[", "{", ",") else None
            elif not char.isspace():
                comma = None
            if not char.isspace():
                last = char
            out.append(char)
            i += 1
    return "".join(out)


def _string_end(text: str, start: int) -> int:
    """The index after the string that opens at `start` (the end of the text if unclosed)."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == '"':
            return i + 1
        else:
            i += 1
    return len(text)
