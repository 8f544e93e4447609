"""How many tokens each model's context window holds, for the defaults tether knows."""

from __future__ import annotations

__all__ = ["DEFAULT_WINDOW", "context_window"]

DEFAULT_WINDOW = 128_000
"""The window assumed for a model not in the table."""

_WINDOWS: tuple[tuple[str, int], ...] = (
    # Longest prefix first within a family, so `gpt-5.1-mini` is not taken for another.
    ("deepseek-chat", 128_000),
    ("deepseek-reasoner", 128_000),
    ("claude-sonnet", 200_000),
    ("claude-opus", 200_000),
    ("claude-haiku", 200_000),
    ("gpt-5", 400_000),
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
)


def context_window(model_name: str) -> int:
    """The window of a model by its name (`openai:deepseek-chat`, `anthropic:claude-opus-4-5`)."""
    kind, _, model = model_name.partition(":")
    if kind == "script" or not model:
        return DEFAULT_WINDOW
    model = model.rsplit("/", 1)[-1].lower()  # OpenRouter names carry a vendor: `openai/gpt-5`
    for prefix, window in _WINDOWS:
        if model.startswith(prefix):
            return window
    return DEFAULT_WINDOW
