"""Path patterns of file rules: gitignore-style globs matched on resolved paths.

- `*.env`, `secrets` (no `/` inside): a name at any depth below the project root;
- `src/**`, `docs/*.md`, `./.env` (a `/` inside, or a leading `./`): from the project root;
- `/etc/hosts`, `//etc/hosts` (Claude Code's form), `~/.ssh/**`: absolute, or from home;
- in Claude Code's files, Claude Code's four forms: `//etc/hosts` absolute, `~/.ssh/**` from
  home, `/secrets/**` from the project root (Claude Code: relative to the settings file's
  project), `secrets/**` or `./secrets/**` from the project root (the session's cwd);
- `*` and `?` stay within one name, `**` spans directories, `[abc]` is a class, `\\` escapes;
- a pattern that names a directory covers everything in it (`secrets` covers
  `secrets/key.pem`), as in `.gitignore`.

The literal directories a pattern starts with are resolved when it is compiled (symlinks
followed, `..` applied), and the matcher sees only resolved paths: a symlink or `..` in
what a tool asks for cannot step around a rule.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PathPattern", "compile_pattern", "escape_pattern"]

_GLOB = re.compile(r"(?<!\\)[*?\[]")


@dataclass(frozen=True)
class PathPattern:
    """A compiled path pattern: paths below `base` whose relative form matches `regex`."""

    text: str
    base: Path
    regex: re.Pattern[str]
    body: tuple[str, ...] = ()
    """The glob's names after `base` (for an unanchored pattern, the names at any depth)."""
    anchored: bool = True

    def covers(self, path: Path) -> bool:
        """Whether resolved `path`, or a directory above it, matches."""
        try:
            parts = path.relative_to(self.base).parts
        except ValueError:
            return False
        return any(self.regex.fullmatch("/".join(parts[:end])) for end in range(len(parts) + 1))

    def search_glob(self, root: Path) -> str | None:
        """The ripgrep glob (relative to a search of directory `root`) for what this pattern
        covers there, or `None` when it covers nothing under `root`. Raises `ValueError` when
        no single glob says it (search a narrower directory)."""
        # A rule's `{` and `}` are letters, which ripgrep's globs would read as alternatives.
        body = [_for_ripgrep(component) for component in self.body]
        if not self.anchored:
            if root == self.base or root.is_relative_to(self.base):
                return "/".join(body)
            if self.base.is_relative_to(root):
                return "/".join((_escaped(self.base.relative_to(root)), "**", *body))
            return None
        if self.base == root or self.base.is_relative_to(root):
            below = self.base.relative_to(root)
            names = [_escaped(below)] if below.parts else []
            return "/" + "/".join((*names, *body)) if names or body else None
        if not root.is_relative_to(self.base):
            return None
        rest = list(root.relative_to(self.base).parts)
        own = list(self.body)
        while rest and own:
            if own[0] == "**":
                return "/".join(body)
            if not re.fullmatch(_component(own[0]), rest[0]):
                return None
            rest.pop(0)
            own.pop(0)
            body.pop(0)
        if not body:
            raise ValueError(f"{self.text} covers all of {root}")
        return "/" + "/".join(body)


def compile_pattern(text: str, *, root: Path, home: Path, claude: bool = False) -> PathPattern:
    """The pattern `text` of a rule, relative to project `root` unless it is absolute or `~/`;
    `claude`: read as Claude Code reads it, where only `//` is absolute and `/path` starts at
    the project root."""
    raw = text.strip()
    anchored = True
    if raw == "~" or raw.startswith("~/"):
        base, body = home, raw[2:]
    elif claude and raw.startswith("/") and not raw.startswith("//"):
        base, body = root, raw.lstrip("/")
    elif raw.startswith("/"):
        base, body = Path("/"), raw.lstrip("/")
    elif raw.startswith("./"):
        base, body = root, raw[2:]
    else:
        base, body = root, raw
        anchored = "/" in raw.rstrip("/")
    components = [c for c in body.rstrip("/").split("/") if c not in ("", ".")]
    if not anchored:
        regex = "(?:.*/)?" + _translate(components)
        compiled = re.compile(regex, re.DOTALL)
        return PathPattern(text, _resolved(base), compiled, tuple(components), anchored=False)
    literal = 0
    while literal < len(components) and not _GLOB.search(components[literal]):
        literal += 1
    prefix = base.joinpath(*(_unescape(c) for c in components[:literal]))
    rest = components[literal:]
    regex = _translate(rest) if rest else ""
    return PathPattern(text, _resolved(prefix), re.compile(regex, re.DOTALL), tuple(rest))


def escape_pattern(name: str) -> str:
    """`name` with the characters globs give meaning to escaped, so it matches only itself
    (in a rule and in a ripgrep glob, which also reads `{a,b}`)."""
    return re.sub(r"([*?\[\]\\{}])", r"\\\1", name)


def _resolved(path: Path) -> Path:
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError):
        return Path(os.path.abspath(path))


def _translate(components: list[str]) -> str:
    out = ""
    for index, component in enumerate(components):
        last = index == len(components) - 1
        if component == "**":
            out += ".*" if last else "(?:.*/)?"
        else:
            out += _component(component) + ("" if last else "/")
    return out


def _component(component: str) -> str:
    """One name of a pattern as a regular expression (`*`, `?`, classes, escapes)."""
    out = []
    i = 0
    while i < len(component):
        char = component[i]
        if char == "\\" and i + 1 < len(component):
            out.append(re.escape(component[i + 1]))
            i += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = _class_end(component, i)
            if end is None:
                out.append(re.escape(char))
            else:
                inner = component[i + 1 : end - 1]
                if inner[:1] in ("!", "^"):
                    inner = "^" + inner[1:]
                out.append("[" + inner.replace("\\", "\\\\").replace("/", "") + "]")
                i = end
                continue
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


def _for_ripgrep(component: str) -> str:
    """One name of a rule's glob as ripgrep's `--glob` reads it: braces escaped."""
    out = []
    i = 0
    while i < len(component):
        char = component[i]
        if char == "\\" and i + 1 < len(component):
            out.append(component[i : i + 2])
            i += 2
            continue
        if char == "[":
            end = _class_end(component, i)
            if end is not None:
                out.append(component[i:end])
                i = end
                continue
        out.append("\\" + char if char in "{}" else char)
        i += 1
    return "".join(out)


def _class_end(component: str, i: int) -> int | None:
    """The index after the `]` closing the class that opens at `i`, if it is closed."""
    start = i + 1
    if component[start : start + 1] in ("!", "^"):
        start += 1
    if component[start : start + 1] == "]":
        start += 1
    end = component.find("]", start)
    return None if end == -1 else end + 1


def _escaped(relative: Path) -> str:
    return "/".join(escape_pattern(part) for part in relative.parts)


def _unescape(component: str) -> str:
    return re.sub(r"\\(.)", r"\1", component)
