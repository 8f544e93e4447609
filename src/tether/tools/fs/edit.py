"""The `edit` tool: replace an exact string in a file the session has read."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, Field, JsonValue

from tether.content import ContentBlock, TextContent
from tether.errors import ToolError
from tether.tools.arguments import PATH_ALIASES, Alias, ArgumentAlias, ToolArguments
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.fs.change_diff import AppliedChange, change_meta, diff_result_view
from tether.tools.result import ToolResult
from tether.views import DiffCallView, DiffResultView, FileDiff, Location, ToolCallView
from tether.views.trusted import trusted

if TYPE_CHECKING:
    from tether.tools.context import ToolContext

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
        # The planner and the writer load with the first edit, not with the tool's spec.
        from tether.tools.fs.change_commit import commit_change
        from tether.tools.fs.edit_plan import EditStep, plan_edits

        path = ctx.workspace.resolve(args.path)
        if args.old_string == args.new_string:
            raise ToolError("old_string and new_string are the same; there is nothing to change")
        step = EditStep(args.old_string, args.new_string, args.replace_all)
        import asyncio  # loaded with a call run, not with the card a replay shows

        plan = await asyncio.to_thread(
            plan_edits, (step,), ctx.observations, path, ctx.workspace.roots
        )
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
        # The arguments were validated: made without checking them again.
        diff = trusted(FileDiff)(path=args.path, old_text=args.old_string, new_text=args.new_string)
        return trusted(DiffCallView)(
            title=f"Edit {args.path}", diffs=(diff,), locations=(trusted(Location)(path=args.path),)
        )

    def present_result(
        self, args: EditArgs, result: ToolResult, context: CardContext
    ) -> DiffResultView | None:
        """The applied hunks with three lines of context, from the stored meta."""
        return diff_result_view(result, "Edit")

    def serial_key(self, args: EditArgs) -> str | None:
        """Edits to one path run one after another."""
        return args.path
