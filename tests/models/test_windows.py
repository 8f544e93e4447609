"""Context windows by model name, and token counts as people read them."""

from __future__ import annotations

import pytest

from tether.figures import short_tokens
from tether.models.windows import DEFAULT_WINDOW, context_window


@pytest.mark.parametrize(
    ("name", "window"),
    [
        ("openai:deepseek-chat", 128_000),
        ("openai:deepseek-reasoner", 128_000),
        ("anthropic:claude-sonnet-5-5", 200_000),
        ("anthropic:claude-opus-5-5", 200_000),
        ("openai:gpt-5.5", 400_000),
        ("openai:openai/gpt-5.1-mini", 400_000),
        ("openai:qwen3:8b", DEFAULT_WINDOW),
        ("script:/tmp/gpt-5.json", DEFAULT_WINDOW),
        ("openai", DEFAULT_WINDOW),
    ],
)
def test_the_window_of_a_model(name: str, window: int) -> None:
    assert context_window(name) == window


@pytest.mark.parametrize(
    ("count", "text"),
    [
        (0, "0"),
        (950, "950"),
        (8000, "8k"),
        (9800, "9.8k"),
        (23_149, "23.1k"),
        (104_000, "104k"),
        (128_000, "128k"),
        (1_200_000, "1.2M"),
    ],
)
def test_short_token_counts(count: int, text: str) -> None:
    assert short_tokens(count) == text
