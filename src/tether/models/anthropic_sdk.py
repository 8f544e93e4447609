"""Claude through the official `anthropic` SDK: Bedrock's and Vertex's endpoints (`cloud`),
whose addresses, versions and signatures the SDK knows.

The SDK costs a second of CPU to import, so only a request of these kinds pays for it;
Anthropic's own API goes over `httpx` (`anthropic_model`). Stream events come out of the SDK
as its types and are fed to the one `EventAssembler` as their JSON.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from tether.models.anthropic_model import AnthropicModel, messages_request
from tether.models.base import ModelRequest
from tether.models.retry import Failure
from tether.models.streaming import ClientClass, EventStream, SdkEventsAsJson, StreamingModel

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic

__all__ = ["AnthropicSdkModel"]


class AnthropicSdkModel(AnthropicModel):
    """Streams messages through the `anthropic` SDK's client; its errors worded as ours."""

    sdk = "anthropic"

    def _client_class(self) -> ClientClass[Any]:
        # The SDK is slow to import: only a request pays for it.
        from anthropic import AsyncAnthropic

        return cast(ClientClass[Any], AsyncAnthropic)

    async def _open(self, request: ModelRequest) -> EventStream[Any]:  # type: ignore[override]
        body, headers = messages_request(self.model, self.name, self.max_tokens, request)
        client: AsyncAnthropic = self._sdk()
        create = cast(Any, client.messages.create)
        stream = await create(
            **body,
            extra_headers=headers or None,
            extra_body=dict(self.body_fields) if self.body_fields else None,
        )
        return SdkEventsAsJson(stream)

    async def _list(self, limit: int) -> tuple[str, ...]:
        return await StreamingModel._list(self, limit)

    def _failure(self, exc: Exception) -> Failure | None:
        import anthropic

        if isinstance(exc, anthropic.APIStatusError):
            if exc.status_code < 400:
                # An `event: error` inside a 200 stream.
                return self._stream_failed(exc.body, exc.message, exc.type)
            return self._http(
                exc.status_code, exc.body, exc.message, exc.response.headers, exc.type
            )
        if isinstance(exc, anthropic.APIConnectionError):
            return self._endpoint.unreachable(exc)
        return None
