"""What goes through the official `openai` SDK: Azure OpenAI's deployments (whose addresses,
versions and keys the SDK knows) and the Responses API (`responses_model`).

The SDK costs a third of a second to import, so it is imported at the first request of these
kinds only; chat completions elsewhere go over `httpx` (`openai_compat`). Chat chunks come out
of the SDK as its types and are fed to the one `ChunkAssembler` as their JSON.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from tether.models.base import ModelRequest
from tether.models.openai_compat import DEFAULT_MODEL, chat_request
from tether.models.openai_convert import ChunkAssembler
from tether.models.retry import Failure
from tether.models.streaming import Assembler, EventStream, SdkEventsAsJson, StreamingModel

if TYPE_CHECKING:
    from openai import AsyncOpenAI

__all__ = ["OpenAISdkModel"]


class OpenAISdkModel(StreamingModel["AsyncOpenAI", Any]):
    """Streams chat completions through the `openai` SDK; its errors worded as ours."""

    kind = "openai"
    sdk = "openai"
    label = "OpenAI-compatible API"
    default_model = DEFAULT_MODEL
    unfinished = "ended before the message was complete"

    def _client_class(self) -> type[AsyncOpenAI]:
        # The SDK costs a third of a second to import: only a request pays for it.
        from openai import AsyncOpenAI

        return AsyncOpenAI

    async def _open(self, request: ModelRequest) -> EventStream[Any]:
        body = chat_request(self.model, self.name, request)
        create = cast(Any, self._sdk().chat.completions.create)
        return SdkEventsAsJson(await create(**body))

    def _assembler(self) -> Assembler[Any]:
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
