"""The tool contract: one class per tool, five functions, arguments as a pydantic model."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, JsonValue

from tether.content import ContentBlock
from tether.tools.arguments import ArgumentAlias
from tether.tools.card_context import CardContext
from tether.tools.result import ToolResult
from tether.tools.schema import model_schema

if TYPE_CHECKING:
    from tether.tools.context import ToolContext

    # Only named in signatures: the views load with the first card.
    from tether.views import ToolCallView, ToolResultView

__all__ = ["Tool"]

A = TypeVar("A", bound=BaseModel)
V = TypeVar("V")


class Tool(ABC, Generic[A, V]):
    """A tool: `execute` does the work; `render` and the presenters are pure projections of it.

    `execute` returns the canonical value, which lives in memory only. `render` makes what the
    model sees, `presentation_meta` the JSON stored beside it for UIs, and the presenters derive
    cards from the arguments, the stored result and the call's `CardContext` (its workspace and
    the `binding` stored with it) alone, so live and replayed cards are identical. One instance
    presents the calls of every workspace: the presenters keep no state of their own.
    """

    name: ClassVar[str]
    description: ClassVar[str]
    args_model: ClassVar[type[BaseModel]]
    aliases: ClassVar[tuple[ArgumentAlias, ...]] = ()
    """Other agents' names for arguments, resolved before validation (see `tools.arguments`)."""
    only_in_mode: ClassVar[str | None] = None
    """The one permission mode in which the model is offered the tool (`exit_plan_mode`: `plan`);
    `None`: every mode. In another mode its stored calls still show their cards."""

    @abstractmethod
    async def execute(self, args: A, ctx: ToolContext) -> V:
        """Do the work; raise `ToolError` for failures the model can fix."""

    @abstractmethod
    def render(self, args: A, value: V) -> list[ContentBlock]:
        """The model-facing result."""

    def presentation_meta(self, args: A, value: V) -> JsonValue:
        """A plain-JSON projection of the value for UIs, or `None`."""
        return None

    @abstractmethod
    def present_call(self, args: A, context: CardContext) -> ToolCallView:
        """The card shown while the call is pending. Pure."""

    def present_result(
        self, args: A, result: ToolResult, context: CardContext
    ) -> ToolResultView | None:
        """The card for a finished call, or `None` for the generic card. Pure."""
        return None

    def failed(self, args: A, result: ToolResult) -> bool:
        """Whether people see the call as failed (its status); by default, an error result.

        Pure, from the stored result alone, so a replay shows the status shown live.
        """
        return result.is_error

    def binding(self, planning: bool = False) -> str | None:
        """What besides the arguments decides a new call's card (bash: how it is confined;
        `planning` when plan mode is on).

        Stored with the call and handed back in its `CardContext`, so that replay presents it
        as it was, whatever the settings of the process replaying it; `None` when nothing does.
        """
        return None

    def serial_key(self, args: A) -> str | None:
        """Calls with the same key run one after another (a path, for file tools)."""
        return None

    def writes(self, args: A) -> tuple[str, ...] | None:
        """The files a call may change, as its arguments name them: `()` for a tool that
        changes none, `None` when it may change any (a command, a server's tool).

        The session saves the workspace after a step whose calls may change files.
        """
        return None

    def unavailable(self) -> str | None:
        """Why the model is not offered this tool now (`web_search` without a backend), or
        `None` when it is. The session still presents the tool's stored calls with its cards."""
        return None

    def describe(self) -> str:
        """What the model is told the tool does: `description`, unless the instance knows more."""
        return self.description

    def parameters_schema(self) -> dict[str, Any]:
        """The JSON Schema of the arguments, as the model sees it."""
        return model_schema(self.args_model)
