"""Why a model's reply ended: a leaf, so that the session log's events name it without loading
the conversation's message types (`tether.models.messages`, which offers the same name)."""

from __future__ import annotations

from typing import Literal

__all__ = ["FinishReason"]

FinishReason = Literal["end_turn", "tool_use", "max_tokens", "refusal"]
