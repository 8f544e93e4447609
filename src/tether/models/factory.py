"""Models by name: `script:FILE`, `openai[:MODEL]`, `openai-responses[:MODEL]`,
`anthropic[:MODEL]`, `azure:DEPLOYMENT`, `bedrock[:MODEL]`, `vertex[:MODEL]`, `gemini[:MODEL]`.

Every maker imports its module (and so its SDK's types) only when that kind is asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tether.errors import ModelError
from tether.models.base import Model
from tether.models.credentials import stored_key

__all__ = ["MODEL_KINDS", "make_model"]

ModelMaker = Callable[[str, str | None, str | None], Model]
"""(the spec after `KIND:`, base URL, API key) -> the model."""


def _script(rest: str, base_url: str | None, api_key: str | None) -> Model:
    """`script:FILE` replays a JSON script (offline, deterministic)."""
    from tether.models.script import ScriptModel

    if not rest:
        raise ModelError("script model needs a file: --model script:FILE")
    return ScriptModel.from_file(Path(rest))


def _openai(rest: str, base_url: str | None, api_key: str | None) -> Model:
    """`openai[:MODEL]` is any OpenAI-compatible chat-completions endpoint (DeepSeek by default)."""
    from tether.models.openai_compat import OpenAICompatModel
    from tether.providers import OPENAI

    return OpenAICompatModel(
        OPENAI.resolve(base_url, api_key, stored=stored_key), model=rest or None
    )


def _anthropic(rest: str, base_url: str | None, api_key: str | None) -> Model:
    """`anthropic[:MODEL]` is Anthropic's messages API."""
    from tether.models.anthropic_model import AnthropicModel
    from tether.providers import ANTHROPIC

    return AnthropicModel(
        ANTHROPIC.resolve(base_url, api_key, stored=stored_key), model=rest or None
    )


def _responses(rest: str, base_url: str | None, api_key: str | None) -> Model:
    """`openai-responses[:MODEL]` is OpenAI's Responses API (OpenAI's endpoint by default)."""
    from tether.models.responses_model import ResponsesModel
    from tether.providers import OPENAI_RESPONSES

    return ResponsesModel(
        OPENAI_RESPONSES.resolve(base_url, api_key, stored=stored_key), model=rest or None
    )


def _azure(rest: str, base_url: str | None, api_key: str | None) -> Model:
    """`azure:DEPLOYMENT` is an Azure OpenAI deployment's chat completions."""
    from tether.models.cloud import AzureModel, azure_provider

    return AzureModel(azure_provider(base_url, api_key), model=rest or None)


def _bedrock(rest: str, base_url: str | None, api_key: str | None) -> Model:
    """`bedrock[:MODEL]` is Claude on Amazon Bedrock, on the endpoint that serves MODEL."""
    from tether.models.cloud import bedrock_model

    return bedrock_model(base_url, api_key, model=rest or None)


def _vertex(rest: str, base_url: str | None, api_key: str | None) -> Model:
    """`vertex[:MODEL]` is Claude on Google Cloud's Vertex AI."""
    from tether.models.cloud import VertexModel, vertex_provider

    return VertexModel(vertex_provider(base_url, api_key), model=rest or None)


def _gemini(rest: str, base_url: str | None, api_key: str | None) -> Model:
    """`gemini[:MODEL]` is Google's Gemini API through `google-genai`."""
    from tether.models.gemini_model import GeminiModel
    from tether.providers import GEMINI

    return GeminiModel(GEMINI.resolve(base_url, api_key, stored=stored_key), model=rest or None)


MODEL_KINDS: dict[str, tuple[str, ModelMaker]] = {
    "script": ("script:FILE", _script),
    "openai": ("openai[:MODEL]", _openai),
    "openai-responses": ("openai-responses[:MODEL]", _responses),
    "anthropic": ("anthropic[:MODEL]", _anthropic),
    "azure": ("azure:DEPLOYMENT", _azure),
    "bedrock": ("bedrock[:MODEL]", _bedrock),
    "vertex": ("vertex[:MODEL]", _vertex),
    "gemini": ("gemini[:MODEL]", _gemini),
}
"""Model kind -> (its usage, its maker); a new provider is one entry here."""


def make_model(spec: str, *, base_url: str | None = None, api_key: str | None = None) -> Model:
    """The model a `--model` value names; raises `ModelError` for an unknown kind."""
    kind, _, rest = spec.partition(":")
    entry = MODEL_KINDS.get(kind)
    if entry is None:
        usages = ", ".join(usage for usage, _ in MODEL_KINDS.values())
        known = usages.rsplit(", ", 1)
        raise ModelError(f"unknown model {spec!r}: use {' or '.join(known)}")
    return entry[1](rest, base_url, api_key)
