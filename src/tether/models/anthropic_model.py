"""Anthropic's messages API through the official `anthropic` SDK."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from tether.models.anthropic_cache import cached_messages, cached_system, cached_tools
from tether.models.anthropic_convert import (
    EventAssembler,
    to_anthropic_messages,
    to_anthropic_tools,
)
from tether.models.anthropic_thinking import anthropic_thinking
from tether.models.base import ModelRequest
from tether.models.failures import server_message
from tether.models.retry import Failure, RetryPolicy
from tether.models.streaming import StreamingModel
from tether.models.thinking import same_model_thinking
from tether.providers import Provider

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic, AsyncStream
    from anthropic.types import RawMessageStreamEvent

__all__ = ["DEFAULT_MAX_TOKENS", "DEFAULT_MODEL", "AnthropicModel"]

DEFAULT_MODEL = "claude-sonnet-5-5"
DEFAULT_MAX_TOKENS = 8192


class AnthropicModel(StreamingModel["AsyncAnthropic", "RawMessageStreamEvent"]):
    """Streams messages through the official `anthropic` SDK."""

    kind = "anthropic"
    sdk = "anthropic"
    label = "Anthropic API"
    default_model = DEFAULT_MODEL
    unfinished = "ended before message_stop"
    transient_stream_errors: ClassVar[frozenset[str]] = frozenset(
        {"overloaded_error", "api_error", "rate_limit_error"}
    )
    """Error events inside a stream that are worth a retry when nothing was streamed yet."""
    body_fields: ClassVar[Mapping[str, object]] = MappingProxyType({})
    """Fields this endpoint's requests carry beyond the SDK's."""

    def __init__(
        self,
        provider: Provider,
        *,
        model: str | None = None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        retry: RetryPolicy | None = None,
    ) -> None:
        super().__init__(provider, model=model, retry=retry)
        self.max_tokens = max_tokens

    def _client_class(self) -> type[AsyncAnthropic]:
        # The SDK is slow to import: only a request pays for it.
        from anthropic import AsyncAnthropic

        return AsyncAnthropic

    async def _open(self, request: ModelRequest) -> AsyncStream[RawMessageStreamEvent]:
        import anthropic

        # Cache breakpoints on the tools, the system prompt and the conversation's tail: each
        # step then reads what the one before it wrote (see `anthropic_cache`).
        tools = cached_tools(to_anthropic_tools(request.tools))
        ask = anthropic_thinking(self.model, request.thinking, tools=bool(tools))
        # Thinking blocks go back, signed, while the model may think (a tool-use turn must
        # carry them); otherwise they are left out, which the API always allows.
        history = same_model_thinking(request.messages, self.name, keep=ask.keep)
        return await self._sdk().messages.create(
            model=self.model,
            max_tokens=self.max_tokens + ask.room,
            system=cached_system(request.system) if request.system else anthropic.omit,
            messages=cached_messages(to_anthropic_messages(history)),
            tools=tools if tools else anthropic.omit,
            thinking=ask.thinking if ask.thinking is not None else anthropic.omit,
            output_config=ask.output_config if ask.output_config is not None else anthropic.omit,
            extra_headers={"anthropic-beta": ",".join(ask.betas)} if ask.betas else None,
            extra_body=dict(self.body_fields) if self.body_fields else None,
            stream=True,
        )

    def _assembler(self) -> EventAssembler:
        return EventAssembler()

    def _failure(self, exc: Exception) -> Failure | None:
        import anthropic

        if isinstance(exc, anthropic.APIStatusError):
            if exc.status_code < 400:
                # An `event: error` inside a 200 stream.
                message = server_message(exc.body, exc.message)
                failure = self._endpoint.broken(
                    f"the stream from {self.base_url} failed: {message}"
                )
                return Failure(failure.error, retryable=exc.type in self.transient_stream_errors)
            return self._http(
                exc.status_code, exc.body, exc.message, exc.response.headers, exc.type
            )
        if isinstance(exc, anthropic.APIConnectionError):
            return self._endpoint.unreachable(exc)
        return None
