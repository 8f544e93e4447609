"""The `multi_edit` tool: several replacements in one file, applied in order, all or nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, Field, JsonValue

from tether.content import ContentBlock, TextContent
from tether.tools.arguments import PATH_ALIASES, Alias, ArgumentAlias, ToolArguments
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.fs.change_diff import AppliedChange, change_meta, diff_result_view
from tether.tools.result import ToolResult
from tether.views import DiffCallView, DiffResultView, FileDiff, Location, ToolCallView

if TYPE_CHECKING:
    from tether.tools.context import ToolContext

__all__ = ["MAX_EDITS", "MultiEditArgs", "MultiEditTool", "OneEdit"]

MAX_EDITS = 100
"""Edits one call may make."""

DESCRIPTION = """\
Make several replacements in one file at once: each edit applies, in order, to the text the \
edit before it left, and if any edit fails none is made. The file must have been read \
earlier in this session and be unchanged since (or not exist, when the first edit has an \
empty `old_string` and creates it).
Each `old_string` must match exactly once in the text at that point, or set `replace_all`. \
Prefer it to several `edit` calls on the same file."""


class OneEdit(ToolArguments):
    """One replacement of `multi_edit`."""

    old_string: str = Field(description="The exact text to replace.")
    new_string: str = Field(description="The text to put in its place (must differ).")
    replace_all: bool = Field(
        default=False, description="Replace every occurrence instead of exactly one."
    )


class MultiEditArgs(ToolArguments):
    """Arguments of `multi_edit`."""

    path: str = Field(description="The file to edit; relative paths start at the workspace.")
    edits: list[OneEdit] = Field(
        min_length=1, max_length=MAX_EDITS, description="The replacements, applied in order."
    )


class MultiEditTool(Tool[MultiEditArgs, AppliedChange]):
    """Applies a list of replacements to one file atomically: the file ends with all or none."""

    name: ClassVar[str] = "multi_edit"
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = MultiEditArgs
    aliases: ClassVar[tuple[ArgumentAlias, ...]] = (*PATH_ALIASES, Alias("changes", "edits"))

    def writes(self, args: MultiEditArgs) -> tuple[str, ...]:
        """The file it changes."""
        return (args.path,)

    async def execute(self, args: MultiEditArgs, ctx: ToolContext) -> AppliedChange:
        """Apply every edit to the text in memory, ask, check the file is as read, write once."""
        # The planner, the writer and the event loop's module load with the first edit, not
        # with the tool's spec or a replayed card.
        import asyncio

        from tether.tools.fs.change_commit import commit_change
        from tether.tools.fs.edit_plan import EditStep, plan_edits

        path = ctx.workspace.resolve(args.path)
        steps = tuple(EditStep(e.old_string, e.new_string, e.replace_all) for e in args.edits)
        plan = await asyncio.to_thread(
            plan_edits, steps, ctx.observations, path, ctx.workspace.roots
        )
        change = await asyncio.to_thread(plan.applied, path)
        await commit_change(ctx, path, plan.data, plan.before, "edit", change=change)
        return change

    def render(self, args: MultiEditArgs, value: AppliedChange) -> list[ContentBlock]:
        """`Edited PATH: N edits, M replacements`, or `Created PATH (N lines)`."""
        if value.created:
            noun = "line" if value.line_count == 1 else "lines"
            return [TextContent(text=f"Created {value.path} ({value.line_count} {noun})")]
        edits = len(args.edits)
        return [
            TextContent(
                text=f"Edited {value.path}: {edits} edit{'' if edits == 1 else 's'}, "
                f"{value.replacements} replacement{'' if value.replacements == 1 else 's'}"
            )
        ]

    def presentation_meta(self, args: MultiEditArgs, value: AppliedChange) -> JsonValue:
        """The applied hunks and where they start (see `change_diff`)."""
        return change_meta(value)

    def present_call(self, args: MultiEditArgs, context: CardContext) -> ToolCallView:
        """A diff card with one pair of strings per edit."""
        return DiffCallView(
            title=f"Edit {args.path} ({len(args.edits)} edits)",
            diffs=tuple(
                FileDiff(path=args.path, old_text=e.old_string, new_text=e.new_string)
                for e in args.edits
            ),
            locations=(Location(path=args.path),),
        )

    def present_result(
        self, args: MultiEditArgs, result: ToolResult, context: CardContext
    ) -> DiffResultView | None:
        """The applied hunks with three lines of context, from the stored meta."""
        return diff_result_view(result, "Edit")

    def serial_key(self, args: MultiEditArgs) -> str | None:
        """Edits to one path run one after another."""
        return args.path
