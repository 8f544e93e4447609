"""Completion in the input box: `/` for the command catalog, `@` for workspace paths.

The menu is drawn under the box (name, argument hint, description), like the one the web
client shows; `MENU_ROWS` rows at most, scrolled with the selection.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from prompt_toolkit.buffer import Buffer, CompletionState
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples, to_plain_text

if TYPE_CHECKING:  # the index runs ripgrep: imported once the session is loaded
    from tether.cli.interactive.paths import FileIndex

__all__ = ["MENU_ROWS", "CommandEntry", "PromptCompleter", "menu_fragments", "menu_height"]

MENU_ROWS = 8
"""Rows the completion menu shows at once."""

_MENTION = re.compile(r"(?:^|\s)@(\S*)$")


@dataclass(frozen=True)
class CommandEntry:
    """One command as the menu lists it."""

    name: str
    description: str
    hint: str | None = None


class PromptCompleter(Completer):
    """Commands after a leading `/`, paths after `@`; nothing until the catalog is known."""

    def __init__(self) -> None:
        self.commands: Sequence[CommandEntry] = ()
        self.files: FileIndex | None = None
        self.listed: Callable[[], None] = lambda: None
        """Called when a new list of files arrives (the menu is then worked out again)."""

    def get_completions(self, document: Document, event: CompleteEvent) -> Iterable[Completion]:
        """The completions for the text before the cursor."""
        before = document.text_before_cursor
        if before.startswith("/") and not any(c.isspace() for c in before):
            yield from self._commands(before[1:])
            return
        mention = _MENTION.search(before)
        if mention is not None and self.files is not None:
            yield from self._paths(self.files, mention[1])

    def _commands(self, typed: str) -> Iterable[Completion]:
        starts = [c for c in self.commands if c.name.startswith(typed)]
        inside = [c for c in self.commands if typed in c.name and c not in starts]
        for command in [*starts, *inside]:
            meta = (
                f"{command.hint}  ·  {command.description}" if command.hint else command.description
            )
            yield Completion(
                f"/{command.name}",
                start_position=-(len(typed) + 1),
                display=f"/{command.name}",
                display_meta=meta,
            )

    def _paths(self, files: FileIndex, typed: str) -> Iterable[Completion]:
        if files.stale:
            files.refresh().add_done_callback(lambda _task: self.listed())
        for path in files.matches(typed, limit=50):
            # A folder stays open for more typing; a file ends the mention.
            text = f"@{path}" if path.endswith("/") else f"@{path} "
            yield Completion(text, start_position=-(len(typed) + 1), display=path)


def menu_height(buffer: Buffer) -> int:
    """Rows the menu takes now (0 when there is nothing to choose)."""
    state = buffer.complete_state
    return min(len(state.completions), MENU_ROWS) if state is not None else 0


def menu_fragments(state: CompletionState | None, width: int) -> StyleAndTextTuples:
    """The menu's rows, the selection (the first when none) highlighted."""
    if state is None or not state.completions:
        return []
    completions = state.completions
    selected = state.complete_index or 0
    first = min(max(0, selected - MENU_ROWS + 1), max(0, len(completions) - MENU_ROWS))
    shown = completions[first : first + MENU_ROWS]
    name_width = min(max(len(to_plain_text(c.display)) for c in shown) + 2, max(width // 2, 12))
    fragments: StyleAndTextTuples = []
    for offset, completion in enumerate(shown):
        index = first + offset
        style = "class:menu.selected" if index == selected else "class:menu"
        name = to_plain_text(completion.display)[: name_width - 1].ljust(name_width)
        meta = to_plain_text(completion.display_meta)
        room = max(width - name_width - 4, 0)
        if len(meta) > room:
            meta = meta[: max(room - 1, 0)] + "…" if room else ""
        fragments.append((style, f"  {name}"))
        fragments.append((f"{style} class:menu.meta", meta))
        if offset < len(shown) - 1:
            fragments.append(("", "\n"))
    return fragments
