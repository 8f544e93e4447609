"""What a session spent: its own model responses, and each agent its `task` calls started.

A child's tokens are in its own log, and its parent's `task` result stores the child's
total (its own children's included), so a session's report comes from its log alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tether.session.log.events import Event, ToolCallEvent, ToolResultEvent, UsageEvent
from tether.tools.usage import TokenUsage

__all__ = ["UsageReport", "own_usage", "sum_costs", "usage_report"]


@dataclass(frozen=True)
class UsageReport:
    """A session's tokens: its own, and by agent those of the children it started."""

    own: TokenUsage = field(default_factory=TokenUsage)
    agents: dict[str, TokenUsage] = field(default_factory=dict)
    """Per agent name, every child of that agent together (their own children included)."""

    @property
    def total(self) -> TokenUsage:
        """Everything the session caused to be spent."""
        total = self.own
        for used in self.agents.values():
            total = total + used
        return total


def sum_costs(costs: Sequence[float | None]) -> float | None:
    """What responses cost together: `None` when one is unknown, or when none reported."""
    if not costs or any(cost is None for cost in costs):
        return None
    total = 0.0
    for cost in costs:
        total = round(total + (cost or 0.0), 6)  # as `TokenUsage` adds, so both agree
    return total


def own_usage(events: Iterable[Event]) -> TokenUsage:
    """The tokens of a session's own model responses (summaries included); their cost when
    each was priced (none reported at all is no known cost either: a model may not report)."""
    reports = [event for event in events if isinstance(event, UsageEvent)]
    total = TokenUsage(cost_usd=0.0 if reports else None)
    for event in reports:
        total = total + TokenUsage(
            event.input_tokens,
            event.output_tokens,
            event.cached_read_tokens or 0,
            event.cached_write_tokens or 0,
            event.cost_usd,
        )
    return total


def usage_report(events: Iterable[Event]) -> UsageReport:
    """The session's own tokens and, by agent, what its children spent."""
    # The task tool's module loads here, not with `sum_costs` (a replay's only use).
    from tether.tools.task import TASK_TOOL, task_meta_from_meta

    events = list(events)
    tasks = {e.tool_call_id for e in events if isinstance(e, ToolCallEvent) and e.name == TASK_TOOL}
    agents: dict[str, TokenUsage] = {}
    for event in events:
        if not isinstance(event, ToolResultEvent) or event.tool_call_id not in tasks:
            continue
        meta = task_meta_from_meta(event.meta)
        if meta is not None:
            used = meta.usage.usage()
            before = agents.get(meta.agent)
            agents[meta.agent] = used if before is None else before + used
    return UsageReport(own=own_usage(events), agents=agents)
