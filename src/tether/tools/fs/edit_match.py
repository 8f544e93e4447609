"""Finding `old_string` in a file's text and replacing it, whatever the line endings.

Models write `\\n`; files may use `\\r\\n`, or both. Every line break in `old_string` (`\\n`
or `\\r\\n`) matches either kind in the file, and each replacement takes the line endings of
the text it replaces: with as many lines as the match, the new text takes the match's line
breaks one by one; otherwise the style most of the match uses or, for a match with no line
break, the style most of the file uses. The rest of the file is not touched, so an
edit is byte-exact apart from the replaced text, mixed files included.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tether.errors import ToolError

__all__ = ["Replacement", "replace_in_text"]

_BREAK = re.compile(r"\r?\n")


@dataclass(frozen=True)
class Replacement:
    """The edited text and how many occurrences were replaced."""

    text: str
    count: int


def replace_in_text(text: str, old: str, new: str, *, replace_all: bool, path: Path) -> Replacement:
    """Replace the unique occurrence of `old` (or every one, with `replace_all`).

    Raises `ToolError` saying how many matches there were when that is not what was asked.
    `old` must not be empty.
    """
    matches = list(_pattern(old).finditer(text))
    if not matches:
        raise ToolError(f"old_string not found in {path}")
    if len(matches) > 1 and not replace_all:
        raise ToolError(
            f"old_string matches {len(matches)} times in {path}; add more context to make it "
            "unique, or set replace_all"
        )
    new_lines = _lf(new).split("\n")
    file_break = "\r\n" if _mostly_crlf(text) else "\n"
    parts: list[str] = []
    end = 0
    for match in matches:
        parts += (text[end : match.start()], _with_breaks(new_lines, match.group(), file_break))
        end = match.end()
    parts.append(text[end:])
    return Replacement("".join(parts), len(matches))


def _with_breaks(new_lines: list[str], found: str, file_break: str) -> str:
    """The new lines joined with the line breaks of the text they replace."""
    breaks = _BREAK.findall(found)
    if len(breaks) == len(new_lines) - 1:
        # Same number of lines: each keeps its own ending, so mixed files stay as they were.
        return "".join(line + brk for line, brk in zip(new_lines, [*breaks, ""], strict=True))
    if breaks:
        return ("\r\n" if _mostly_crlf(found) else "\n").join(new_lines)
    return file_break.join(new_lines)


def _mostly_crlf(text: str) -> bool:
    return text.count("\r\n") * 2 > text.count("\n")


def _pattern(old: str) -> re.Pattern[str]:
    """`old` as a literal whose line breaks match `\\n` or `\\r\\n`."""
    body = r"\r?\n".join(re.escape(line) for line in _lf(old).split("\n"))
    # A trailing `\r` must not take the first half of a CRLF and leave a bare `\n` behind.
    return re.compile(body + r"(?!\n)" if old.endswith("\r") else body)


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n")
