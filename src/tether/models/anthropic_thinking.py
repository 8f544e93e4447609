"""How a thinking level is asked of a Claude model, which depends on the model's generation.

Anthropic's documentation names three shapes:

- Claude 4.6 and later (and the named families without a version, as `claude-mythos-preview`)
  take *adaptive* thinking, `thinking: {type: "adaptive"}` with `output_config.effort`; the
  Claude 5 models refuse a token budget. Adaptive thinking thinks between tool calls by itself.
  Opus 4.7 and later return no thought text unless `display: "summarized"` is asked, which is
  asked so a person sees what the model thought.
- Claude 4 up to 4.5 take a token budget, `thinking: {type: "enabled", budget_tokens}`, and
  think between tool calls (interleaved thinking) only when the request carries the beta header
  `interleaved-thinking-2025-05-14`; it is sent when the request offers tools.
- Claude 3.7 Sonnet, and any other name (a server that speaks Anthropic's format for its own
  models), take the budget form without the header, which an older model would refuse.

The budget of each level is `ANTHROPIC_BUDGETS`; it is also the room added to `max_tokens`,
since thinking counts toward it in every shape.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

from tether.models.catalog import model_id
from tether.models.messages import ThinkingLevel
from tether.models.thinking import ANTHROPIC_BUDGETS

if TYPE_CHECKING:
    from anthropic.types import OutputConfigParam, ThinkingConfigParam

__all__ = ["INTERLEAVED_BETA", "ThinkingAsk", "anthropic_thinking", "claude_generation"]

INTERLEAVED_BETA = "interleaved-thinking-2025-05-14"
"""The beta header that lets Claude 4 (up to 4.5) think between tool calls."""

_EFFORTS: Mapping[ThinkingLevel, Literal["low", "medium", "high"]] = MappingProxyType(
    {"off": "low", "low": "low", "medium": "medium", "high": "high"}
)
"""`output_config.effort` per level (`off` asks for no thinking at all, so never for this)."""

_VERSION = re.compile(r"^\d{1,2}$")
"""A version number among a name's parts (an 8-digit date is not one)."""


@dataclass(frozen=True)
class ThinkingAsk:
    """The request fields that ask for one level: absent fields are `None` or empty."""

    thinking: ThinkingConfigParam | None
    output_config: OutputConfigParam | None
    betas: tuple[str, ...]
    room: int
    """Tokens added to `max_tokens` so the answer keeps its own room beside the thought."""
    keep: bool
    """Whether the model's own signed thinking goes back: while it is asked to think, and
    always to the adaptive generation, which may think unasked (Opus 5 does by default) and
    then wants its blocks back within a turn."""


def anthropic_thinking(model: str, level: ThinkingLevel, *, tools: bool) -> ThinkingAsk:
    """The fields that ask `model` (an id as the endpoint names it) to think at `level`."""
    budget = ANTHROPIC_BUDGETS[level]
    generation = claude_generation(model_id(model))
    adaptive = generation is not None and generation >= (4, 6)
    if not budget:
        return ThinkingAsk(None, None, (), 0, keep=adaptive)
    if adaptive:
        effort: OutputConfigParam = {"effort": _EFFORTS[level]}
        asked: ThinkingConfigParam = {"type": "adaptive", "display": "summarized"}
        return ThinkingAsk(asked, effort, (), budget, keep=True)
    betas = (INTERLEAVED_BETA,) if tools and generation is not None and generation >= (4, 0) else ()
    return ThinkingAsk({"type": "enabled", "budget_tokens": budget}, None, betas, budget, keep=True)


def claude_generation(model: str) -> tuple[int, int] | None:
    """A Claude model's (major, minor) version; a Claude name without one is taken as new,
    and a name that is not Claude's gives `None`."""
    name = model.split("@", 1)[0]
    if not name.startswith("claude-"):
        return None
    numbers = [int(part) for part in name.split("-")[1:] if _VERSION.match(part)]
    if not numbers:
        # The families Anthropic names without a number (`claude-mythos-preview`) are new.
        return (99, 0)
    return (numbers[0], numbers[1] if len(numbers) > 1 else 0)
