"""Any OpenAI-compatible chat-completions endpoint: DeepSeek, OpenAI, OpenRouter, Ollama, vLLM."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether.models.base import ModelRequest
from tether.models.openai_convert import ChunkAssembler, to_openai_messages, to_openai_tools
from tether.models.retry import Failure
from tether.models.streaming import StreamingModel
from tether.models.thinking import same_model_thinking

if TYPE_CHECKING:
    from openai import AsyncOpenAI, AsyncStream
    from openai.types.chat import ChatCompletionChunk

__all__ = ["DEFAULT_MODEL", "OpenAICompatModel"]

DEFAULT_MODEL = "deepseek-chat"


class OpenAICompatModel(StreamingModel["AsyncOpenAI", "ChatCompletionChunk"]):
    """Streams chat completions through the official `openai` SDK."""

    kind = "openai"
    sdk = "openai"
    label = "OpenAI-compatible API"
    default_model = DEFAULT_MODEL
    unfinished = "ended before the message was complete"

    def _client_class(self) -> type[AsyncOpenAI]:
        # The SDK costs a third of a second to import: only a request pays for it.
        from openai import AsyncOpenAI

        return AsyncOpenAI

    async def _open(self, request: ModelRequest) -> AsyncStream[ChatCompletionChunk]:
        import openai

        tools = to_openai_tools(request.tools)
        history = same_model_thinking(request.messages, self.name)
        effort = request.thinking
        return await self._sdk().chat.completions.create(
            model=self.model,
            messages=to_openai_messages(request.system, history),
            # Some servers reject an empty tool list, so a toolless request sends none.
            tools=tools if tools else openai.omit,
            # `off` asks for nothing: a model that always reasons (deepseek-reasoner) still does.
            reasoning_effort=effort if effort != "off" else openai.omit,
            stream=True,
            # The last chunk then carries the token counts.
            stream_options={"include_usage": True},
        )

    def _assembler(self) -> ChunkAssembler:
        return ChunkAssembler()

    def _failure(self, exc: Exception) -> Failure | None:
        import openai

        if isinstance(exc, openai.APIStatusError):
            return self._http(
                exc.status_code, exc.body, exc.message, exc.response.headers, exc.code
            )
        if isinstance(exc, openai.APIConnectionError):
            return self._endpoint.unreachable(exc)
        if isinstance(exc, openai.APIError):
            return self._endpoint.broken(
                f"the stream from {self.base_url} reported an error: {exc.message}"
            )
        return None
