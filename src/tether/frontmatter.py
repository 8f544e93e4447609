"""Front matter: the `---` block of YAML that Markdown files of commands, agents, skills and
rules begin with, read by a real YAML parser, as Claude Code reads it.

    ---
    name: reviewer
    description: |
      Reviews a change. Examples:
      <example>user: "review my diff"</example>
    tools: Read, Grep
    ---
    The body.

The block is YAML read with PyYAML's safe loader and no aliases (`*name` could make a small
file expand into a huge value). It must be a mapping of text keys; a key given twice is an
error. Many files written for Claude Code are not valid YAML (`description: Use this agent
when... Examples:` followed by `<example>` lines, a colon-space inside a plain value), and
Claude Code reads them anyway: when the YAML parser refuses a block, it is read again line
by line — a line `key: value` at the left margin whose key the format knows starts a field,
every other line continues the field before it, and each field's text is YAML if it reads as
YAML and the text as written otherwise (`\\n` written out becomes a line break). Only a block
that neither reading accepts is a `FrontMatterError` naming the line, so a file is never
half-read. Keys are looked up without regard to case; each field keeps the key as written.
"""

from __future__ import annotations

import datetime
import logging
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from tether.errors import FrontMatterError

__all__ = [
    "FrontMatter",
    "FrontMatterField",
    "FrontMatterWarning",
    "catalog_notes",
    "log_once",
    "parse_front_matter",
    "pop_description",
    "pop_name",
    "split_items",
    "unused_keys",
]

_LOGGED: set[str] = set()


def log_once(log: logging.Logger, message: str) -> None:
    """A warning about a file, said once per process (catalogs are read again and again)."""
    if message not in _LOGGED:
        _LOGGED.add(message)
        log.warning("%s", message)


_KEY = re.compile(r"([A-Za-z][A-Za-z0-9_-]*)\s*:(?:\s+(.*))?")


@dataclass(frozen=True)
class FrontMatterWarning:
    """A field that was read but is not used as written: the file, its line, the key and why."""

    path: object
    line: int | None
    key: str
    reason: str

    def __str__(self) -> str:
        place = f"{self.path}:{self.line}" if self.line is not None else str(self.path)
        return f"{place}: `{self.key}` {self.reason}"


@dataclass(frozen=True)
class FrontMatterField:
    """One key's value as YAML reads it (text, number, flag, list, mapping) and its line."""

    key: str
    """The key as written (`disallowedTools`)."""
    value: Any
    line: int
    raw: str = ""
    """The value as written (`[pr-number]`, which YAML reads as a list)."""

    def written(self) -> str:
        """The value as text: a scalar as `text()` gives it, anything else as written."""
        if isinstance(self.value, list | dict):
            return self.raw.strip()
        return self.text()

    def text(self) -> str:
        """The value as text (a number or flag as written); `FrontMatterError` for a list or
        mapping."""
        value = self.value
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str | int | float):
            return str(value)
        raise FrontMatterError(f"`{self.key}` must be text, not a {_kind(value)}", self.line)

    def items(self, *, spaces: bool = False) -> list[str]:
        """A list of texts: a YAML list, or a comma list (`Read, Bash(git add:*)`; also split at
        spaces when `spaces`). A comma or space inside parentheses belongs to its item."""
        value = self.value
        if value is None:
            return []
        if isinstance(value, list):
            found = []
            for item in value:
                if isinstance(item, list | dict):
                    raise FrontMatterError(
                        f"`{self.key}` must be a list of texts, not of {_kind(item)}s", self.line
                    )
                if item is not None and str(item).strip():
                    found.append(str(item).strip())
            return found
        return split_items(self.text(), spaces=spaces)

    def flag(self) -> bool:
        """The value as a yes/no (`true`, `false`); `FrontMatterError` for anything else."""
        value = self.value
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise FrontMatterError(f"`{self.key}` must be true or false, not {value!r}", self.line)


@dataclass(frozen=True)
class FrontMatter:
    """The fields of a file's front matter, by lower-cased key, and the body after it."""

    fields: dict[str, FrontMatterField]
    body: str
    lenient: bool = False
    """The block was not valid YAML and was read line by line, as Claude Code reads it."""


def parse_front_matter(
    text: str, *, known: Collection[str] = (), required: bool = True
) -> FrontMatter:
    """The front matter of `text` and its body; `FrontMatterError` when it is malformed, or
    missing and `required` (otherwise a file without one is all body).

    `known` (lower-cased) are the keys the format defines: when the block is not valid YAML,
    only those start a field at the left margin (`Context: ...` inside a description does not).
    """
    stripped = text.lstrip("\ufeff")
    lines = stripped.splitlines()
    if not lines or lines[0].strip() != "---":
        if not required:
            return FrontMatter({}, stripped)
        raise FrontMatterError("no front matter (the file must start with a `---` line)")
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if end is None:
        raise FrontMatterError("the front matter is not closed by a `---` line")
    block, body = lines[1:end], "\n".join(lines[end + 1 :])
    try:
        return FrontMatter(_yaml_fields("\n".join(block), first_line=2), body)
    except _NotYaml:
        fields = _lenient_fields(block, {k.lower() for k in known})
        return FrontMatter(fields, body, lenient=True)


def pop_name(
    fields: dict[str, FrontMatterField], default: str, pattern: re.Pattern[str], rule: str
) -> str:
    """The `name` field taken out of `fields` (else `default`), which must match `pattern`;
    `rule` is what the error says a name is not (`a skill name (letters, ...)`)."""
    field = fields.pop("name", None)
    name = field.text().strip() if field is not None else default
    if not pattern.fullmatch(name):
        raise FrontMatterError(f"{name!r} is not {rule}", field.line if field else None)
    return name


def pop_description(fields: dict[str, FrontMatterField]) -> FrontMatterField:
    """The `description` field taken out of `fields`: required, since the model chooses by it."""
    field = fields.pop("description", None)
    if field is None:
        raise FrontMatterError("no description (the front matter needs `description:`)")
    return field


def unused_keys(
    path: object,
    fields: Mapping[str, FrontMatterField],
    reasons: Mapping[str, str],
    otherwise: str,
) -> list[FrontMatterWarning]:
    """A warning for each field left in `fields`: why the format's keys in `reasons` are not
    used, `otherwise` for keys the format does not have."""
    return [
        FrontMatterWarning(path, field.line, field.key, reasons.get(key, otherwise))
        for key, field in fields.items()
    ]


def catalog_notes(warnings: Collection[str], left_out: Collection[str]) -> list[str]:
    """The end of a catalog's report (`/agents`, `/skills`): what its files say that is not
    supported, and the files left out, each with why."""
    lines: list[str] = []
    for heading, items in (("Not supported:", warnings), ("Left out:", left_out)):
        if items:
            lines += ["", heading, *(f"  {item}" for item in items)]
    return lines


def split_items(text: str, *, spaces: bool = False) -> list[str]:
    """`a, b(c, d), e` as `["a", "b(c, d)", "e"]`; also split at spaces when `spaces`; a
    `[a, b]` flow list and quotes around an item are dropped."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    parts: list[str] = []
    depth, current = 0, ""
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif (char == "," or (spaces and char.isspace())) and depth == 0:
            parts.append(current)
            current = ""
            continue
        current += char
    parts.append(current)
    return [p.strip().strip("'\"").strip() for p in parts if p.strip().strip("'\"").strip()]


class _NotYaml(Exception):
    """The YAML parser refused the block: its message and the file's line."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


@cache
def _loader() -> type[Any]:
    """The safe loader, refusing aliases: a few bytes of `*a` could stand for gigabytes.

    Made with the first file read, so a session with no commands, agents, skills or rules
    never loads the YAML parser."""
    import yaml

    class Loader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()  # type: ignore[no-untyped-call]
                raise yaml.composer.ComposerError(
                    None, None, "aliases (*name) are not read here", event.start_mark
                )
            return super().compose_node(parent, index)

    return Loader


def _yaml_fields(block: str, *, first_line: int) -> dict[str, FrontMatterField]:
    import yaml

    loader = _loader()(block)
    try:
        try:
            node = loader.get_single_node()
            if node is None:
                return {}
            if not isinstance(node, yaml.MappingNode):
                raise FrontMatterError(
                    "the front matter must be `key: value` lines", node.start_mark.line + first_line
                )
            fields: dict[str, FrontMatterField] = {}
            for key_node, value_node in node.value:
                line = key_node.start_mark.line + first_line
                key = loader.construct_object(key_node, deep=True)
                if not isinstance(key, str):
                    raise FrontMatterError(f"a key must be text, not {key!r}", line)
                if key.lower() in fields:
                    raise FrontMatterError(f"`{key}` is given twice", line)
                value = _plain(loader.construct_object(value_node, deep=True))
                raw = block[value_node.start_mark.index : value_node.end_mark.index]
                fields[key.lower()] = FrontMatterField(key, value, line, raw)
            return fields
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + first_line if mark is not None else None
            message = exc.problem or exc.context or "not YAML"
            if "aliases" in message:
                raise FrontMatterError(message, line) from None
            raise _NotYaml(message, line) from None
        except yaml.YAMLError as exc:
            raise _NotYaml(str(exc), None) from None
    finally:
        loader.dispose()


def _plain(value: Any) -> Any:
    """YAML's dates and times as the text written; everything else as it is."""
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _lenient_fields(block: list[str], known: set[str]) -> dict[str, FrontMatterField]:
    entries: list[tuple[str, int, str, list[str]]] = []  # key, line, rest of its line, more
    for index, line in enumerate(block):
        number = index + 2  # the file's line: after the opening `---`, 1-based
        match = _KEY.fullmatch(line.rstrip()) if line[:1].strip() else None
        if match is not None and (match[1].lower() in known or not entries):
            entries.append((match[1], number, match[2] or "", []))
        elif entries:
            entries[-1][3].append(line)
        elif line.strip() and not line.lstrip().startswith("#"):
            raise FrontMatterError(f"expected `key: value`, found {line.strip()!r}", number)
    fields: dict[str, FrontMatterField] = {}
    for key, number, rest, more in entries:
        if key.lower() in fields:
            raise FrontMatterError(f"`{key}` is given twice", number)
        raw = "\n".join([rest, *more]).strip()
        fields[key.lower()] = FrontMatterField(key, _lenient_value(key, rest, more), number, raw)
    return fields


def _lenient_value(key: str, rest: str, more: list[str]) -> Any:
    try:
        fields = _yaml_fields("\n".join([f"{key}: {rest}", *more]), first_line=0)
    except (_NotYaml, FrontMatterError):
        fields = {}
    if list(fields) == [key.lower()]:
        return fields[key.lower()].value
    text = "\n".join([rest, *more]).strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return text.replace("\\n", "\n")


def _kind(value: object) -> str:
    return "list" if isinstance(value, list) else "mapping" if isinstance(value, dict) else "value"
