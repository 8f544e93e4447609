"""Anthropic's messages API over `httpx` (`sse_client`), without the `anthropic` SDK.

The SDK costs a second of CPU to import for a request whose body tether writes itself: the
request goes as tether's JSON and the stream is parsed by `httpx-sse`. What the SDK did is
kept: the key as a bearer token, the `anthropic-version` it sends, `anthropic-beta` when the
thinking asked for needs one, its timeouts, and an `event: error` inside the stream reported
as the stream's failure (retried while nothing was shown when it is transient). Bedrock and
Vertex keep the SDK, which signs and addresses their requests (`anthropic_sdk`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

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
from tether.models.sse_model import SSEModel
from tether.models.streaming import Assembler, ClientClass
from tether.models.thinking import same_model_thinking
from tether.providers import Provider

if TYPE_CHECKING:
    from tether.errors import StreamError
    from tether.models.sse_client import SSEClient, SSEStream

__all__ = [
    "ANTHROPIC_VERSION",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MODEL",
    "AnthropicModel",
    "messages_request",
]

DEFAULT_MODEL = "claude-sonnet-5-5"
DEFAULT_MAX_TOKENS = 8192
ANTHROPIC_VERSION = "2026-10-21"
"""The API version requests name (the `anthropic-version` header), as the SDK sends it."""
MODELS_PAGE = 1000
"""The most models `GET /v1/models` answers at once."""


def messages_request(
    model: str, name: str, max_tokens: int, request: ModelRequest
) -> tuple[dict[str, Any], dict[str, str]]:
    """The body of one streamed messages request, and the headers it needs besides the
    client's (`name` is the model's `KIND:MODEL`, whose own thinking goes back to it)."""
    # Cache breakpoints on the tools, the system prompt and the conversation's tail: each
    # step then reads what the one before it wrote (see `anthropic_cache`).
    tools = cached_tools(to_anthropic_tools(request.tools))
    ask = anthropic_thinking(model, request.thinking, tools=bool(tools))
    # Thinking blocks go back, signed, while the model may think (a tool-use turn must
    # carry them); otherwise they are left out, which the API always allows.
    history = same_model_thinking(request.messages, name, keep=ask.keep)
    body: dict[str, Any] = {
        "max_tokens": max_tokens + ask.room,
        "messages": cached_messages(to_anthropic_messages(history)),
        "model": model,
        "stream": True,
    }
    if request.system:
        body["system"] = cached_system(request.system)
    if tools:
        body["tools"] = tools
    if ask.thinking is not None:
        body["thinking"] = ask.thinking
    if ask.output_config is not None:
        body["output_config"] = ask.output_config
    headers = {"anthropic-beta": ",".join(ask.betas)} if ask.betas else {}
    return dict(sorted(body.items())), headers


def connect(*, api_key: str | None, base_url: str, max_retries: int) -> SSEClient:
    """A client sending the key as the SDK does (retries are the caller's: `max_retries` is for
    the SDKs' clients and means nothing here)."""
    # httpx loads with the first request, not with the model (a session may never ask).
    from tether.models.sse_client import SSEClient

    headers = {"anthropic-version": ANTHROPIC_VERSION}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    return SSEClient(base_url, headers)


class AnthropicModel(SSEModel):
    """Streams messages over `httpx`."""

    kind = "anthropic"
    error_field = "type"
    label = "Anthropic API"
    default_model = DEFAULT_MODEL
    unfinished = "ended before message_stop"
    transient_stream_errors: ClassVar[frozenset[str]] = frozenset(
        {"overloaded_error", "api_error", "rate_limit_error"}
    )
    """Error events inside a stream that are worth a retry when nothing was streamed yet."""
    body_fields: ClassVar[Mapping[str, object]] = MappingProxyType({})
    """Fields this endpoint's requests carry beyond the messages API's own."""

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

    def _client_class(self) -> ClientClass[SSEClient]:
        return connect

    async def _open(self, request: ModelRequest) -> SSEStream:
        body, headers = messages_request(self.model, self.name, self.max_tokens, request)
        client: SSEClient = self._sdk()
        return await client.stream("v1/messages", body, headers=headers)

    def _assembler(self) -> Assembler[Any]:
        return EventAssembler()

    async def _list(self, limit: int) -> tuple[str, ...]:
        """At most `limit` ids of `GET /v1/models`, page after page."""
        client: SSEClient = self._sdk()
        ids: list[str] = []
        after: str | None = None
        while len(ids) < limit:
            query = f"v1/models?limit={MODELS_PAGE}" + (f"&after_id={after}" if after else "")
            page = await client.get(query)
            data = page.get("data") if isinstance(page, dict) else None
            if not isinstance(data, list):
                raise ValueError(f"{self.base_url}/v1/models did not answer a list of models")
            ids += [m["id"] for m in data if isinstance(m, dict) and isinstance(m.get("id"), str)]
            last = page.get("last_id")
            if not (page.get("has_more") and isinstance(last, str) and data):
                break
            after = last
        return tuple(ids[:limit])

    def _stream_error(self, exc: StreamError) -> Failure:
        kind = exc.body.get("type") if isinstance(exc.body, dict) else None
        return self._stream_failed(exc.body, exc.message, kind)

    def _stream_failed(self, body: object, message: str, kind: object) -> Failure:
        """An `event: error` inside a 200 stream; retried (before anything showed) when
        transient."""
        said = server_message(body, message)
        failure = self._endpoint.broken(f"the stream from {self.base_url} failed: {said}")
        return Failure(failure.error, retryable=kind in self.transient_stream_errors)
