"""Instructions for the model: the system prompt, `AGENTS.md` files, and subdirectory reminders."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

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

AGENTS_FILE = "AGENTS.md"
MAX_INSTRUCTIONS_BYTES = 64 * 1024
"""An `AGENTS.md` is cut here: instructions, not a data dump, belong in the prompt."""


def system_prompt(
    workspace: Workspace,
    tools: ToolRegistry,
    user_dir: Path,
    role: str | None = None,
    environment: str | None = None,
) -> str:
    """The rules, the `environment` block (else just the workspace root), the `role` (a
    child's agent prompt), then the user's `AGENTS.md`, then the workspace root's."""
    parts = [base_prompt(tools), environment or _roots(workspace)]
    if role:
        parts.append(f"# Your role\n\n{role}")
    for path, label in (
        (user_dir / AGENTS_FILE, "the user's instructions"),
        (workspace.cwd / AGENTS_FILE, "the project's instructions"),
    ):
        text = _read(path)
        if text is not None:
            parts.append(f"# {label} ({escape(str(path))})\n\n{text}")
    return "\n\n".join(parts)


Reminder = tuple[str, tuple[Path, ...]]
"""A `<system-reminder>` text and the `AGENTS.md` files it quotes."""


@dataclass
class Reminders:
    """Which subdirectory `AGENTS.md` files the model has been shown (each is shown once)."""

    workspace: Workspace
    shown: set[Path] = field(default_factory=set)

    def after(self, paths: Iterable[Path]) -> Reminder | None:
        """The reminder to attach after a tool showed the model `paths`, and the files it quotes."""
        found: dict[Path, str] = {}
        for path in paths:
            for source, text in self._unshown(path):
                found.setdefault(source, text)
        if not found:
            return None
        self.shown.update(found)
        sections = [
            f"Instructions from {escape(str(source))} (they apply to files under "
            f"{escape(str(source.parent))}):\n{_guard(text)}"
            for source, text in found.items()
        ]
        reminder = "<system-reminder>\n" + "\n\n".join(sections) + "\n</system-reminder>"
        return reminder, tuple(found)

    def _unshown(self, path: Path) -> list[tuple[Path, str]]:
        # Outermost first; the root's own file is in the system prompt, so only directories
        # below a root count.
        root = next((r for r in self.workspace.roots if path.is_relative_to(r)), None)
        if root is None:
            return []
        found: list[tuple[Path, str]] = []
        directory = path.parent
        while directory != root and directory.is_relative_to(root):
            source = directory / AGENTS_FILE
            if source not in self.shown:
                text = _read(source)
                if text is not None:
                    found.append((source, text))
            directory = directory.parent
        found.reverse()
        return found


def escape(text: str) -> str:
    """`&`, `<` and `>` as entities, so a name cannot open or close a tag."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _guard(text: str) -> str:
    # The file's own text stays readable (code samples keep their `<`), but it cannot
    # end the reminder early.
    return text.replace("</system-reminder>", "&lt;/system-reminder&gt;")


def _read(path: Path) -> str | None:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_INSTRUCTIONS_BYTES)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError, PermissionError):
        return None
    text = data.decode("utf-8", errors="replace").strip()
    return text or None


def _roots(workspace: Workspace) -> str:
    extra = "".join(f"\nAlso in the workspace: {root}" for root in workspace.extra_roots)
    return f"Workspace root: {workspace.cwd}{extra}"
