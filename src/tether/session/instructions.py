"""Instructions for the model: the system prompt with the instruction files (`AGENTS.md`, else
`CLAUDE.md`, and their imports: `tether.instructions`), and subdirectory reminders."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tether.instructions import (
    AGENTS_FILE,
    MAX_FILE_CHARS,
    InstructionFile,
    Instructions,
    directory_file,
    load_instructions,
    reader_for,
)
from tether.session.rules import base_prompt
from tether.tools.registry import ToolRegistry
from tether.tools.workspace import Workspace

__all__ = [
    "AGENTS_FILE",
    "MAX_INSTRUCTIONS_BYTES",
    "Reminder",
    "Reminders",
    "escape",
    "system_prompt",
]

log = logging.getLogger(__name__)

MAX_INSTRUCTIONS_BYTES = MAX_FILE_CHARS
"""An instruction file is cut here: instructions, not a data dump, belong in the prompt."""


def system_prompt(
    workspace: Workspace,
    tools: ToolRegistry,
    user_dir: Path,
    role: str | None = None,
    environment: str | None = None,
    *,
    instructions: Instructions | None = None,
    skills: str | None = None,
) -> str:
    """The rules, the `environment` block (else just the workspace root), the `role` (a
    child's agent prompt), the `skills` (their names and descriptions), then the instruction
    files: the user's, then the project's from its repository's root down to the workspace,
    each followed by what it imports (by default, read now as for a workspace that is not
    trusted)."""
    parts = [base_prompt(tools), environment or _roots(workspace)]
    if role:
        parts.append(f"# Your role\n\n{role}")
    if skills:
        parts.append(skills)
    if instructions is None:
        instructions = load_instructions(workspace.cwd, workspace.roots, user_dir, trusted=False)
        for problem in instructions.problems:
            log.warning("%s", problem)
    parts.extend(_section(file) for file in instructions.files)
    return "\n\n".join(parts)


def _section(file: InstructionFile) -> str:
    match file.origin:
        case "user":
            label = "the user's instructions"
        case "project" | "directory":
            label = "the project's instructions"
        case "import":
            label = f"imported by {file.imported_by}"
    return f"# {label} ({escape(str(file.path))})\n\n{file.text}"


Reminder = tuple[str, tuple[Path, ...]]
"""A `<system-reminder>` text and the instruction files it quotes."""


def _untrusted() -> bool:
    return False


@dataclass
class Reminders:
    """Which subdirectory instruction files the model has been shown (each is shown once)."""

    workspace: Workspace
    shown: set[Path] = field(default_factory=set)
    trusted: Callable[[], bool] = _untrusted
    """Whether the workspace is trusted now (its files may then import from outside it)."""
    warned: set[str] = field(default_factory=set)

    def after(self, paths: Iterable[Path]) -> Reminder | None:
        """The reminder to attach after a tool showed the model `paths`, and the files it quotes."""
        found: dict[Path, str] = {}
        for path in paths:
            for source, text in self._unshown(path):
                found.setdefault(source, text)
        if not found:
            return None
        self.shown.update(found)
        sections = [_reminder_section(source, text) for source, text in found.items()]
        reminder = "<system-reminder>\n" + "\n\n".join(sections) + "\n</system-reminder>"
        return reminder, tuple(found)

    def _unshown(self, path: Path) -> list[tuple[Path, str]]:
        # Outermost first; the root's own file is in the system prompt, so only directories
        # below a root count.
        root = next((r for r in self.workspace.roots if path.is_relative_to(r)), None)
        if root is None:
            return []
        sources: list[Path] = []
        directory = path.parent
        while directory != root and directory.is_relative_to(root):
            source = directory_file(directory)
            if source is not None and source not in self.shown:
                sources.append(source)
            directory = directory.parent
        reader = reader_for(self.workspace.roots, trusted=self.trusted())
        found: list[tuple[Path, str]] = []
        for source in reversed(sources):
            files = reader.read(source, "directory")
            if files:
                found.append((source, _with_imports(files)))
        for problem in reader.problems:
            if problem not in self.warned:
                self.warned.add(problem)
                log.warning("%s", problem)
        return found


def escape(text: str) -> str:
    """`&`, `<` and `>` as entities, so a name cannot open or close a tag."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _guard(text: str) -> str:
    # The file's own text stays readable (code samples keep their `<`), but it cannot
    # end the reminder early.
    return text.replace("</system-reminder>", "&lt;/system-reminder&gt;")


def _with_imports(files: list[InstructionFile]) -> str:
    """A directory file's text, then each file it imports (named)."""
    head, *imported = files
    parts = [head.text]
    parts.extend(f"Imported from {escape(str(f.path))}:\n{f.text}" for f in imported)
    return "\n\n".join(parts)


def _reminder_section(source: Path, text: str) -> str:
    return (
        f"Instructions from {escape(str(source))} (they apply to files under "
        f"{escape(str(source.parent))}):\n{_guard(text)}"
    )


def _roots(workspace: Workspace) -> str:
    extra = "".join(f"\nAlso in the workspace: {root}" for root in workspace.extra_roots)
    return f"Workspace root: {workspace.cwd}{extra}"
