"""`/usage` (and `/cost`): the tokens this session's requests cost, per model, as the providers
reported them, and their price where the catalog knows it; then what the agents its `task`
calls started spent, per agent."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tether.figures import dollars
from tether.session.log.events import Event, SessionConfigEvent, UsageEvent
from tether.tools.delegate import TokenUsage

__all__ = ["ModelUsage", "render_usage", "usage_by_model"]


@dataclass
class ModelUsage:
    """What one model's responses cost in this session."""

    model: str
    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_read_tokens: int = 0
    cached_write_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float | None = 0.0
    """`None` once a response's price is unknown."""


def usage_by_model(events: Sequence[Event], first_model: str) -> list[ModelUsage]:
    """Usage per model, in the order the models were first used.

    Responses are counted against the model the log says was chosen last (`session/config`),
    and those before any choice against `first_model`.
    """
    current = first_model
    table: dict[str, ModelUsage] = {}
    for event in events:
        match event:
            case SessionConfigEvent(config_id="model", value=value):
                current = value
            case UsageEvent():
                row = table.setdefault(current, ModelUsage(current))
                row.requests += 1
                row.input_tokens += event.input_tokens
                row.output_tokens += event.output_tokens
                row.cached_read_tokens += event.cached_read_tokens or 0
                row.cached_write_tokens += event.cached_write_tokens or 0
                row.reasoning_tokens += event.reasoning_tokens or 0
                cost = event.cost_usd
                row.cost_usd = None if row.cost_usd is None or cost is None else row.cost_usd + cost
    return list(table.values())


def render_usage(
    rows: Sequence[ModelUsage], agents: Mapping[str, TokenUsage] | None = None
) -> RenderableType:
    """A table of the rows, then a row per agent (its children together, their own children
    included), with a total; or a line saying nothing was reported yet."""
    agents = agents or {}
    if not rows and not agents:
        return Text("no usage reported yet in this session", style="dim")
    table = Table(box=None, pad_edge=False, header_style="bold", title_justify="left")
    table.add_column("model", overflow="fold")
    for name in ("requests", "input", "cached read", "cached write", "output", "cost"):
        table.add_column(name, justify="right", no_wrap=True)
    for row in rows:
        cells = _tokens(_spent(row))
        if row.reasoning_tokens:
            # Thinking is part of the output; said apart where the provider counted it.
            cells[3] += f" ({row.reasoning_tokens:,} thinking)"
        table.add_row(row.model, f"{row.requests:,}", *cells)
    for agent, used in agents.items():
        # The parent's log keeps what each child spent, not how many requests it made (the
        # child's own log has them).
        table.add_row(f"agent {agent}", "–", *_tokens(used))
    if len(rows) + len(agents) > 1:
        total = sum((_spent(row) for row in rows), TokenUsage(cost_usd=0.0))
        total = sum(agents.values(), total)
        requests = f"{sum(r.requests for r in rows):,}" if not agents else "–"
        table.add_row(Text("total", style="bold"), requests, *_tokens(total), style="bold")
    return table


def _spent(row: ModelUsage) -> TokenUsage:
    return TokenUsage(
        row.input_tokens,
        row.output_tokens,
        row.cached_read_tokens,
        row.cached_write_tokens,
        None if row.cost_usd is None else round(row.cost_usd, 6),
    )


def _tokens(used: TokenUsage) -> list[str]:
    return [
        f"{used.input_tokens:,}",
        f"{used.cached_read_tokens:,}",
        f"{used.cached_write_tokens:,}",
        f"{used.output_tokens:,}",
        dollars(used.cost_usd),
    ]
