"""Adding allow rules to a settings file's text, leaving every other byte where it was.

Only the `permissions.allow` list changes (or is created, or `permissions` with it): other
keys keep their order, spacing and comments-free formatting, so a person's file stays
theirs. The result is parsed again and compared with what was meant before it is used.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from tether.jsontext import parse_json

__all__ = ["add_allow_rules"]


@dataclass(frozen=True)
class _Member:
    key: str
    key_start: int
    value_start: int
    value_end: int


class _Scanner:
    """Spans of a JSON text already known to be valid."""

    def __init__(self, text: str) -> None:
        self.text = text

    def space(self, at: int) -> int:
        while at < len(self.text) and self.text[at] in " \t\r\n":
            at += 1
        return at

    def value_end(self, at: int) -> int:
        char = self.text[at]
        if char == '"':
            return self.string_end(at)
        if char in "{[":
            close = "}" if char == "{" else "]"
            at = self.space(at + 1)
            if self.text[at] == close:
                return at + 1
            while True:
                if char == "{":
                    at = self.space(self.string_end(at))
                    at = self.space(at + 1)  # the colon
                at = self.space(self.value_end(at))
                if self.text[at] == close:
                    return at + 1
                at = self.space(at + 1)  # the comma
        while at < len(self.text) and self.text[at] not in ",]} \t\r\n":
            at += 1
        return at

    def string_end(self, at: int) -> int:
        at += 1
        while self.text[at] != '"':
            at += 2 if self.text[at] == "\\" else 1
        return at + 1

    def members(self, start: int) -> tuple[list[_Member], int]:
        """The members of the object opening at `start`, and the position of its `}`."""
        members: list[_Member] = []
        at = self.space(start + 1)
        if self.text[at] == "}":
            return members, at
        while True:
            key_end = self.string_end(at)
            key = json.loads(self.text[at:key_end])
            value_start = self.space(self.space(key_end) + 1)
            value_end = self.value_end(value_start)
            members.append(_Member(key, at, value_start, value_end))
            at = self.space(value_end)
            if self.text[at] == "}":
                return members, at
            at = self.space(at + 1)

    def elements(self, start: int) -> tuple[list[tuple[int, int]], int]:
        """The spans of the elements of the array opening at `start`, and its `]`."""
        spans: list[tuple[int, int]] = []
        at = self.space(start + 1)
        if self.text[at] == "]":
            return spans, at
        while True:
            end = self.value_end(at)
            spans.append((at, end))
            at = self.space(end)
            if self.text[at] == "]":
                return spans, at
            at = self.space(at + 1)


def add_allow_rules(text: str | None, rules: Sequence[str]) -> str:
    """`text` (a settings file, `None` or blank when new) with `rules` in `permissions.allow`.

    Rules already there are not repeated. Raises `ValueError` when the text is not a JSON
    object or its `permissions` / `allow` have another type (nothing is guessed over them).
    """
    if text is None or not text.strip():
        text = json.dumps({"permissions": {"allow": list(dict.fromkeys(rules))}}, indent=2)
        return text + "\n"
    before = parse_json(text)
    if not isinstance(before, dict):
        raise ValueError("the settings file is not a JSON object")
    result = text
    for rule in rules:
        result = _add_one(result, rule)
    after = parse_json(result)
    expected = dict(before)
    permissions = dict(expected.get("permissions") or {})
    allow = list(permissions.get("allow") or [])
    allow.extend(rule for rule in dict.fromkeys(rules) if rule not in allow)
    permissions["allow"] = allow
    expected["permissions"] = permissions
    if after != expected:
        raise ValueError("the settings file could not be edited in place")
    return result


def _add_one(text: str, rule: str) -> str:
    scanner = _Scanner(text)
    top = scanner.space(0)
    members, top_close = scanner.members(top)
    permissions = next((m for m in reversed(members) if m.key == "permissions"), None)
    encoded = json.dumps(rule)
    if permissions is None:
        return _insert_member(
            text, members, (top, top_close), "permissions", f'{{"allow": [{encoded}]}}'
        )
    if text[permissions.value_start] != "{":
        raise ValueError("permissions is not an object")
    inner, inner_close = scanner.members(permissions.value_start)
    allow = next((m for m in reversed(inner) if m.key == "allow"), None)
    if allow is None:
        return _insert_member(
            text, inner, (permissions.value_start, inner_close), "allow", f"[{encoded}]"
        )
    if text[allow.value_start] != "[":
        raise ValueError("permissions.allow is not a list")
    elements, close = scanner.elements(allow.value_start)
    if any(parse_json(text[start:end]) == rule for start, end in elements):
        return text
    if not elements:
        return text[: allow.value_start] + f"[{encoded}]" + text[close + 1 :]
    last_start, last_end = elements[-1]
    separator = (
        ", " if "\n" not in text[allow.value_start : close] else ",\n" + _indent(text, last_start)
    )
    return text[:last_end] + separator + encoded + text[last_end:]


def _insert_member(
    text: str, members: list[_Member], span: tuple[int, int], key: str, value: str
) -> str:
    opening, closing = span
    member = f"{json.dumps(key)}: {value}"
    if not members:
        return text[: opening + 1] + member + text[closing:]
    last = members[-1]
    multiline = "\n" in text[opening:closing]
    separator = ",\n" + _indent(text, last.key_start) if multiline else ", "
    return text[: last.value_end] + separator + member + text[last.value_end :]


def _indent(text: str, at: int) -> str:
    line_start = text.rfind("\n", 0, at) + 1
    prefix = text[line_start:at]
    return prefix if not prefix.strip() else ""
