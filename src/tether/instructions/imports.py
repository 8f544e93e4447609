"""Reading instruction files and their `@path` imports.

`@docs/style.md` in an instruction file brings that file in too, resolved against the
importing file's directory (`@~/x.md` from home, `@/abs` as written). Imports nest at most
`MAX_DEPTH` levels; a cycle, a missing file or one that cannot be read is reported once and
skipped. Code spans and fenced blocks import nothing, and an `@word` that names no file
(`@pytest.fixture` in prose) is a mention, not an import, unless it looks like a path.
A file the workspace controls may import only from inside it (the `boundary`) until the
workspace is trusted; the user's own files may import from anywhere.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tether.beneath import opener_below
from tether.bounded import read_bounded
from tether.errors import FrontMatterError, UnreadableFile
from tether.frontmatter import parse_front_matter
from tether.instructions.files import is_rule_file
from tether.lazy import pattern

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_CHARS",
    "MAX_TOTAL_CHARS",
    "InstructionFile",
    "Origin",
    "Reader",
    "import_paths",
]

MAX_DEPTH = 5
"""How deep imports nest (an import of an import ... five times)."""
MAX_FILE_CHARS = 64 * 1024
"""One file is cut here: instructions, not a data dump, belong in the prompt."""
MAX_TOTAL_CHARS = 256 * 1024
"""All instruction files together stop here; the rest is reported as left out."""

Origin = Literal["user", "project", "directory", "import"]

_FENCE = pattern(r"^[ \t]*(`{3,}|~{3,}).*?^[ \t]*\1[ \t]*$", re.MULTILINE | re.DOTALL)
_SPAN = pattern(r"`+[^`\n]*`+")
_TOKEN = pattern(r"(?<![\w@/.])@([^\s`<>\"'()\[\]{}@]+)")
_TRAILING = ".,;:!?"
_EXTENSION = pattern(r"\.[A-Za-z0-9]{1,5}$")


@dataclass(frozen=True)
class InstructionFile:
    """One file put before the model: its text, where it comes from, who imported it."""

    path: Path
    text: str
    origin: Origin
    imported_by: Path | None = None
    paths: tuple[str, ...] = ()
    """A rule file's `paths` globs: it applies only to the files they match, and is shown
    when the model reads one (empty: it always applies)."""


def import_paths(text: str) -> list[str]:
    """The `@path` imports of `text`, in order, outside code spans and fenced blocks."""
    prose = _SPAN.sub(" ", _FENCE.sub(" ", text))
    found = []
    for match in _TOKEN.finditer(prose):
        token = match[1].rstrip(_TRAILING)
        if token:
            found.append(token)
    return found


@dataclass
class Reader:
    """Reads instruction files for one prompt, each at most once, within a size budget."""

    home: Path
    boundary: Sequence[Path] | None
    """Where a workspace's file may import from; `None`: anywhere (a trusted workspace)."""
    problems: list[str] = field(default_factory=list)
    seen: set[Path] = field(default_factory=set)
    used: int = 0

    def read(self, path: Path, origin: Origin) -> list[InstructionFile]:
        """`path` and what it imports (depth first, each file once); `[]` when unreadable."""
        resolved = _resolved(path)
        if resolved in self.seen:
            return []
        within = origin != "user"
        return self._file(resolved, path, origin, None, (), within=within, linked=within)

    def _file(
        self,
        resolved: Path,
        shown: Path,
        origin: Origin,
        parent: Path | None,
        stack: tuple[Path, ...],
        *,
        within: bool,
        linked: bool = False,
    ) -> list[InstructionFile]:
        # A file inside the boundary is read at its resolved place, no link followed below
        # the boundary's folder: one swapped in between the check and the read would
        # otherwise bring in a file from anywhere (the check below sees the old place).
        inside = self.boundary is not None and _inside(resolved, self.boundary)
        roots = tuple(Path(os.path.realpath(r)) for r in self.boundary or ()) if inside else ()
        text = self._text(resolved if roots else shown, beneath=roots)
        if text is None:
            return []
        paths: tuple[str, ...] = ()
        if is_rule_file(shown) and origin != "import":
            text, paths = self._rule(shown, text)
            if not text:
                return []
        own_place = resolved == Path(os.path.abspath(shown))
        outside = self.boundary is not None and not _inside(resolved, self.boundary)
        if linked and not own_place and outside:
            # A link named CLAUDE.md is what it points to: that must be inside too.
            self._report(f"{shown}: it leads outside the workspace ({resolved}); not read")
            return []
        self.seen.add(resolved)
        files = [InstructionFile(shown, text, origin, parent, paths)]
        for token in import_paths(text):
            files.extend(self._import(token, shown, (*stack, resolved), within=within))
        return files

    def _import(
        self, token: str, importer: Path, stack: tuple[Path, ...], *, within: bool
    ) -> list[InstructionFile]:
        target = _target(token, importer, self.home)
        if target is None:
            return []
        resolved = _resolved(target)
        # `@docs/x.md`, `@~/notes.md`, `@package.json` are imports; `@pytest.fixture` prose.
        path_like = "/" in token or token.startswith("~") or bool(_EXTENSION.search(token))
        if not os.path.lexists(target):
            if path_like:
                self._report(f"{importer}: @{token} imports {target}, which does not exist")
            return []
        if resolved in stack:
            self._report(f"{importer}: @{token} imports a file that imports it (a cycle)")
            return []
        if resolved in self.seen:
            return []
        if len(stack) > MAX_DEPTH:
            self._report(f"{importer}: @{token} is nested deeper than {MAX_DEPTH} imports")
            return []
        if within and self.boundary is not None and not _inside(resolved, self.boundary):
            self._report(
                f"{importer}: @{token} is outside the workspace; it is imported once the "
                "workspace is trusted (`tether permissions trust`)"
            )
            return []
        return self._file(resolved, target, "import", importer, stack, within=within)

    def _text(self, path: Path, *, beneath: Sequence[Path] = ()) -> str | None:
        if self.used >= MAX_TOTAL_CHARS:
            self._report(f"{path}: left out, the instructions hold {MAX_TOTAL_CHARS} characters")
            return None
        try:
            # Undecodable bytes become U+FFFD: a stray Latin-1 byte spoils a word, not a file.
            opener = opener_below(beneath) if beneath else None
            text = read_bounded(path, opener=opener).decode("utf-8-sig", errors="replace")
        except (FileNotFoundError, NotADirectoryError):
            return None
        except UnreadableFile as exc:
            self._report(f"instructions skipped: {exc}")
            return None
        text = text[:MAX_FILE_CHARS].strip()
        self.used += len(text)
        return text or None

    def _rule(self, path: Path, text: str) -> tuple[str, tuple[str, ...]]:
        """A rule file's body and its `paths` (Claude Code's front matter of rules)."""
        try:
            front = parse_front_matter(text, known=("paths",), required=False)
            scoped = front.fields.get("paths")
            paths = tuple(scoped.items()) if scoped is not None else ()
        except FrontMatterError as exc:
            self._report(f"instructions skipped: {exc.where(path)}")
            return "", ()
        for key, given in front.fields.items():
            if key != "paths":
                self._report(
                    f"{path}:{given.line}: `{given.key}` is not a key of Claude Code's rules "
                    "(only `paths` is); ignored"
                )
        return front.body.strip(), paths

    def _report(self, problem: str) -> None:
        if problem not in self.problems:
            self.problems.append(problem)


def _target(token: str, importer: Path, home: Path) -> Path | None:
    if "\0" in token:
        return None
    if token == "~" or token.startswith("~/"):
        return Path(os.path.normpath(home / token[2:]))
    candidate = Path(token)
    joined = candidate if candidate.is_absolute() else importer.parent / candidate
    return Path(os.path.normpath(joined))


def _resolved(path: Path) -> Path:
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError):
        return path


def _inside(path: Path, boundary: Sequence[Path]) -> bool:
    return any(path == root or path.is_relative_to(root) for root in boundary)
