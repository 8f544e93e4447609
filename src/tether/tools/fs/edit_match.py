"""Finding `old_string` in a file's text and replacing it, whatever the line endings.

Models write `\\n`; files may use `\\r\\n`. The match is made in the file's own style:
- a CRLF file is matched and edited with every `\\r\\n` as `\\n`, then turned back to CRLF
  (that is exact, since a CRLF file has no bare `\\n`), so the new text gets CRLF too;
- an LF file is matched with the strings' `\\r\\n` read as `\\n`;
- a file that mixes both is matched as given first, then with the strings in CRLF, then in
  LF; the first form found is used, and the other lines are left as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tether.tools.errors import ToolError
from tether.tools.fs.textfile import line_endings

__all__ = ["Replacement", "replace_in_text"]


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
    style = line_endings(text)
    if style == "crlf":
        done = _replace(_lf(text), _lf(old), _lf(new), replace_all=replace_all, path=path)
        return Replacement(_crlf(done.text), done.count)
    if style == "lf":
        return _replace(text, _lf(old), _lf(new), replace_all=replace_all, path=path)
    for old_form, new_form in ((old, new), (_crlf(_lf(old)), _crlf(_lf(new)))):
        if old_form in text:
            return _replace(text, old_form, new_form, replace_all=replace_all, path=path)
    return _replace(text, _lf(old), _lf(new), replace_all=replace_all, path=path)


def _replace(text: str, old: str, new: str, *, replace_all: bool, path: Path) -> Replacement:
    count = text.count(old)
    if count == 0:
        raise ToolError(f"old_string not found in {path}")
    if count > 1 and not replace_all:
        raise ToolError(
            f"old_string matches {count} times in {path}; add more context to make it unique, "
            "or set replace_all"
        )
    return Replacement(text.replace(old, new), count)


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n")


def _crlf(text: str) -> str:
    return text.replace("\n", "\r\n")
