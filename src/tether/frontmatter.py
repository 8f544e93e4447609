"""Front matter: the `---` block of YAML that Markdown files of commands, agents and skills
begin with, read strictly, as the small YAML subset such files use.

    ---
    name: reviewer
    description: >
      Reviews a change
    tools:
      - Read
      - Grep
    ---
    The body.

Supported: `key: value` lines (values may be quoted with `'` or `"`; `# comment` after an
unquoted value is dropped), `key:` followed by indented `- item` lines (a list), `key: |` or
`key: >` followed by indented lines (kept as lines, or folded into one), and `#` comment
lines. Anything else is a `FrontMatterError` naming the line, so a file is never half-read.
Keys are lower-cased; a flow list (`[a, b]`) stays text for the caller to split.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["FrontMatter", "FrontMatterError", "FrontMatterField", "parse_front_matter"]

_KEY = re.compile(r"([A-Za-z][A-Za-z0-9_-]*)\s*:(?:\s+(.*))?")


class FrontMatterError(ValueError):
    """Front matter that cannot be read; `line` is the faulty line of the file (1-based)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line

    def where(self, path: object) -> str:
        """The message after `PATH:LINE: ` (or `PATH: `)."""
        place = f"{path}:{self.line}" if self.line is not None else str(path)
        return f"{place}: {self.message}"


@dataclass(frozen=True)
class FrontMatterField:
    """One key's value (text, or a list of texts) and the line it is on."""

    value: str | list[str]
    line: int


@dataclass(frozen=True)
class FrontMatter:
    """The fields of a file's front matter, by key, and the body after it."""

    fields: dict[str, FrontMatterField]
    body: str


def parse_front_matter(text: str) -> FrontMatter:
    """The front matter of `text` and its body; `FrontMatterError` when there is none or it is
    malformed."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        raise FrontMatterError("no front matter (the file must start with a `---` line)")
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if end is None:
        raise FrontMatterError("the front matter is not closed by a `---` line")
    return FrontMatter(_fields(lines[1:end]), "\n".join(lines[end + 1 :]))


def _fields(lines: list[str]) -> dict[str, FrontMatterField]:
    fields: dict[str, FrontMatterField] = {}
    index = 0
    while index < len(lines):
        number = index + 2  # the file's line: after the opening `---`, 1-based
        line = lines[index]
        index += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _KEY.fullmatch(line.rstrip())
        if match is None or line[0].isspace():
            raise FrontMatterError(f"expected `key: value`, found {line.strip()!r}", number)
        key, raw = match.group(1).lower(), (match.group(2) or "").strip()
        if key in fields:
            raise FrontMatterError(f"`{key}` is given twice", number)
        nested: list[str] = []
        while index < len(lines) and (not lines[index].strip() or lines[index][0].isspace()):
            nested.append(lines[index])
            index += 1
        fields[key] = FrontMatterField(_value(number, raw, nested), number)
    return fields


def _value(number: int, raw: str, nested: list[str]) -> str | list[str]:
    if raw in ("|", ">", "|-", ">-"):
        kept = [line.strip() for line in nested]
        return ("\n" if raw.startswith("|") else " ").join(kept).strip()
    if raw:
        if any(line.strip() for line in nested):
            raise FrontMatterError("a value and indented lines after it", number)
        return _unquoted(number, _without_comment(raw))
    items: list[str] = []
    for offset, line in enumerate(nested, start=1):
        item = line.strip()
        if not item or item.startswith("#"):
            continue
        if not item.startswith("- "):
            raise FrontMatterError("expected a `- item` line", number + offset)
        items.append(_unquoted(number + offset, item[2:].strip()))
    return items


def _without_comment(raw: str) -> str:
    if raw[:1] in "'\"":
        return raw
    return raw.split(" #", 1)[0].rstrip()


def _unquoted(number: int, raw: str) -> str:
    if raw[:1] in "'\"":
        quote = raw[0]
        if len(raw) < 2 or not raw.endswith(quote):
            raise FrontMatterError(f"an unclosed {quote} quote", number)
        inner = raw[1:-1]
        return inner.replace("''", "'") if quote == "'" else inner.replace('\\"', '"')
    return raw
