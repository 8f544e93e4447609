"""Instructions for the model: the system prompt with the instruction files (`AGENTS.md`,
`CLAUDE.md`, `.claude/CLAUDE.md`, `.claude/rules/*.md`, `CLAUDE.local.md` and their imports:
`tether.instructions`), and reminders: a subdirectory's files after the first read inside it,
a rule file with `paths` after the first read of a file they match."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tether.errors import GlobError
from tether.instructions import (
    AGENTS_FILE,
    MAX_FILE_CHARS,
    InstructionFile,
    Instructions,
    directory_files,
    load_instructions,
    reader_for,
)
from tether.instructions.files import is_rule_file
from tether.session.context.system_rules import (
    PLAN_MODE_PROMPT,
    RULE_FILES,
    base_prompt,
    instructions_rule,
)
from tether.tools.registry import ToolRegistry
from tether.tools.search.pattern import PathPattern
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
    planning: bool = False,
) -> str:
    """The rules, the `environment` block (else just the workspace root), what plan mode
    means when `planning`, the `role` (a
    child's agent prompt), the `skills` (their names and descriptions), then the instruction
    files: the user's, then the project's from its repository's root down to the workspace,
    each followed by what it imports (by default, read now as for a workspace that is not
    trusted)."""
    if instructions is None:
        instructions = load_instructions(workspace.cwd, workspace.roots, user_dir, trusted=False)
        for problem in instructions.problems:
            log.warning("%s", problem)
    kinds = [_kind(f) for f in (*instructions.files, *instructions.scoped) if f.origin != "import"]
    parts = [base_prompt(tools), instructions_rule(kinds), environment or _roots(workspace)]
    if planning:
        parts.append(PLAN_MODE_PROMPT)
    if role:
        parts.append(f"# Your role\n\n{role}")
    if skills:
        parts.append(skills)
    parts.extend(_section(file) for file in instructions.files)
    return "\n\n".join(parts)


def _kind(file: InstructionFile) -> str:
    """How the rule about instruction files names a file's kind."""
    if is_rule_file(file.path):
        return RULE_FILES
    if file.origin != "user" and file.path.parent.name == ".claude":
        return f".claude/{file.path.name}"
    return file.path.name


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
    user_dir: Path | None = None
    """tether's data directory (its instruction files, for the rule files with `paths`)."""
    scoped: list[tuple[InstructionFile, Path, list[PathPattern]]] | None = None
    """Rule files with `paths`, their base and globs (read at the first read of a file)."""

    def after(self, paths: Iterable[Path]) -> Reminder | None:
        """The reminder to attach after a tool showed the model `paths`, and the files it quotes."""
        found: dict[Path, str] = {}
        for path in paths:
            for source, text in self._unshown(path):
                found.setdefault(source, text)
        if not found:
            return None
        self.shown.update(found)
        sections = list(found.values())
        reminder = "<system-reminder>\n" + "\n\n".join(sections) + "\n</system-reminder>"
        return reminder, tuple(found)

    def _unshown(self, path: Path) -> list[tuple[Path, str]]:
        # Outermost first; the root's own files are in the system prompt, so only directories
        # below a root count.
        root = next((r for r in self.workspace.roots if path.is_relative_to(r)), None)
        if root is None:
            return []
        sources: list[Path] = []
        directory = path.parent
        while directory != root and directory.is_relative_to(root):
            found = directory_files(directory, rules=False)
            sources[:0] = [source for source in found if source not in self.shown]
            directory = directory.parent
        reader = reader_for(self.workspace.roots, trusted=self.trusted())
        found_texts: list[tuple[Path, str]] = []
        for source in sources:
            files = reader.read(source, "directory")
            if files:
                where = source.parent.parent if source.parent.name == ".claude" else source.parent
                applies = f"they apply to files under {escape(str(where))}"
                found_texts.append(
                    (source, _reminder_section(source, _with_imports(files), applies))
                )
        found_texts.extend(self._scoped_rules(path))
        for problem in reader.problems:
            self._warn(problem)
        return found_texts

    def _scoped_rules(self, path: Path) -> list[tuple[Path, str]]:
        """The rule files whose `paths` match `path` and that were not shown yet."""
        if self.scoped is None:
            found = load_instructions(
                self.workspace.cwd, self.workspace.roots, self.user_dir, trusted=self.trusted()
            )
            self.scoped = [(rule, *self._patterns(rule)) for rule in found.scoped]
        matched: list[tuple[Path, str]] = []
        for rule, base, patterns in self.scoped:
            if rule.path in self.shown or not path.is_relative_to(base):
                continue
            relative = path.relative_to(base).as_posix()
            if any(pattern.matches(relative) for pattern in patterns):
                globs = ", ".join(rule.paths)
                applies = f"they apply to files matching {escape(globs)} under {escape(str(base))}"
                matched.append((rule.path, _reminder_section(rule.path, rule.text, applies)))
        return matched

    def _patterns(self, rule: InstructionFile) -> tuple[Path, list[PathPattern]]:
        """Where a rule's globs start (the directory holding its `.claude/`; the workspace
        for the user's own), and the globs."""
        parts = rule.path.parts
        index = next(
            (i for i in range(len(parts) - 1) if parts[i : i + 2] == (".claude", "rules")), None
        )
        base = Path(*parts[:index]) if index and rule.origin != "user" else self.workspace.cwd
        patterns: list[PathPattern] = []
        for glob in rule.paths:
            try:
                patterns.append(PathPattern.compile(glob))
            except GlobError as exc:
                self._warn(f"{rule.path}: `paths` {glob!r} is not a glob ({exc}); ignored")
        return base, patterns

    def _warn(self, problem: str) -> None:
        if problem not in self.warned:
            self.warned.add(problem)
            log.warning("%s", problem)


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


def _reminder_section(source: Path, text: str, applies: str) -> str:
    return f"Instructions from {escape(str(source))} ({applies}):\n{_guard(text)}"


def _roots(workspace: Workspace) -> str:
    extra = "".join(f"\nAlso in the workspace: {root}" for root in workspace.extra_roots)
    return f"Workspace root: {workspace.cwd}{extra}"
