"""The `task` tool: hand a search or a side job to an agent that works in a fresh context.

The child is a session of its own (its own log, linked to this call), run by the session's
`Delegate`. What comes back to the model is the child's final message; what people see is
the task card, live while the child works (its current step, its calls so far) and final
once it ends (its summary, calls, tokens and how it ended).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, Field, JsonValue, field_validator

from tether.content import ContentBlock, TextContent
from tether.errors import ToolError
from tether.tools.arguments import Alias, ArgumentAlias, ToolArguments
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.delegate import AgentSummary, ChildOutcome, ChildProgress, ChildRequest
from tether.tools.result import ToolResult
from tether.tools.task.meta import task_meta, task_meta_from_meta
from tether.views import GenericCallView, TaskResultView, ToolCallView

if TYPE_CHECKING:
    from tether.tools.context import ToolContext

__all__ = ["DEFAULT_AGENT", "MAX_SUMMARY_CHARS", "TASK_TOOL", "TaskArgs", "TaskTool"]

TASK_TOOL = "task"
DEFAULT_AGENT = "general"
MAX_SUMMARY_CHARS = 50_000
"""The most of a child's final message the parent model gets (the start is kept)."""
_MAX_DESCRIPTION_CHARS = 120
CLAUDE_AGENTS = {"general-purpose": "general", "Explore": "explore", "Plan": "plan"}
"""Claude Code's built-in agents, as tether names the same ones."""

DESCRIPTION = """\
Hand a task to an agent that works on its own, in a fresh context, and get back its final \
report.

Use it for work that would fill your context with reading and searching when only the \
conclusion matters ("find where the retry logic lives and how it is tested"), and for \
independent side jobs. Do not use it for a single read or a search you can do in one call.

- Several `task` calls in one message run at the same time (up to 4 at once): launch \
independent tasks together.
- The agent starts from nothing: it sees the workspace and its instructions, not this \
conversation. Put everything it needs in `prompt`, and say exactly what to report back \
(file:line references, a summary, the change it made).
- Its final message comes back to you; the person sees the agent's work as one card, not \
its messages. Tell the person what matters in it.
- The agent works under the same permissions as you; a read-only agent cannot change files.
"""


class TaskArgs(ToolArguments):
    """Arguments of `task`."""

    description: str = Field(
        description="What the task is, in 3-7 words, shown to the person while it runs."
    )
    prompt: str = Field(description="The whole task for the agent, and what to report back.")
    agent: str | None = Field(
        default=None, description=f"Which agent runs it (default: {DEFAULT_AGENT})."
    )

    @field_validator("description", "prompt")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("agent")
    @classmethod
    def _tether_agent(cls, value: str | None) -> str | None:
        # A model trained on Claude Code asks for its agents by their names there.
        return CLAUDE_AGENTS.get(value, value) if value is not None else None

    @field_validator("description")
    @classmethod
    def _short(cls, value: str) -> str:
        if len(value) > _MAX_DESCRIPTION_CHARS:
            raise ValueError(f"must be at most {_MAX_DESCRIPTION_CHARS} characters")
        return value

    @property
    def agent_name(self) -> str:
        """The agent asked for, or the default one."""
        return self.agent or DEFAULT_AGENT


class TaskTool(Tool[TaskArgs, ChildOutcome]):
    """Runs one child session through the context's delegate; its card is the task card."""

    name: ClassVar[str] = TASK_TOOL
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = TaskArgs
    # Claude Code's name for the agent.
    aliases: ClassVar[tuple[ArgumentAlias, ...]] = (Alias("subagent_type", "agent"),)

    def __init__(self, agents: Sequence[AgentSummary] = ()) -> None:
        self.agents = tuple(agents)
        """The agents the model is told about (a session binds its own; none by default)."""

    def describe(self) -> str:
        """The description, then the agents a task may name, with what each is for."""
        if not self.agents:
            return DESCRIPTION
        listing = "\n".join(f"- {a.name}: {_listed(a.description)}" for a in self.agents)
        return f"{DESCRIPTION}\nAgents (`agent`):\n{listing}\n"

    async def execute(self, args: TaskArgs, ctx: ToolContext) -> ChildOutcome:
        """Run the child to its end, reporting what it does as a live task card."""
        if ctx.delegate is None:
            raise ToolError("task is not available here: agents cannot start more agents")
        from tether.tools.access import NamedAccess  # with a call run, not a replayed card

        # Only a deny or an ask rule (`task(NAME)`, Claude Code's `Task(NAME)`) stops it.
        await ctx.authorize(NamedAccess("task", args.agent_name, ctx.tool_call_id))
        request = ChildRequest(
            agent=args.agent_name,
            description=args.description,
            prompt=args.prompt,
            tool_call_id=ctx.tool_call_id,
        )

        def progress(step: ChildProgress) -> None:
            ctx.report(
                TaskResultView(
                    agent=step.agent,
                    description=args.description,
                    session_id=step.session_id,
                    summary="",
                    tool_calls=step.tool_calls,
                    stop_reason="running",
                    activity=step.activity,
                    thought=step.thought,
                )
            )

        outcome = await ctx.delegate.run(request, progress, ctx.cancelled)
        summary = _capped(outcome.summary)
        match outcome.stop_reason:
            case "error":
                said = f"\n\nIts last message:\n{summary}" if summary else ""
                raise ToolError(
                    f"The {outcome.agent} agent failed: {outcome.error or 'no reason given'}{said}",
                    meta=task_meta(outcome, summary),
                )
            case "cancelled":
                said = f"\n\nIts last message:\n{summary}" if summary else ""
                raise ToolError(
                    f"The {outcome.agent} agent was cancelled before it finished.{said}",
                    meta=task_meta(outcome, summary),
                )
            case _:
                return outcome

    def render(self, args: TaskArgs, value: ChildOutcome) -> list[ContentBlock]:
        """The child's final message, then how it ended: its stop reason, in words."""
        text = _capped(value.summary) or f"(The {value.agent} agent gave no final message.)"
        calls = f"{value.tool_calls} tool call{'' if value.tool_calls == 1 else 's'}"
        early = _EARLY.get(value.stop_reason)
        if early is None:
            ending = f"The {value.agent} agent finished after {calls}."
        else:
            ending = f"The {value.agent} agent stopped before finishing ({early}) after {calls}."
        return [TextContent(text=f"{text}\n\n({ending})")]

    def presentation_meta(self, args: TaskArgs, value: ChildOutcome) -> JsonValue:
        """`{agent, sessionId, summary, toolCalls, stopReason, usage, error?}`."""
        return task_meta(value, _capped(value.summary))

    def present_call(self, args: TaskArgs, context: CardContext) -> ToolCallView:
        """A generic card: `AGENT: DESCRIPTION`, the prompt as its text."""
        return GenericCallView(
            title=f"{args.agent_name}: {args.description}", kind="other", content=args.prompt
        )

    def present_result(
        self, args: TaskArgs, result: ToolResult, context: CardContext
    ) -> TaskResultView | None:
        """The task card from the stored meta (a failed child's too); `None` when unusable."""
        meta = task_meta_from_meta(result.meta)
        if meta is None:
            return None
        return TaskResultView(
            agent=meta.agent,
            description=args.description,
            session_id=meta.session_id,
            summary=meta.summary,
            tool_calls=meta.tool_calls,
            stop_reason=meta.stop_reason,
            # No count is no report (a model that says nothing of its usage), not zero.
            tokens=meta.usage.usage().total or None,
            error=meta.error,
        )


_EARLY = {
    "max_tokens": "its reply reached the model's output limit",
    "max_turn_requests": "it reached the step limit",
    "refusal": "the model refused",
}


def _capped(text: str) -> str:
    if len(text) <= MAX_SUMMARY_CHARS:
        return text
    cut = len(text) - MAX_SUMMARY_CHARS
    return f"{text[:MAX_SUMMARY_CHARS]}\n\n[… {cut} more characters of the report were cut]"


def _listed(text: str) -> str:
    """A description in the list: its lines kept (an agent's `<example>` blocks read as
    written), indented under its item, blank lines dropped."""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return "\n  ".join(line for line in lines if line)
