"""Instructions for the model from files people already keep: `AGENTS.md`, `CLAUDE.md`,
`.claude/CLAUDE.md`, `.claude/rules/*.md` and `CLAUDE.local.md`, in every directory from the
repository's root down to the workspace, the user's own files, and the files they import with
`@path`. A rule file whose front matter names `paths` applies only to the files they match:
it is in `scoped`, for the session to show when the model reads one of them.

    found = load_instructions(workspace, user_dir, trusted=False)
    found.files      # each file with its text and where it comes from, in prompt order
    found.problems   # missing, cyclic, too deep, outside the workspace: said once
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tether.instructions.files import (
    AGENTS_FILE,
    CLAUDE_DIR_FILE,
    CLAUDE_FILE,
    CLAUDE_LOCAL_FILE,
    RULES_DIR,
    claude_home,
    directory_files,
    project_chain,
    repository_root,
    user_files,
)
from tether.instructions.imports import (
    MAX_DEPTH,
    MAX_FILE_CHARS,
    InstructionFile,
    Origin,
    Reader,
    import_paths,
)

__all__ = [
    "AGENTS_FILE",
    "CLAUDE_DIR_FILE",
    "CLAUDE_FILE",
    "CLAUDE_LOCAL_FILE",
    "MAX_DEPTH",
    "MAX_FILE_CHARS",
    "RULES_DIR",
    "InstructionFile",
    "Instructions",
    "Origin",
    "Reader",
    "claude_home",
    "directory_files",
    "import_paths",
    "load_instructions",
    "project_chain",
    "reader_for",
    "repository_root",
    "user_files",
]


@dataclass(frozen=True)
class Instructions:
    """The instruction files for one prompt, in order, and what was wrong with the rest."""

    files: tuple[InstructionFile, ...]
    problems: tuple[str, ...]
    scoped: tuple[InstructionFile, ...] = ()
    """Rule files with `paths`: each applies to the files its globs match (relative to the
    directory holding its `.claude/`, the workspace for the user's)."""


def reader_for(roots: Sequence[Path], *, trusted: bool) -> Reader:
    """A reader whose workspace files import only from inside `roots` until the workspace is
    `trusted` (a file of the chain above the workspace is read where it is, not through a
    link leading elsewhere)."""
    return Reader(home=Path.home(), boundary=None if trusted else list(roots))


def load_instructions(
    cwd: Path, roots: Sequence[Path], user_dir: Path | None, *, trusted: bool
) -> Instructions:
    """The user's files, then the chain from the repository's root down to `cwd`, each
    followed by what it imports."""
    reader = reader_for(roots, trusted=trusted)
    files: list[InstructionFile] = []
    for path in user_files(user_dir):
        files.extend(reader.read(path, "user"))
    for directory in project_chain(cwd):
        for found in directory_files(directory):
            files.extend(reader.read(found, "project"))
    always = tuple(f for f in files if not f.paths)
    return Instructions(always, tuple(reader.problems), tuple(f for f in files if f.paths))
