"""The request loop both SDK-backed models share; each provider plugs in its wire format.

A provider subclass says only what differs: its SDK's client class, how to send one
request (`_open`), which assembler turns its stream events into a message, and what its
SDK's own exceptions mean (`_failure`). Everything else is here, once: the retries (only
while nothing has streamed), the `TextDelta`s, the final `Completed` with its usage, a
stream that ends too early, chunks that are not JSON, lost connections, and closing.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from contextlib import aclosing
from dataclasses import replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from tether.errors import ModelError
from tether.models.assembly import Delta
from tether.models.base import Completed, ModelEvent, ModelRequest, Usage
from tether.models.failures import Endpoint, server_message
from tether.models.listing import cached_list, endpoint_list
from tether.models.messages import AssistantMessage
from tether.models.retry import Failure, RetryPolicy, retrying
from tether.providers import Provider

__all__ = ["Assembler", "EventStream", "SdkEventsAsJson", "StreamingModel"]

EventT = TypeVar("EventT")
EventT_co = TypeVar("EventT_co", covariant=True)
EventT_contra = TypeVar("EventT_contra", contravariant=True)


class Client(Protocol):
    """An SDK client: something with a connection pool to close."""

    async def close(self) -> None:
        """Close the pool."""


ClientT = TypeVar("ClientT", bound=Client)
ClientT_co = TypeVar("ClientT_co", bound=Client, covariant=True)


class ClientClass(Protocol[ClientT_co]):
    """An SDK's client class, as far as it is called here."""

    def __call__(self, *, api_key: str | None, base_url: str, max_retries: int) -> ClientT_co:
        """A client for one endpoint and key."""
        ...


class EventStream(Protocol[EventT_co]):
    """A streamed response as the SDKs return it."""

    def __aiter__(self) -> AsyncIterator[EventT_co]:
        """The parsed events, in order."""
        ...

    async def close(self) -> None:
        """Close the response (and release its connection)."""


class _SdkEvent(Protocol):
    """An event as an SDK parses it (a pydantic model of its own)."""

    def to_dict(self) -> Mapping[str, Any]:
        """The event as its JSON."""
        ...


class SdkEventsAsJson:
    """An SDK's stream of its own event types as their JSON, which the assemblers read (the
    servers' extras, such as DeepSeek's `reasoning_content`, included)."""

    def __init__(self, stream: EventStream[_SdkEvent]) -> None:
        self._stream = stream

    async def __aiter__(self) -> AsyncGenerator[Mapping[str, Any], None]:
        """Each event's JSON, in order."""
        async for event in self._stream:
            yield event.to_dict()

    async def close(self) -> None:
        """Close the SDK's response."""
        await self._stream.close()


class Assembler(Protocol[EventT_contra]):
    """Turns one wire format's events into text pieces and, at the end, one message."""

    @property
    def complete(self) -> bool:
        """Whether the stream reached its proper end."""
        ...

    @property
    def usage(self) -> Usage | None:
        """The tokens spent, when the server said."""
        ...

    def feed(self, event: EventT_contra) -> list[Delta]:
        """Take one event; returns the text and reasoning it added (possibly none)."""
        ...

    def message(self) -> AssistantMessage:
        """The assembled message."""
        ...


class StreamingModel(ABC, Generic[ClientT, EventT]):
    """A model reached through a provider's SDK, whose own retries are off (see `retry`)."""

    kind: ClassVar[str]
    """The `--model` kind, the first half of `name`."""
    label: ClassVar[str]
    """The provider as error messages name it."""
    default_model: ClassVar[str]
    """The model asked for when `--model` names none."""
    unfinished: ClassVar[str]
    """What a stream that stops too early failed to reach, as its error says."""
    sdk: ClassVar[str]
    """The SDK's module, imported at the first request."""

    def __init__(
        self, provider: Provider, *, model: str | None = None, retry: RetryPolicy | None = None
    ) -> None:
        self.provider = provider
        self.base_url = provider.base_url
        self.model = model or self.default_model
        self.name = f"{self.kind}:{self.model}"
        self._retry = retry or RetryPolicy()
        self._endpoint = Endpoint(self.label, self.base_url, self.model, provider.key_hint)
        self._client: ClientT | None = None

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        """Stream one assistant message; retries transient failures before the first event."""
        attempts = retrying(lambda: self._attempt(request), self._classify, self._retry)
        async with aclosing(attempts) as events:
            async for event in events:
                yield event

    async def listed(self) -> tuple[str, ...]:
        """The model ids the endpoint lists (`GET /models`), bounded and kept a while (see
        `listing`); none when it cannot say, which only leaves the catalog's."""
        key = self.provider.api_key
        return await endpoint_list(
            self.kind, self.base_url, key, self.label, self._list, prepare=self._sdk
        )

    def sdk_loaded(self) -> bool:
        """Whether the SDK was imported already (by a request of this or another model):
        asking for the list then costs no import, and says nothing before a prompt did."""
        return self.sdk in sys.modules

    def listed_now(self) -> tuple[str, ...] | None:
        """What `listed` would answer without asking: `None` when it was not asked lately."""
        return cached_list(self.kind, self.base_url, self.provider.api_key)

    async def _list(self, limit: int) -> tuple[str, ...]:
        """At most `limit` of the endpoint's model ids, through the SDK (both SDKs page them
        the same way)."""
        client: Any = self._sdk()
        ids: list[str] = []
        async for model in client.models.list():
            ids.append(model.id)
            if len(ids) >= limit:
                break
        return tuple(ids)

    async def aclose(self) -> None:
        """Close the HTTP connection pool (a no-op when none is open; a later request opens
        a new one)."""
        client, self._client = self._client, None
        if client is not None:
            await client.close()

    def require_key(self) -> None:
        """Raise `ModelError` now when no key is configured (before any session is made)."""
        if self.provider.api_key is None:
            raise ModelError(self.provider.missing_key)

    def _sdk(self) -> ClientT:
        """The SDK client, made on first use: only a request pays for importing the SDK."""
        self.require_key()
        if self._client is None:
            connect = self._client_class()
            # Retries are ours (see `retry`), so the SDK's own are off.
            self._client = connect(
                api_key=self.provider.api_key, base_url=self.base_url, max_retries=0
            )
        return self._client

    async def _attempt(self, request: ModelRequest) -> AsyncGenerator[ModelEvent, None]:
        """One HTTP request, streamed."""
        stream = await self._open(request)
        assembler = self._assembler()
        try:
            async for event in stream:
                for delta in assembler.feed(event):
                    yield delta
        finally:
            await stream.close()
        if not assembler.complete:
            raise ModelError(f"{self.label}: the stream from {self.base_url} {self.unfinished}")
        message = assembler.message()
        # A signature means something only to the model that made it: say which one that is.
        thinking = tuple(replace(part, source=self.name) for part in message.thinking)
        yield Completed(replace(message, thinking=thinking), usage=assembler.usage)

    def _classify(self, exc: Exception) -> Failure:
        """What a failed attempt means: every exception becomes a clear `ModelError`."""
        import httpx2

        if isinstance(exc, ModelError):
            return Failure(exc)
        failure = self._failure(exc)
        if failure is not None:
            return failure
        if isinstance(exc, httpx2.TransportError):
            return self._endpoint.unreachable(exc)
        undecodable = self._endpoint.undecodable(exc)
        if undecodable is not None:
            return undecodable
        return self._endpoint.broken(f"unexpected {type(exc).__name__} from {self.base_url}: {exc}")

    def _http(
        self, status: int, body: object, fallback: str, headers: Mapping[str, str], code: str | None
    ) -> Failure:
        """The failure for an HTTP error status, worded from the error body."""
        return self._endpoint.http(status, server_message(body, fallback), headers, code)

    @abstractmethod
    def _client_class(self) -> ClientClass[ClientT]:
        """The SDK's client class, imported only now: the SDKs are slow to import."""

    @abstractmethod
    async def _open(self, request: ModelRequest) -> EventStream[EventT]:
        """Send one request in this wire format through `_sdk()`; the response streams."""

    @abstractmethod
    def _assembler(self) -> Assembler[EventT]:
        """A fresh assembler for one response."""

    @abstractmethod
    def _failure(self, exc: Exception) -> Failure | None:
        """What one of the SDK's own exceptions means; `None` for any other exception."""
