"""How many tokens each model's context window holds: the catalog's, else its family's."""

from __future__ import annotations

from collections.abc import Mapping

from tether.models.catalog import ModelInfo, model_id, model_info

__all__ = ["DEFAULT_WINDOW", "context_window"]

DEFAULT_WINDOW = 128_000
"""The window assumed for a model neither the catalog nor a family knows."""

_FAMILIES: tuple[tuple[str, int], ...] = (
    # A window is the same across a family's versions (a price is not: see `catalog`), so a
    # model the catalog does not name yet gets its family's.
    ("deepseek-chat", 128_000),
    ("deepseek-reasoner", 128_000),
    ("claude-sonnet", 200_000),
    ("claude-opus", 200_000),
    ("claude-haiku", 200_000),
    ("gpt-5", 400_000),
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
)


def context_window(model_name: str, overrides: Mapping[str, ModelInfo] | None = None) -> int:
    """The window of a model by its name (`openai:deepseek-chat`, `anthropic:claude-opus-4-5`)."""
    kind, _, model = model_name.partition(":")
    if kind == "script" or not model:
        return DEFAULT_WINDOW
    info = model_info(model_name, overrides)
    if info is not None and info.context_window is not None:
        return info.context_window
    bare = model_id(model_name)
    for prefix, window in _FAMILIES:
        if bare.startswith(prefix):
            return window
    return DEFAULT_WINDOW
