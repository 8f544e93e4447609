"""`/usage`: the tokens this session's requests cost, per model, as the providers reported them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tether.session.events import Event, SessionConfigEvent, UsageEvent

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
    return list(table.values())


def render_usage(rows: Sequence[ModelUsage]) -> RenderableType:
    """A table of the rows with a total, or a line saying nothing was reported yet."""
    if not rows:
        return Text("no usage reported yet in this session", style="dim")
    table = Table(box=None, pad_edge=False, header_style="bold", title_justify="left")
    table.add_column("model", overflow="fold")
    for name in ("requests", "input", "cached read", "cached write", "output"):
        table.add_column(name, justify="right", no_wrap=True)
    for row in rows:
        table.add_row(row.model, *_numbers(row))
    if len(rows) > 1:
        total = ModelUsage(
            "total",
            requests=sum(r.requests for r in rows),
            input_tokens=sum(r.input_tokens for r in rows),
            output_tokens=sum(r.output_tokens for r in rows),
            cached_read_tokens=sum(r.cached_read_tokens for r in rows),
            cached_write_tokens=sum(r.cached_write_tokens for r in rows),
        )
        table.add_row(Text("total", style="bold"), *_numbers(total), style="bold")
    return table


def _numbers(row: ModelUsage) -> list[str]:
    return [
        f"{row.requests:,}",
        f"{row.input_tokens:,}",
        f"{row.cached_read_tokens:,}",
        f"{row.cached_write_tokens:,}",
        f"{row.output_tokens:,}",
    ]
