"""The models a session may switch to: the current provider's known models plus the current one.

Values are `--model` specs (`openai:deepseek-reasoner`), so `make_model` builds any of them
with the endpoint and key the session started with: a switch never changes provider.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from tether.models.base import Model

__all__ = ["KNOWN_MODELS", "known_models"]

KNOWN_MODELS: dict[str, tuple[str, ...]] = {
    "api.deepseek.com": ("openai:deepseek-chat", "openai:deepseek-reasoner"),
    "api.openai.com": ("openai:gpt-5.5", "openai:gpt-5.5-mini"),
    "api.anthropic.com": ("anthropic:claude-sonnet-5-5", "anthropic:claude-opus-5-5"),
}
"""Well-known models by the endpoint's host; other endpoints offer only the current model."""

_SCRIPTS_SHOWN = 50


def known_models(model: Model) -> tuple[str, ...]:
    """Specs of the models `model`'s provider offers, the current one first."""
    kind, _, rest = model.name.partition(":")
    if kind == "script" and rest:
        # Offline, a provider's models are the scripts beside the current one.
        here = Path(rest)
        try:
            siblings = sorted(p for p in here.parent.glob("*.json") if p.name != here.name)
        except OSError:
            siblings = []
        others = tuple(f"script:{here.parent / p.name}" for p in siblings[:_SCRIPTS_SHOWN])
    else:
        host = urlsplit(str(getattr(model, "base_url", ""))).hostname or ""
        others = KNOWN_MODELS.get(host, ())
    return (model.name, *(spec for spec in others if spec != model.name))
