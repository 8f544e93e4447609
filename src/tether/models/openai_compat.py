"""Any OpenAI-compatible chat-completions endpoint: DeepSeek, OpenAI, OpenRouter, Ollama, vLLM."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from contextlib import aclosing
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from tether.models.base import Completed, ModelError, ModelEvent, ModelRequest, TextDelta
from tether.models.failures import Endpoint, server_message
from tether.models.openai_convert import ChunkAssembler, to_openai_messages, to_openai_tools
from tether.models.retry import Failure, RetryPolicy, retrying

if TYPE_CHECKING:
    from openai import AsyncOpenAI

__all__ = ["DEFAULT_BASE_URL", "DEFAULT_MODEL", "OpenAICompatModel"]

DEFAULT_BASE_URL = "https://api.deepseek.com"
DEFAULT_MODEL = "deepseek-chat"
PROVIDER = "OpenAI-compatible API"
LOCAL_KEY = "local-no-key"
"""Sent to local servers (Ollama, vLLM) that need no key: the SDK insists on one."""


def _is_local(host: str) -> bool:
    """Whether `host` is this machine or a private network, where servers rarely want keys."""
    if host == "localhost" or host.endswith((".localhost", ".local")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def _key_names(host: str) -> tuple[str, ...]:
    """Environment variables that may hold the key for `host`, in order.

    DeepSeek never gets `OPENAI_API_KEY`: that key belongs to another vendor.
    """
    if host == "api.deepseek.com":
        return ("DEEPSEEK_API_KEY", "TETHER_API_KEY")
    if host == "openrouter.ai" or host.endswith(".openrouter.ai"):
        return ("OPENROUTER_API_KEY", "OPENAI_API_KEY", "TETHER_API_KEY")
    return ("OPENAI_API_KEY", "TETHER_API_KEY")


class OpenAICompatModel:
    """Streams chat completions through the official `openai` SDK."""

    def __init__(
        self,
        *,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        retry: RetryPolicy | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        env = os.environ if environ is None else environ
        self.base_url = (base_url or env.get("TETHER_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        self.model = model or DEFAULT_MODEL
        self.name = f"openai:{self.model}"
        self._retry = retry or RetryPolicy()
        host = urlsplit(self.base_url).hostname or ""
        names = _key_names(host)
        self._api_key: str | None = api_key
        key_hint = "check --api-key"
        if api_key is None:
            found = next((name for name in names if env.get(name)), None)
            self._api_key = env[found] if found else (LOCAL_KEY if _is_local(host) else None)
            key_hint = f"check {found}" if found else f"set {' or '.join(names)}"
        self._missing_key = (
            f"No API key for {self.base_url}: set {' or '.join(names)} or pass --api-key"
        )
        self._endpoint = Endpoint(PROVIDER, self.base_url, self.model, key_hint)
        self._client: AsyncOpenAI | None = None

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        """Stream one assistant message; retries transient failures before the first event."""
        async with aclosing(
            retrying(lambda: self._attempt(request), self._classify, self._retry)
        ) as events:
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
            raise ModelError(self._missing_key)

    def _sdk(self) -> AsyncOpenAI:
        """The SDK client, made on first use; its own retries are off (see `retry`)."""
        self.require_key()
        if self._client is None:
            # The SDK costs a third of a second to import: only a request pays for it.
            from openai import AsyncOpenAI

            self._client = AsyncOpenAI(api_key=self._api_key, base_url=self.base_url, max_retries=0)
        return self._client

    async def _attempt(self, request: ModelRequest) -> AsyncGenerator[ModelEvent, None]:
        """One HTTP request, streamed."""
        import openai

        tools = to_openai_tools(request.tools)
        stream = await self._sdk().chat.completions.create(
            model=self.model,
            messages=to_openai_messages(request.system, request.messages),
            # Some servers reject an empty tool list, so a toolless request sends none.
            tools=tools if tools else openai.omit,
            stream=True,
            # The last chunk then carries the token counts.
            stream_options={"include_usage": True},
        )
        assembler = ChunkAssembler()
        async with stream:
            async for chunk in stream:
                text = assembler.feed(chunk)
                if text:
                    yield TextDelta(text)
        if not assembler.complete:
            raise ModelError(
                f"{PROVIDER}: the stream from {self.base_url} ended before the message was complete"
            )
        yield Completed(assembler.message(), usage=assembler.usage)

    def _classify(self, exc: Exception) -> Failure:
        """What a failed attempt means: SDK exceptions become clear `ModelError`s."""
        import httpx2
        import openai

        endpoint = self._endpoint
        if isinstance(exc, ModelError):
            return Failure(exc)
        if isinstance(exc, openai.APIStatusError):
            message = server_message(exc.body, exc.message)
            return endpoint.http(exc.status_code, message, exc.response.headers, exc.code)
        if isinstance(exc, openai.APIConnectionError | httpx2.TransportError):
            return endpoint.unreachable(exc)
        if isinstance(exc, openai.APIError):
            return endpoint.broken(
                f"the stream from {self.base_url} reported an error: {exc.message}"
            )
        undecodable = endpoint.undecodable(exc)
        if undecodable is not None:
            return undecodable
        return endpoint.broken(f"unexpected {type(exc).__name__} from {self.base_url}: {exc}")
