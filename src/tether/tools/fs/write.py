"""The `write` tool: create a file, or replace one the session has read."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, Field, JsonValue

from tether.content import ContentBlock, TextContent
from tether.errors import ToolError
from tether.tools.arguments import PATH_ALIASES, ArgumentAlias, ToolArguments
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.fs.change_checks import read_to_change
from tether.tools.fs.change_diff import AppliedChange, change_meta, diff_result_view
from tether.tools.fs.encoding import SNIFF_BYTES, looks_binary
from tether.tools.fs.textfile import NEW_FILE, TextFile, count_lines, display_text
from tether.tools.observations import FileObservations, FileVersion
from tether.tools.result import ToolResult
from tether.views import DiffCallView, DiffResultView, FileDiff, Location, ToolCallView

if TYPE_CHECKING:
    from tether.tools.context import ToolContext

__all__ = ["WriteArgs", "WriteTool"]

DESCRIPTION = """\
Write a file: create it (parent directories too) or replace all of its content.
Replacing an existing file needs a read of it earlier in this session, and fails if the file \
changed since. An existing file keeps its encoding, byte order mark and CRLF line endings. \
Prefer `edit` for changing part of a file."""


class WriteArgs(ToolArguments):
    """Arguments of `write`."""

    path: str = Field(description="The file to write; relative paths start at the workspace.")
    content: str = Field(description="The file's complete new content.")


class WriteTool(Tool[WriteArgs, AppliedChange]):
    """Creates or overwrites a file atomically, after the policy and the pre-change checks."""

    name: ClassVar[str] = "write"
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = WriteArgs
    aliases: ClassVar[tuple[ArgumentAlias, ...]] = PATH_ALIASES

    def writes(self, args: WriteArgs) -> tuple[str, ...]:
        """The file it changes."""
        return (args.path,)

    async def execute(self, args: WriteArgs, ctx: ToolContext) -> AppliedChange:
        """Work out the bytes, ask, check the file is still as read, write, record.

        File work runs in a worker thread so other calls and cancellation stay responsive.
        """
        # The writer loads with the first write, not with the tool's spec.
        from tether.tools.fs.change_commit import commit_change

        path = ctx.workspace.resolve(args.path)
        import asyncio  # loaded with a call run, not with the card a replay shows

        before, data, change = await asyncio.to_thread(
            _plan, args, ctx.observations, path, ctx.workspace.roots
        )
        await commit_change(ctx, path, data, before, "write", change=change)
        return change

    def render(self, args: WriteArgs, value: AppliedChange) -> list[ContentBlock]:
        """`Wrote N lines to PATH`, saying whether the file is new."""
        noun = "line" if value.line_count == 1 else "lines"
        text = f"Wrote {value.line_count} {noun} to {value.path}"
        return [TextContent(text=text + (" (new file)" if value.created else ""))]

    def presentation_meta(self, args: WriteArgs, value: AppliedChange) -> JsonValue:
        """The whole-file diff (see `change_diff`)."""
        return change_meta(value)

    def present_call(self, args: WriteArgs, context: CardContext) -> ToolCallView:
        """A diff card of the content to be written."""
        return DiffCallView(
            title=f"Write {args.path}",
            diffs=(FileDiff(path=args.path, old_text=None, new_text=args.content),),
            locations=(Location(path=args.path, line=1),),
        )

    def present_result(
        self, args: WriteArgs, result: ToolResult, context: CardContext
    ) -> DiffResultView | None:
        """The applied diff, old content to new (or `null` to new), from the stored meta."""
        return diff_result_view(result, "Write")

    def serial_key(self, args: WriteArgs) -> str | None:
        """Writes to one path run one after another."""
        return args.path


def _plan(
    args: WriteArgs, observations: FileObservations, path: Path, roots: Sequence[Path]
) -> tuple[FileVersion | None, bytes, AppliedChange]:
    """The version replaced, the bytes to write and the change as shown."""
    current = read_to_change(path, observations, "write", roots)
    before = None if current is None else current[0]
    old = None if current is None else _existing_text(current[1], path)
    target = old if old is not None else NEW_FILE
    content = args.content
    # A CRLF file stays CRLF when the new content comes with bare LFs, as models write.
    if target.line_endings == "crlf" and "\r\n" not in content:
        content = content.replace("\n", "\r\n")
    try:
        data = target.encode(content)
    except UnicodeEncodeError as exc:
        raise ToolError(
            f"Cannot write {path}: the content cannot be encoded as {target.encoding.codec}"
        ) from exc
    diff = FileDiff(
        path=str(path),
        old_text=None if old is None else display_text(old.text),
        new_text=display_text(content),
    )
    change = AppliedChange(
        path=path,
        diffs=(diff,),
        lines=(1,),
        created=before is None,
        line_count=count_lines(content),
    )
    return before, data, change


def _existing_text(data: bytes, path: Path) -> TextFile | None:
    """The replaced file as text, or `None` when it is binary or undecodable (shown as new)."""
    if looks_binary(path, data[:SNIFF_BYTES]):
        return None
    try:
        return TextFile.decode(data)
    except UnicodeDecodeError:
        return None
