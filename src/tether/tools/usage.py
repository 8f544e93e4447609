"""Tokens a session spent: a leaf, so that summing a log's usage needs none of the `task`
tool's types (`tether.tools.delegate`, which offers the same name)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TokenUsage"]


@dataclass(frozen=True)
class TokenUsage:
    """Tokens spent, as the providers reported them (a child's: its own children's included)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cached_read_tokens: int = 0
    cached_write_tokens: int = 0
    cost_usd: float | None = None
    """What it cost in US dollars; `None` when unknown (a response's price is not known). A
    sum starts from `TokenUsage(cost_usd=0.0)`: nothing spent costs nothing."""

    @property
    def total(self) -> int:
        """Input and output tokens together (what the task card shows)."""
        return self.input_tokens + self.output_tokens

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cached_read_tokens + other.cached_read_tokens,
            self.cached_write_tokens + other.cached_write_tokens,
            # Unknown anywhere is unknown in the sum: never a partial price shown as the whole.
            None
            if self.cost_usd is None or other.cost_usd is None
            else round(self.cost_usd + other.cost_usd, 6),
        )
