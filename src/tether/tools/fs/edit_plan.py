"""Working out an edit of a file: its steps applied in order, all or nothing, then encoded.

`edit` makes one step, `multi_edit` several; each step applies to the text the step before
it left, and a step that fails fails the whole edit before anything is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tether.errors import ToolError
from tether.linediff import hunks
from tether.tools.fs.change_checks import read_to_change
from tether.tools.fs.change_diff import AppliedChange
from tether.tools.fs.edit_match import replace_in_text
from tether.tools.fs.encoding import SNIFF_BYTES, looks_binary
from tether.tools.fs.textfile import NEW_FILE, TextFile, count_lines, display_text
from tether.tools.observations import FileObservations, FileVersion
from tether.views import FileDiff

__all__ = ["EditPlan", "EditStep", "plan_edits"]


@dataclass(frozen=True)
class EditStep:
    """One replacement: `old_string` (empty: create or fill an empty file), `new_string`."""

    old_string: str
    new_string: str
    replace_all: bool = False


@dataclass(frozen=True)
class EditPlan:
    """An edit worked out and encoded, not yet written."""

    before: FileVersion | None
    """The version it was worked out from (`None`: the file is being created)."""
    data: bytes
    old_text: str
    new_text: str
    count: int

    def applied(self, path: Path) -> AppliedChange:
        """The change as shown: the whole file when created, else its hunks."""
        if self.before is None:
            new = display_text(self.new_text)
            diffs: tuple[FileDiff, ...] = (FileDiff(path=str(path), old_text=None, new_text=new),)
            lines: tuple[int, ...] = (1,)
        else:
            found = hunks(self.old_text, self.new_text)
            diffs = tuple(
                FileDiff(
                    path=str(path),
                    old_text=display_text(hunk.old_text),
                    new_text=display_text(hunk.new_text),
                )
                for hunk in found
            )
            lines = tuple(hunk.new_start for hunk in found)
        return AppliedChange(
            path=path,
            diffs=diffs,
            lines=lines,
            created=self.before is None,
            line_count=count_lines(self.new_text),
            replacements=self.count,
        )


def plan_edits(
    steps: Sequence[EditStep],
    observations: FileObservations,
    path: Path,
    roots: Sequence[Path],
) -> EditPlan:
    """Check the observation, read, apply every step and encode; raises `ToolError` for any
    refusal (naming the step when there are several)."""
    current = read_to_change(path, observations, "edit", roots)
    if current is None:
        # An empty old_string on a missing file creates it, as UTF-8 with the text as given.
        first, *rest = steps
        if first.old_string:
            raise ToolError(f"File not found: {path}")
        text, count = _apply(first.new_string, rest, path, start=2)
        return EditPlan(None, _encode(NEW_FILE, text, path), "", text, count + 1)
    before, data = current
    if looks_binary(path, data[:SNIFF_BYTES]):
        raise ToolError(f"Cannot edit binary file: {path}")
    try:
        file = TextFile.decode(data)
    except UnicodeDecodeError as exc:
        raise ToolError(f"Cannot edit {path}: it is not valid {exc.encoding} text") from exc
    text, count = _apply(file.text, steps, path, start=1, several=len(steps) > 1)
    new_data = _encode(file, text, path)
    if new_data == data:
        raise ToolError(f"The edit would leave {path} unchanged")
    return EditPlan(before, new_data, file.text, text, count)


def _encode(file: TextFile, text: str, path: Path) -> bytes:
    try:
        return file.encode(text)
    except UnicodeEncodeError as exc:
        raise ToolError(
            f"Cannot edit {path}: new_string cannot be encoded as {exc.encoding}"
        ) from exc


def _apply(
    text: str, steps: Sequence[EditStep], path: Path, *, start: int, several: bool = True
) -> tuple[str, int]:
    """The text after every step, and the replacements made in all."""
    count = 0
    for number, step in enumerate(steps, start):
        try:
            text, done = _edited_text(text, step, path)
        except ToolError as exc:
            if not several:
                raise
            raise ToolError(
                f"edit {number} of {start + len(steps) - 1}: {exc}; nothing was changed"
            ) from exc
        count += done
    return text, count


def _edited_text(text: str, step: EditStep, path: Path) -> tuple[str, int]:
    """The new text and the number of replacements made."""
    if step.old_string == step.new_string:
        raise ToolError("old_string and new_string are the same; there is nothing to change")
    if step.old_string:
        done = replace_in_text(
            text, step.old_string, step.new_string, replace_all=step.replace_all, path=path
        )
        return done.text, done.count
    if text:
        raise ToolError(
            f"old_string is empty but {path} is not; an empty old_string only creates a new "
            "file or fills an empty one"
        )
    return step.new_string, 1
