"""Models by name: `script:FILE`, `openai[:MODEL]`, `anthropic[:MODEL]`."""

from __future__ import annotations

from pathlib import Path

from tether.models.base import Model, ModelError

__all__ = ["make_model"]


def make_model(spec: str, *, base_url: str | None = None, api_key: str | None = None) -> Model:
    """The model a `--model` value names; raises `ModelError` for an unknown kind.

    - `script:FILE` replays a JSON script (offline, deterministic).
    - `openai[:MODEL]` is any OpenAI-compatible chat-completions endpoint (DeepSeek by default).
    - `anthropic[:MODEL]` is Anthropic's messages API.
    """
    kind, _, rest = spec.partition(":")
    if kind == "script":
        from tether.models.script import ScriptModel

        if not rest:
            raise ModelError("script model needs a file: --model script:FILE")
        return ScriptModel.from_file(Path(rest))
    if kind == "openai":
        from tether.models.openai_compat import OpenAICompatModel

        return OpenAICompatModel(model=rest or None, base_url=base_url, api_key=api_key)
    if kind == "anthropic":
        from tether.models.anthropic_model import AnthropicModel

        return AnthropicModel(model=rest or None, base_url=base_url, api_key=api_key)
    raise ModelError(
        f"unknown model {spec!r}: use script:FILE, openai[:MODEL] or anthropic[:MODEL]"
    )
