"""The `exit_plan_mode` tool: the model hands its plan to the person, who approves it (and
picks the mode the work runs in) or sends it back with what to change."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import BaseModel, Field, JsonValue

from tether.content import ContentBlock, TextContent
from tether.tools.arguments import ToolArguments
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.planning import EXIT_PLAN_TOOL, KeepPlanning, PlanApproved, PlanVerdict
from tether.tools.result import ToolResult
from tether.views import GenericCallView, GenericResultView, ToolCallView

if TYPE_CHECKING:
    from tether.tools.context import ToolContext

__all__ = ["ExitPlanArgs", "ExitPlanTool", "PlanOutcome", "plan_outcome"]

DESCRIPTION = """\
Present your plan to the user and ask them to approve it, which ends plan mode.

Call it when you have researched enough to say exactly what you will change: the approach, \
the files and functions in order, and how you will check the work, in Markdown. The user \
approves it (the work then starts, in the mode they pick) or answers with what to change: \
then revise the plan and call this again. Do not use it to ask questions (ask them in \
your message)."""

Decision = Literal["accept-edits", "auto", "keep-planning"]


class ExitPlanArgs(ToolArguments):
    """Arguments of `exit_plan_mode`."""

    plan: str = Field(min_length=1, description="The plan, in Markdown.")


@dataclass(frozen=True)
class PlanOutcome:
    """A plan and what the person decided; `feedback` when they kept planning."""

    plan: str
    decision: Decision
    feedback: str = ""


def plan_outcome(plan: str, verdict: PlanVerdict) -> PlanOutcome:
    """The outcome a verdict on `plan` makes."""
    match verdict:
        case PlanApproved(mode=mode):
            return PlanOutcome(plan, mode)
        case KeepPlanning(feedback=feedback):
            return PlanOutcome(plan, "keep-planning", feedback)


_APPROVED = {
    "accept-edits": (
        "The user approved your plan. Plan mode is off; the session is in accept-edits mode: "
        "edits inside the workspace apply at once, commands still ask. Start the work now, "
        "following the plan."
    ),
    "auto": (
        "The user approved your plan. Plan mode is off; the session is in auto mode: edits "
        "and commands run without asking. Start the work now, following the plan."
    ),
}


class ExitPlanTool(Tool[ExitPlanArgs, PlanOutcome]):
    """Asks the person through the gate; an approval switches the session's mode."""

    name: ClassVar[str] = EXIT_PLAN_TOOL
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = ExitPlanArgs
    only_in_mode: ClassVar[str | None] = "plan"

    def writes(self, args: ExitPlanArgs) -> tuple[str, ...]:
        """Changes no file."""
        return ()

    async def execute(self, args: ExitPlanArgs, ctx: ToolContext) -> PlanOutcome:
        """The person's verdict; refused when plan mode is off or no one can answer."""
        return plan_outcome(args.plan, await ctx.gate.approve_plan(args.plan, ctx.tool_call_id))

    def render(self, args: ExitPlanArgs, value: PlanOutcome) -> list[ContentBlock]:
        """What the model does next: the work, in the mode the person picked, or more planning."""
        if value.decision != "keep-planning":
            return [TextContent(text=_APPROVED[value.decision])]
        said = (
            f" They say:\n{value.feedback}"
            if value.feedback
            else " They gave no reason: ask what to change."
        )
        return [
            TextContent(
                text="The user did not approve the plan: plan mode stays on. Keep planning, "
                f"then call exit_plan_mode with the revised plan.{said}"
            )
        ]

    def presentation_meta(self, args: ExitPlanArgs, value: PlanOutcome) -> JsonValue:
        """`{decision, feedback?}`: the card is drawn from it and the plan (the arguments)."""
        meta: dict[str, JsonValue] = {"decision": value.decision}
        if value.feedback:
            meta["feedback"] = value.feedback
        return meta

    def present_call(self, args: ExitPlanArgs, context: CardContext) -> ToolCallView:
        """The plan, as Markdown, waiting for the person."""
        return GenericCallView(title="Plan", kind="other", content=args.plan, markdown=True)

    def present_result(
        self, args: ExitPlanArgs, result: ToolResult, context: CardContext
    ) -> GenericResultView | None:
        """The plan with what the person decided (and said); `None` when the meta is off."""
        meta = result.meta
        if result.is_error or not isinstance(meta, dict):
            return None
        decision, feedback = meta.get("decision"), meta.get("feedback", "")
        if not isinstance(feedback, str):
            return None
        match decision:
            case "accept-edits":
                title = "Plan approved · accept edits"
            case "auto":
                title = "Plan approved · auto"
            case "keep-planning":
                title = "Plan sent back · keep planning"
            case _:
                return None
        said = f"\n\n---\n\n**Feedback:** {feedback}" if feedback else ""
        return GenericResultView(title=title, content=f"{args.plan}{said}", markdown=True)
