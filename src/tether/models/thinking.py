"""Thinking: how hard a prompt asks the model to think, and which reasoning goes back to it.

A level is asked for by the setting (`thinking`, `--thinking`, `/thinking`) and raised for
one prompt by Claude Code's words in it: `think` (low), `think hard` / `think harder` /
`megathink` (medium), `ultrathink` / `think really hard` / `think super hard` (high).
Each wire format turns the level into its own request field (Anthropic's thinking budget,
OpenAI's `reasoning_effort`).

What the model thought comes back to it only from the same model (a signature means
nothing to another), and only where its wire format wants it back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from tether.models.messages import (
    THINKING_LEVELS,
    AssistantMessage,
    Message,
    ThinkingLevel,
)

__all__ = [
    "ANTHROPIC_BUDGETS",
    "parse_level",
    "prompt_level",
    "raised",
    "same_model_thinking",
]

ANTHROPIC_BUDGETS: Mapping[ThinkingLevel, int] = MappingProxyType(
    {"off": 0, "low": 4_000, "medium": 10_000, "high": 31_999}
)
"""Thinking tokens per level, as Claude Code gives `think`, `think hard` and `ultrathink`."""

_WORDS: tuple[tuple[ThinkingLevel, re.Pattern[str]], ...] = (
    (
        "high",
        re.compile(
            r"\bultrathink\b|\bthink (?:really|super|very) hard\b|\bthink harder than ever\b",
            re.IGNORECASE,
        ),
    ),
    ("medium", re.compile(r"\bmegathink\b|\bthink (?:hard|harder|deeply|a lot)\b", re.IGNORECASE)),
    ("low", re.compile(r"\bthink\b", re.IGNORECASE)),
)
"""Claude Code's prompt words, strongest first (the first that matches decides)."""


def parse_level(value: str) -> ThinkingLevel:
    """A level from its name; raises `ValueError` naming the levels for anything else."""
    lowered = value.strip().lower()
    for level in THINKING_LEVELS:
        if level == lowered:
            return level
    raise ValueError(f"unknown thinking level {value!r}: use {', '.join(THINKING_LEVELS)}")


def prompt_level(text: str) -> ThinkingLevel:
    """The level a prompt's own words ask for (`off` when they ask for none)."""
    for level, words in _WORDS:
        if words.search(text):
            return level
    return "off"


def raised(level: ThinkingLevel, text: str) -> ThinkingLevel:
    """`level`, raised to what the prompt's words ask for when they ask for more."""
    asked = prompt_level(text)
    return max(level, asked, key=THINKING_LEVELS.index)


def same_model_thinking(
    messages: Sequence[Message], model: str, *, keep: bool = True
) -> list[Message]:
    """The history with only `model`'s own reasoning on its replies (none when not `keep`)."""
    out: list[Message] = []
    for message in messages:
        if isinstance(message, AssistantMessage) and message.thinking:
            own = tuple(part for part in message.thinking if keep and part.source == model)
            out.append(replace(message, thinking=own))
        else:
            out.append(message)
    return out
