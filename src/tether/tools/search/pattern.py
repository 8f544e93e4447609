"""Glob patterns as ripgrep's `--glob` reads them (gitignore style), matched in Python.

`glob` cannot hand its pattern to ripgrep as `--glob`: a glob given there takes precedence
over every ignore file, so `*.log` would list the logs `.gitignore` excludes. So ripgrep
lists the files the ignore rules leave, and this module matches them against the pattern,
with the same rules (a differential test checks them against `rg --glob`):

- a pattern without a `/` (besides a trailing one) matches a name at any depth; one with
  a `/` is matched from the root, a leading `/` only anchoring it;
- `*` and `?` stop at `/`; `**` as a whole component spans directories (`**/x`, `a/**/b`,
  `a/**`), anywhere else it is a `*`;
- `[abc]`, `[a-z]`, `[!abc]` or `[^abc]` match one character other than `/`; `{a,b}` is
  either (not nested); a backslash escapes the next character;
- a trailing `/` names directories, so it matches no file; a leading `!` inverts the match.

An unclosed `[` or `{`, or a `{` inside braces, is a `GlobError` that says so, as ripgrep does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tether.errors import GlobError

__all__ = ["GlobError", "PathPattern"]


@dataclass(frozen=True)
class PathPattern:
    """A compiled glob: `matches(path)` for a `/`-separated path relative to the root."""

    regex: re.Pattern[str] | None
    """`None` when no file can match (a directory-only pattern)."""
    negated: bool = False

    @classmethod
    def compile(cls, pattern: str) -> PathPattern:
        """The pattern as ripgrep's `--glob` would read it; raises `GlobError`."""
        negated = pattern.startswith("!")
        if negated:
            pattern = pattern[1:]
        anchored = pattern.startswith("/")
        if anchored:
            pattern = pattern[1:]
        if pattern.endswith("/") and not pattern.endswith("\\/"):
            return cls(None, negated)
        if not anchored and "/" not in pattern:
            pattern = "**/" + pattern
        return cls(re.compile(f"(?s:{_translate(pattern)})"), negated)

    def matches(self, path: str) -> bool:
        """Whether the file at `path` (relative, `/`-separated) is one the pattern names."""
        found = self.regex is not None and self.regex.fullmatch(path) is not None
        return found != self.negated


def _translate(pattern: str) -> str:
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**", i):
            starts = i == 0 or pattern[i - 1] == "/"
            end = i + 2
            if starts and end == n:
                out.append(".*")
                i = end
            elif starts and pattern[end] == "/":
                out.append("(?:.*/)?")
                i = end + 1
            else:
                out.append("[^/]*")
                i = end
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            regex, i = _class(pattern, i)
            out.append(regex)
            continue
        elif c == "{":
            regex, i = _braces(pattern, i)
            out.append(regex)
            continue
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pattern[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def _class(pattern: str, start: int) -> tuple[str, int]:
    """`[...]` at `start` as a regex class, and the index after it."""
    i = start + 1
    negated = i < len(pattern) and pattern[i] in "!^"
    if negated:
        i += 1
    body_start = i
    if i < len(pattern) and pattern[i] == "]":
        i += 1  # a `]` first is a member, not the end
    while i < len(pattern) and pattern[i] != "]":
        i += 1
    if i >= len(pattern):
        raise GlobError("unclosed character class; missing ']'")
    members = pattern[body_start:i]
    escaped = "".join("\\" + ch if ch in "\\^[]" else ch for ch in members)
    return (f"[^/{escaped}]" if negated else f"(?!/)[{escaped}]"), i + 1


def _braces(pattern: str, start: int) -> tuple[str, int]:
    """`{a,b}` at `start` as a regex group, and the index after it."""
    end = pattern.find("}", start)
    if end < 0:
        raise GlobError("unclosed alternate group; missing '}'")
    if "{" in pattern[start + 1 : end]:
        raise GlobError("nested alternate groups are not allowed")
    alternatives = pattern[start + 1 : end].split(",")
    return "(?:" + "|".join(_translate(a) for a in alternatives) + ")", end + 1
