"""The `edit` tool: replace an exact string in a file the session has read."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from pydantic import BaseModel, Field, JsonValue

from tether.content import ContentBlock, TextContent
from tether.linediff import hunks
from tether.tools.arguments import PATH_ALIASES, Alias, ArgumentAlias, ToolArguments
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.context import ToolContext
from tether.tools.errors import ToolError
from tether.tools.fs.change_checks import read_to_change
from tether.tools.fs.change_commit import commit_change
from tether.tools.fs.change_diff import AppliedChange, change_meta, diff_result_view
from tether.tools.fs.edit_match import replace_in_text
from tether.tools.fs.encoding import SNIFF_BYTES, looks_binary
from tether.tools.fs.textfile import NEW_FILE, TextFile, count_lines, display_text
from tether.tools.observations import FileObservations, FileVersion
from tether.tools.result import ToolResult
from tether.views import DiffCallView, DiffResultView, FileDiff, Location, ToolCallView

__all__ = ["EditArgs", "EditTool"]

DESCRIPTION = """\
Replace an exact string in a file. The file must have been read earlier in this session and \
be unchanged since.
`old_string` must match exactly once (include surrounding lines to make it unique), or set \
`replace_all` to replace every occurrence. Copy text from `read` without its `N: ` line \
prefix, keeping the indentation exactly as it appears after that prefix. Line endings do not \
matter for matching: the file keeps its own, and its encoding. An empty `old_string` creates \
a file that does not exist yet (or fills an empty one) with `new_string`."""


class EditArgs(ToolArguments):
    """Arguments of `edit`."""

    path: str = Field(description="The file to edit; relative paths start at the workspace.")
    old_string: str = Field(description="The exact text to replace.")
    new_string: str = Field(description="The text to put in its place (must differ).")
    replace_all: bool = Field(
        default=False, description="Replace every occurrence instead of exactly one."
    )


class EditTool(Tool[EditArgs, AppliedChange]):
    """Replaces text in a file atomically, after the policy and the pre-change checks."""

    name: ClassVar[str] = "edit"
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = EditArgs
    aliases: ClassVar[tuple[ArgumentAlias, ...]] = (
        *PATH_ALIASES,
        Alias("oldString", "old_string"),
        Alias("newString", "new_string"),
        Alias("replaceAll", "replace_all"),
    )

    def writes(self, args: EditArgs) -> tuple[str, ...]:
        """The file it changes."""
        return (args.path,)

    async def execute(self, args: EditArgs, ctx: ToolContext) -> AppliedChange:
        """Work out the edit, ask, check the file is still as read, write, record.

        File work runs in a worker thread so other calls and cancellation stay responsive.
        """
        path = ctx.workspace.resolve(args.path)
        if args.old_string == args.new_string:
            raise ToolError("old_string and new_string are the same; there is nothing to change")
        plan = await asyncio.to_thread(_plan, args, ctx.observations, path, ctx.workspace.roots)
        change = await asyncio.to_thread(plan.applied, path)
        await commit_change(ctx, path, plan.data, plan.before, "edit", change=change)
        return change

    def render(self, args: EditArgs, value: AppliedChange) -> list[ContentBlock]:
        """`Edited PATH: replaced N occurrence(s)`, or `Created PATH (N lines)`."""
        if value.created:
            noun = "line" if value.line_count == 1 else "lines"
            return [TextContent(text=f"Created {value.path} ({value.line_count} {noun})")]
        noun = "occurrence" if value.replacements == 1 else "occurrences"
        return [TextContent(text=f"Edited {value.path}: replaced {value.replacements} {noun}")]

    def presentation_meta(self, args: EditArgs, value: AppliedChange) -> JsonValue:
        """The applied hunks and where they start (see `change_diff`)."""
        return change_meta(value)

    def present_call(self, args: EditArgs, context: CardContext) -> ToolCallView:
        """A diff card of the strings to be swapped."""
        return DiffCallView(
            title=f"Edit {args.path}",
            diffs=(FileDiff(path=args.path, old_text=args.old_string, new_text=args.new_string),),
            locations=(Location(path=args.path),),
        )

    def present_result(
        self, args: EditArgs, result: ToolResult, context: CardContext
    ) -> DiffResultView | None:
        """The applied hunks with three lines of context, from the stored meta."""
        return diff_result_view(result, "Edit")

    def serial_key(self, args: EditArgs) -> str | None:
        """Edits to one path run one after another."""
        return args.path


@dataclass(frozen=True)
class _Plan:
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


def _plan(
    args: EditArgs, observations: FileObservations, path: Path, roots: Sequence[Path]
) -> _Plan:
    """Check the observation, read, match and encode; raises `ToolError` for any refusal."""
    current = read_to_change(path, observations, "edit", roots)
    if current is None:
        # An empty old_string on a missing file creates it, as UTF-8 with the text as given.
        if args.old_string:
            raise ToolError(f"File not found: {path}")
        return _Plan(None, _encode(NEW_FILE, args.new_string, path), "", args.new_string, 1)
    before, data = current
    if looks_binary(path, data[:SNIFF_BYTES]):
        raise ToolError(f"Cannot edit binary file: {path}")
    try:
        file = TextFile.decode(data)
    except UnicodeDecodeError as exc:
        raise ToolError(f"Cannot edit {path}: it is not valid {exc.encoding} text") from exc
    text, count = _edited_text(file, args, path)
    new_data = _encode(file, text, path)
    if new_data == data:
        raise ToolError(f"The edit would leave {path} unchanged")
    return _Plan(before, new_data, file.text, text, count)


def _encode(file: TextFile, text: str, path: Path) -> bytes:
    try:
        return file.encode(text)
    except UnicodeEncodeError as exc:
        raise ToolError(
            f"Cannot edit {path}: new_string cannot be encoded as {exc.encoding}"
        ) from exc


def _edited_text(file: TextFile, args: EditArgs, path: Path) -> tuple[str, int]:
    """The file's new text and the number of replacements made."""
    if args.old_string:
        done = replace_in_text(
            file.text, args.old_string, args.new_string, replace_all=args.replace_all, path=path
        )
        return done.text, done.count
    if file.text:
        raise ToolError(
            f"old_string is empty but {path} is not; an empty old_string only creates a new "
            "file or fills an empty one"
        )
    return args.new_string, 1
