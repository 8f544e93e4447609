"""Anthropic's messages API through the official `anthropic` SDK."""

from __future__ import annotations

import os
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from contextlib import aclosing
from typing import TYPE_CHECKING

from tether.models.anthropic_convert import (
    EventAssembler,
    to_anthropic_messages,
    to_anthropic_tools,
)
from tether.models.base import Completed, ModelError, ModelEvent, ModelRequest, TextDelta
from tether.models.failures import Endpoint, server_message
from tether.models.retry import Failure, RetryPolicy, retrying

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic

__all__ = ["DEFAULT_BASE_URL", "DEFAULT_MAX_TOKENS", "DEFAULT_MODEL", "AnthropicModel"]

DEFAULT_BASE_URL = "https://api.anthropic.com"
DEFAULT_MODEL = "claude-sonnet-5-5"
DEFAULT_MAX_TOKENS = 8192
PROVIDER = "Anthropic API"
TRANSIENT_STREAM_ERRORS = frozenset({"overloaded_error", "api_error", "rate_limit_error"})
"""Error events inside a stream that are worth a retry when nothing was streamed yet."""


class AnthropicModel:
    """Streams messages through the official `anthropic` SDK."""

    def __init__(
        self,
        *,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        retry: RetryPolicy | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        env = os.environ if environ is None else environ
        self.base_url = (base_url or env.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        self.model = model or DEFAULT_MODEL
        self.name = f"anthropic:{self.model}"
        self.max_tokens = max_tokens
        self._retry = retry or RetryPolicy()
        self._api_key = api_key or env.get("ANTHROPIC_API_KEY") or None
        key_hint = "check --api-key" if api_key else "check ANTHROPIC_API_KEY"
        self._endpoint = Endpoint(PROVIDER, self.base_url, self.model, key_hint)
        self._client: AsyncAnthropic | None = None

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        """Stream one assistant message; retries transient failures before the first event."""
        attempts = retrying(lambda: self._attempt(request), self._classify, self._retry)
        async with aclosing(attempts) as events:
            async for event in events:
                yield event

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        if self._client is not None:
            await self._client.close()
            self._client = None

    def require_key(self) -> None:
        """Raise `ModelError` now when no key is configured (before any session is made)."""
        if self._api_key is None:
            raise ModelError(
                f"No API key for {self.base_url}: set ANTHROPIC_API_KEY or pass --api-key"
            )

    def _sdk(self) -> AsyncAnthropic:
        """The SDK client, made on first use; its own retries are off (see `retry`)."""
        self.require_key()
        if self._client is None:
            # The SDK is slow to import: only a request pays for it.
            from anthropic import AsyncAnthropic

            self._client = AsyncAnthropic(
                api_key=self._api_key, base_url=self.base_url, max_retries=0
            )
        return self._client

    async def _attempt(self, request: ModelRequest) -> AsyncGenerator[ModelEvent, None]:
        """One HTTP request, streamed."""
        import anthropic

        tools = to_anthropic_tools(request.tools)
        stream = await self._sdk().messages.create(
            model=self.model,
            max_tokens=self.max_tokens,
            system=request.system if request.system else anthropic.omit,
            messages=to_anthropic_messages(request.messages),
            tools=tools if tools else anthropic.omit,
            stream=True,
        )
        assembler = EventAssembler()
        async with stream:
            async for event in stream:
                text = assembler.feed(event)
                if text:
                    yield TextDelta(text)
        if not assembler.stopped:
            raise ModelError(
                f"{PROVIDER}: the stream from {self.base_url} ended before message_stop"
            )
        yield Completed(assembler.message(), usage=assembler.usage)

    def _classify(self, exc: Exception) -> Failure:
        """What a failed attempt means: SDK exceptions become clear `ModelError`s."""
        import anthropic
        import httpx2

        endpoint = self._endpoint
        if isinstance(exc, ModelError):
            return Failure(exc)
        if isinstance(exc, anthropic.APIStatusError):
            message = server_message(exc.body, exc.message)
            if exc.status_code < 400:
                # An `event: error` inside a 200 stream.
                failure = endpoint.broken(f"the stream from {self.base_url} failed: {message}")
                return Failure(failure.error, retryable=exc.type in TRANSIENT_STREAM_ERRORS)
            return endpoint.http(exc.status_code, message, exc.response.headers, exc.type)
        if isinstance(exc, anthropic.APIConnectionError | httpx2.TransportError):
            return endpoint.unreachable(exc)
        undecodable = endpoint.undecodable(exc)
        if undecodable is not None:
            return undecodable
        return endpoint.broken(f"unexpected {type(exc).__name__} from {self.base_url}: {exc}")
