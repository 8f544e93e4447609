"""The `notebook_edit` tool: replace, insert or delete one cell of a Jupyter notebook."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, assert_never

from pydantic import BaseModel, Field, JsonValue

from tether.content import ContentBlock, TextContent
from tether.errors import ToolError
from tether.tools.arguments import Alias, ArgumentAlias, ToolArguments
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.fs.change_checks import read_to_change
from tether.tools.fs.change_diff import AppliedChange, change_meta, diff_result_view
from tether.tools.fs.notebook import CellType, EditMode, edit_cells, parse_notebook
from tether.tools.observations import FileObservations
from tether.tools.result import ToolResult
from tether.views import DiffResultView, GenericCallView, Location, ToolCallView

if TYPE_CHECKING:
    from tether.tools.context import ToolContext
    from tether.tools.fs.edit_plan import EditPlan

__all__ = ["NotebookEditArgs", "NotebookEditTool"]

DESCRIPTION = """\
Change one cell of a Jupyter notebook (.ipynb) that was read earlier in this session: \
`replace` its source (a code cell's old outputs are cleared), `insert` a new cell after \
`cell_id` (at the start without one; `cell_type` needed), or `delete` it. Cell ids are the \
ones `read` shows (`cell-N`, counted from 0, for a notebook without ids)."""


class NotebookEditArgs(ToolArguments):
    """Arguments of `notebook_edit`."""

    path: str = Field(description="The notebook; relative paths start at the workspace.")
    cell_id: str | None = Field(
        default=None, description="The cell to change, or to insert after (as `read` shows it)."
    )
    new_source: str = Field(default="", description="The cell's new source (not for delete).")
    cell_type: CellType | None = Field(
        default=None, description="code or markdown (needed to insert; changes it on replace)."
    )
    edit_mode: EditMode = Field(default="replace", description="replace, insert or delete.")


class NotebookEditTool(Tool[NotebookEditArgs, AppliedChange]):
    """Edits a notebook's JSON in memory and writes it back atomically, after the checks."""

    name: ClassVar[str] = "notebook_edit"
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = NotebookEditArgs
    # Claude Code's NotebookEdit names the file so.
    aliases: ClassVar[tuple[ArgumentAlias, ...]] = (
        Alias("notebook_path", "path"),
        Alias("file_path", "path"),
    )

    def writes(self, args: NotebookEditArgs) -> tuple[str, ...]:
        """The notebook it changes."""
        return (args.path,)

    async def execute(self, args: NotebookEditArgs, ctx: ToolContext) -> AppliedChange:
        """Read the notebook as the session saw it, change the cell, ask, write, record."""
        # The writer and the event loop's module load with the first edit, not with the tool's
        # spec or a replayed card.
        import asyncio

        from tether.tools.fs.change_commit import commit_change

        path = ctx.workspace.resolve(args.path)
        if path.suffix.lower() != ".ipynb":
            raise ToolError(f"Not a notebook: {path} (notebook_edit changes .ipynb files)")
        plan = await asyncio.to_thread(_plan, args, ctx.observations, path, ctx.workspace.roots)
        change = await asyncio.to_thread(plan.applied, path)
        await commit_change(ctx, path, plan.data, plan.before, "edit", change=change)
        return change

    def render(self, args: NotebookEditArgs, value: AppliedChange) -> list[ContentBlock]:
        """What was done to which cell."""
        return [TextContent(text=f"{_did(args)} in {value.path}")]

    def presentation_meta(self, args: NotebookEditArgs, value: AppliedChange) -> JsonValue:
        """The applied hunks of the notebook's JSON (see `change_diff`)."""
        return change_meta(value)

    def present_call(self, args: NotebookEditArgs, context: CardContext) -> ToolCallView:
        """A generic `edit` card: what happens to which cell, the new source as its text."""
        return GenericCallView(
            title=f"Notebook {args.path}: {_did(args)}",
            kind="edit",
            content=args.new_source or None,
            locations=(Location(path=args.path),),
        )

    def present_result(
        self, args: NotebookEditArgs, result: ToolResult, context: CardContext
    ) -> DiffResultView | None:
        """The applied change, as a diff of the notebook."""
        return diff_result_view(result, "Edit")

    def serial_key(self, args: NotebookEditArgs) -> str | None:
        """Edits to one notebook run one after another."""
        return args.path


def _did(args: NotebookEditArgs) -> str:
    match args.edit_mode:
        case "replace":
            return f"replaced cell {args.cell_id}"
        case "insert":
            where = f"after cell {args.cell_id}" if args.cell_id else "at the start"
            return f"inserted a {args.cell_type or 'new'} cell {where}"
        case "delete":
            return f"deleted cell {args.cell_id}"
        case _:
            assert_never(args.edit_mode)


def _plan(
    args: NotebookEditArgs, observations: FileObservations, path: Path, roots: tuple[Path, ...]
) -> EditPlan:
    from tether.tools.fs.edit_plan import EditPlan

    current = read_to_change(path, observations, "edit", roots)
    if current is None:
        raise ToolError(f"File not found: {path}")
    before, data = current
    notebook = parse_notebook(data, path)
    new_data, _ = edit_cells(
        notebook, args.cell_id, args.new_source, args.cell_type, args.edit_mode
    )
    old_text = data.decode("utf-8-sig")
    return EditPlan(before, new_data, old_text, new_data.decode(), 1)
