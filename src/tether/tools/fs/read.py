"""The `read` tool: a numbered window of a text file, or an image."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, Field, JsonValue, ValidationError

from tether.content import ContentBlock, ImageContent, TextContent
from tether.tools.arguments import PATH_ALIASES, ArgumentAlias, ToolArguments
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.fs.read_render import (
    envelope_content,
    footer,
    lang_from_path,
    read_meta_from_meta,
    render_envelope,
)
from tether.tools.result import ToolResult
from tether.views import (
    GenericCallView,
    Location,
    ReadFileLine,
    ReadLines,
    ReadResultView,
    ToolCallView,
)
from tether.views.notebook import dump_notebook, load_notebook
from tether.views.trusted import trusted

if TYPE_CHECKING:
    from tether.tools.context import ToolContext
    from tether.tools.fs.read_file import ReadValue

__all__ = ["ReadArgs", "ReadTool"]

_DESCRIPTION = """\
Read a file from the workspace. Relative paths resolve against the workspace root.

Text files come back as numbered lines (`N: text`) inside a <content> block, ending with a \
footer that gives the file's total line count or the offset to continue from. By default up \
to 2000 lines are returned from the start of the file; use `offset` (1-based line number) and \
`limit` to read another window of a long file. Lines longer than 2000 characters are cut, and \
a window stops early once it reaches 50 KB of text. Images (png, jpeg, gif, webp up to 5 MB) \
come back as an image. Jupyter notebooks (.ipynb) come back as their cells, each with its id, \
then its outputs (images as images); change them with `notebook_edit`. Binary files and \
directories are refused.

Read a file before editing or overwriting it. Prefer reading several likely files at once \
over guessing at their contents."""


class ReadArgs(ToolArguments):
    """Arguments of `read`."""

    path: str = Field(description="The file to read: absolute, or relative to the workspace.")
    offset: int = Field(
        default=1, ge=1, description="The 1-based line number to start reading from."
    )
    limit: int = Field(default=2000, ge=1, description="The maximum number of lines to read.")


class ReadTool(Tool[ReadArgs, "ReadValue"]):
    """Reads a window of a text file (numbered, capped, with an exact line count) or an image."""

    name: ClassVar[str] = "read"
    description: ClassVar[str] = _DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = ReadArgs
    aliases: ClassVar[tuple[ArgumentAlias, ...]] = PATH_ALIASES

    def writes(self, args: ReadArgs) -> tuple[str, ...]:
        """Changes no file."""
        return ()

    async def execute(self, args: ReadArgs, ctx: ToolContext) -> ReadValue:
        """Authorize, read in a worker thread, record the version seen and that it was shown."""
        # The reader and the access it asks for load with the first read, not with the tool's
        # spec or a replayed card.
        from tether.tools.access import FileAccess
        from tether.tools.fs.read_file import load

        resolved = ctx.workspace.resolve(args.path)
        await ctx.authorize(
            FileAccess(
                action="read",
                title=f"Read {resolved}",
                path=resolved,
                inside=ctx.workspace.contains(resolved),
                tool_call_id=ctx.tool_call_id,
                tool="read",
            )
        )
        import asyncio  # loaded with a call run, not with the card a replay shows

        value = await asyncio.to_thread(
            load, resolved, args.offset, args.limit, ctx.read_byte_cap, ctx.workspace.roots
        )
        ctx.observations.record(value.version)
        ctx.shown.append(resolved)
        return value

    def render(self, args: ReadArgs, value: ReadValue) -> list[ContentBlock]:
        """The read envelope, or one image block."""
        from tether.tools.fs.read_file import ReadImage, ReadNotebook

        if isinstance(value, ReadImage):
            return [ImageContent(data=value.data, mime_type=value.mime_type)]
        if isinstance(value, ReadNotebook):
            images = [ImageContent(data=i.data, mime_type=i.mime_type) for i in value.images]
            return [TextContent(text=value.text), *images]
        window = value.window
        tail = footer(
            value.offset, len(window.lines), window.total_lines, window.capped, value.byte_cap
        )
        return [TextContent(text=render_envelope(str(value.path), window.lines, tail))]

    def presentation_meta(self, args: ReadArgs, value: ReadValue) -> JsonValue:
        """`{path, offset, lines, totalLines, lang?, byteCap?}` for a text window, `{path,
        notebook}` for a notebook's cells; `None` for an image. `byteCap` is there when that cap
        cut the window short."""
        from tether.tools.fs.read_file import ReadNotebook, ReadText

        if isinstance(value, ReadNotebook):
            return {"path": str(value.path), "notebook": dump_notebook(value.view)}
        if not isinstance(value, ReadText):
            return None
        path = str(value.path)
        meta: dict[str, JsonValue] = {
            "path": path,
            "offset": value.offset,
            "lines": [{"number": line.number, "text": line.text} for line in value.window.lines],
            "totalLines": value.window.total_lines,
        }
        lang = lang_from_path(path)
        if lang is not None:
            meta["lang"] = lang
        if value.window.capped:
            meta["byteCap"] = value.byte_cap
        return meta

    def present_call(self, args: ReadArgs, context: CardContext) -> ToolCallView:
        """A generic `read` card titled with the path and the window the call asked for."""
        # Made as checked already: every value has its field's type (a replay makes thousands).
        # The arguments given, as `model_dump(exclude_unset=True)` makes them: its serializer
        # called without the fifteen keywords `model_dump` passes on (half its cost).
        given = args.__pydantic_serializer__.to_python(args, exclude_unset=True)
        return trusted(GenericCallView)(
            title=f"Read {args.path}{_window_label(args)}",
            kind="read",
            raw_input=given,
            locations=(trusted(Location)(path=args.path, line=args.offset),),
        )

    def present_result(
        self, args: ReadArgs, result: ToolResult, context: CardContext
    ) -> ReadResultView | None:
        """The read card, or `None` (the generic card) for anything but a well-formed window
        or notebook."""
        if result.is_error:
            return None
        if isinstance(result.meta, dict) and "notebook" in result.meta:
            return _notebook_card(args, result)
        if len(result.content) != 1:
            return None
        block = result.content[0]
        if not isinstance(block, TextContent):
            return None
        content = envelope_content(block.text)
        meta = read_meta_from_meta(result.meta)
        if content is None or meta is None:
            return None
        # `read_meta_from_meta` checked each value's type (a replay makes thousands).
        return trusted(ReadResultView)(
            title=f"Read {args.path}",
            path=meta.path,
            offset=meta.offset,
            lines=meta.lines,
            total_lines=meta.total_lines,
            lang=meta.lang,
            content=content,
            byte_cap=meta.byte_cap,
        )

    def serial_key(self, args: ReadArgs) -> str | None:
        """Reads of one path run in order with writes and edits of it."""
        return args.path


def _notebook_card(args: ReadArgs, result: ToolResult) -> ReadResultView | None:
    """The notebook view of the read card: the cells from the meta, the model's text as the
    numbered lines; `None` when either is not what a notebook's read stores."""
    meta = result.meta
    first = result.content[0] if result.content else None
    if not isinstance(meta, dict) or not isinstance(first, TextContent):
        return None
    path = meta.get("path")
    if not isinstance(path, str) or not all(
        isinstance(block, ImageContent) for block in result.content[1:]
    ):
        return None
    try:
        notebook = load_notebook(meta.get("notebook"))
    except ValidationError:
        return None
    texts = first.text.split("\n")
    return ReadResultView(
        title=f"Read {args.path}",
        path=path,
        offset=1,
        lines=ReadLines.of(ReadFileLine(number=n, text=t) for n, t in enumerate(texts, 1)),
        total_lines=len(texts),
        content=first.text,
        notebook=notebook,
    )


def _window_label(args: ReadArgs) -> str:
    given = args.model_fields_set
    if "limit" in given:
        return f" (lines {args.offset}-{args.offset + args.limit - 1})"
    if "offset" in given:
        return f" (from line {args.offset})"
    return ""
