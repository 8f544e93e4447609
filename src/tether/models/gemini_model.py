"""Gemini through Google's official `google-genai` SDK (`gemini:MODEL`).

The key is `GEMINI_API_KEY` (else `GOOGLE_API_KEY`), the endpoint Google's Gemini API (or
`GOOGLE_GEMINI_BASE_URL`, `--base-url`). The SDK's automatic function calling is off: tether
runs the calls. A thinking level asks for a thinking budget with its thoughts included.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from tether.models.base import ModelRequest
from tether.models.gemini_convert import GeminiAssembler, to_gemini_contents, to_gemini_tools
from tether.models.messages import ThinkingLevel
from tether.models.retry import Failure
from tether.models.streaming import StreamingModel
from tether.models.thinking import same_model_thinking

if TYPE_CHECKING:
    from google.genai import Client
    from google.genai.types import GenerateContentResponse

__all__ = ["DEFAULT_MODEL", "GEMINI_BUDGETS", "GeminiModel"]

DEFAULT_MODEL = "gemini-2.5-pro"
GEMINI_BUDGETS: Mapping[ThinkingLevel, int] = MappingProxyType(
    {"off": 0, "low": 4_000, "medium": 10_000, "high": 24_576}
)
"""Thinking tokens per level (24,576 is the most every Gemini 2.5 model takes)."""


class _Connection:
    """The SDK's client, closed the way the shared loop closes every client."""

    def __init__(self, client: Client) -> None:
        self.client = client

    async def close(self) -> None:
        """Close the async client's pool."""
        await self.client.aio.aclose()


class _Stream:
    """The SDK's stream as the loop reads it: iterate, then close."""

    def __init__(self, chunks: AsyncIterator[GenerateContentResponse]) -> None:
        self._chunks = chunks

    def __aiter__(self) -> AsyncIterator[GenerateContentResponse]:
        return self._chunks

    async def close(self) -> None:
        closing = getattr(self._chunks, "aclose", None)
        if closing is not None:
            await closing()


class GeminiModel(StreamingModel[_Connection, "GenerateContentResponse"]):
    """Streams Gemini's `streamGenerateContent` through `google-genai`."""

    kind = "gemini"
    sdk = "google.genai"
    label = "Gemini API"
    default_model = DEFAULT_MODEL
    unfinished = "ended before a finish reason"

    def _client_class(self) -> Any:
        from google import genai
        from google.genai import types

        def connect(*, api_key: str | None, base_url: str, max_retries: int) -> _Connection:
            # Retries are ours: the SDK's own stay off (no retry options).
            options = types.HttpOptions(base_url=base_url)
            return _Connection(genai.Client(api_key=api_key, http_options=options))

        return connect

    async def _open(self, request: ModelRequest) -> _Stream:
        history = same_model_thinking(request.messages, self.name)
        config: dict[str, Any] = {
            "automatic_function_calling": {"disable": True},
        }
        if request.system:
            config["system_instruction"] = request.system
        tools = to_gemini_tools(request.tools)
        if tools:
            config["tools"] = tools
        budget = GEMINI_BUDGETS[request.thinking]
        if budget:
            config["thinking_config"] = {"thinking_budget": budget, "include_thoughts": True}
        chunks = await self._sdk().client.aio.models.generate_content_stream(
            model=self.model,
            contents=to_gemini_contents(history),
            config=config,  # type: ignore[arg-type]
        )
        return _Stream(chunks)

    async def _list(self, limit: int) -> tuple[str, ...]:
        """The Gemini models that generate content (the list also has embedding models)."""
        ids: list[str] = []
        async for model in await self._sdk().client.aio.models.list():
            actions = model.supported_actions or ()
            if model.name and (not actions or "generateContent" in actions):
                ids.append(model.name.removeprefix("models/"))
                if len(ids) >= limit:
                    break
        return tuple(ids)

    def _assembler(self) -> GeminiAssembler:
        return GeminiAssembler()

    def _failure(self, exc: Exception) -> Failure | None:
        import json

        from google.genai import errors

        if isinstance(exc, errors.UnknownApiResponseError) and isinstance(
            exc.__cause__, json.JSONDecodeError
        ):
            # The SDK wraps a chunk it cannot parse; the chunk itself is in the cause.
            return self._endpoint.malformed(exc.__cause__.doc)
        if isinstance(exc, errors.APIError):
            response = getattr(exc, "response", None)
            headers = getattr(response, "headers", None) or {}
            return self._http(exc.code, exc.details, exc.message or str(exc), headers, exc.status)
        return None
