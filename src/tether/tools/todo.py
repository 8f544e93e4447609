"""The `todo` tool: the model keeps its plan as a checklist, sent whole each time.

Clients show it as a plan (ACP `plan` updates, the web client's plan panel, a checklist in
the terminal). ACP has no `cancelled` status: such a task goes as `completed`, its text
marked ` (cancelled)` and `_meta.tether.status` saying so. The list lives in the log as the
result's `meta` (`{"todos": [...]}`), so the latest plan of a loaded session is the last
successful `todo` result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    TypeAdapter,
    ValidationError,
    field_validator,
)

from tether.content import ContentBlock, TextContent
from tether.tools.arguments import ToolArguments
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.result import ToolResult
from tether.views import GenericCallView, GenericResultView, ToolResultView
from tether.wire import DEFERRED

if TYPE_CHECKING:
    from tether.tools.context import ToolContext

__all__ = ["TODO_TOOL", "TodoArgs", "TodoItem", "TodoTool", "checklist", "todos_from_meta"]

TODO_TOOL = "todo"

TodoStatus = Literal["pending", "in_progress", "completed", "cancelled"]
TodoPriority = Literal["high", "medium", "low"]

DESCRIPTION = """\
Keep a checklist of the steps of the current task, shown to the person as your plan.

- Use it for work with three or more steps, or when the person gives several tasks; skip it \
for a single quick change.
- Send the whole list every time: it replaces the previous one.
- Mark a task `in_progress` before you start it (one at a time) and `completed` as soon as it \
is done; add tasks you discover, mark ones that no longer apply `cancelled`.
"""

_MARKS: dict[TodoStatus, str] = {
    "pending": "[ ]",
    "in_progress": "[~]",
    "completed": "[x]",
    "cancelled": "[-]",
}


# Claude Code's current item shape (`activeForm`) and its older one (`id`, `priority`) are
# both understood, so a model trained on either gets its list accepted as it wrote it.
class TodoItem(ToolArguments):
    """One task of the plan."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    content: str = Field(min_length=1, description="What the task is, in a short sentence.")
    status: TodoStatus
    active_form: str | None = Field(
        default=None,
        alias="activeForm",
        min_length=1,
        description='The task as it is being done ("Running the tests"), shown while in progress.',
    )
    priority: TodoPriority | None = None
    id: str | None = Field(default=None, description="An id of the task, if you keep one.")

    @field_validator("id", mode="before")
    @classmethod
    def _id_text(cls, value: object) -> object:
        # Older lists numbered their tasks: `1` and `"1"` are the same id.
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @property
    def shown(self) -> str:
        """The line people see: `activeForm` while the task is in progress, else `content`."""
        if self.status == "in_progress" and self.active_form:
            return self.active_form
        return self.content


class TodoArgs(ToolArguments):
    """Arguments of `todo`."""

    todos: list[TodoItem] = Field(description="The whole list, in order; it replaces the last.")


_TODOS: TypeAdapter[list[TodoItem]] = TypeAdapter(list[TodoItem], config=DEFERRED)


def checklist(todos: list[TodoItem]) -> str:
    """The plan as text lines: `[x] done`, `[~] doing (high)`, `[ ] to do`, `[-] dropped`
    (a task in progress by its `activeForm` when it has one)."""
    if not todos:
        return "(no tasks)"
    lines = []
    for item in todos:
        priority = f" ({item.priority})" if item.priority else ""
        lines.append(f"{_MARKS[item.status]} {item.shown}{priority}")
    return "\n".join(lines)


def todos_from_meta(meta: JsonValue) -> list[TodoItem] | None:
    """The plan a stored `todo` result holds, or `None` when `meta` is not one."""
    if not isinstance(meta, dict) or not isinstance(meta.get("todos"), list):
        return None
    try:
        return _TODOS.validate_python(meta["todos"])
    except ValidationError:
        return None


class TodoTool(Tool[TodoArgs, list[TodoItem]]):
    """Replaces the session's plan with the list it is given."""

    name: ClassVar[str] = TODO_TOOL
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = TodoArgs

    def writes(self, args: TodoArgs) -> tuple[str, ...]:
        """Changes no file."""
        return ()

    async def execute(self, args: TodoArgs, ctx: ToolContext) -> list[TodoItem]:
        """Nothing to touch: the list is the result."""
        return list(args.todos)

    def render(self, args: TodoArgs, value: list[TodoItem]) -> list[ContentBlock]:
        """The list back, with counts, so the model sees what it now holds."""
        done = sum(item.status == "completed" for item in value)
        doing = sum(item.status == "in_progress" for item in value)
        dropped = sum(item.status == "cancelled" for item in value)
        head = (
            f"Plan updated: {len(value)} tasks, {done} completed, {doing} in progress, "
            f"{len(value) - done - doing - dropped} pending"
            + (f", {dropped} cancelled." if dropped else ".")
        )
        return [TextContent(text=f"{head}\n{checklist(value)}")]

    def presentation_meta(self, args: TodoArgs, value: list[TodoItem]) -> JsonValue:
        """`{todos: [{content, status, activeForm?, priority?, id?}]}`."""
        return {"todos": [item.model_dump(exclude_none=True, by_alias=True) for item in value]}

    def present_call(self, args: TodoArgs, context: CardContext) -> GenericCallView:
        """A generic card: the plan itself is shown when the call finishes."""
        return GenericCallView(title="Update the plan", kind="other")

    def present_result(
        self, args: TodoArgs, result: ToolResult, context: CardContext
    ) -> ToolResultView | None:
        """The checklist, from the stored meta."""
        todos = todos_from_meta(result.meta)
        if result.is_error or todos is None:
            return None
        return GenericResultView(title="Plan", content=checklist(todos))
