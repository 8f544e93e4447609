"""Any OpenAI-compatible chat-completions endpoint: DeepSeek, OpenAI, OpenRouter, Ollama, vLLM.

The request goes over `httpx` (`sse_client`), not the `openai` SDK: the body is tether's own
JSON and the stream is parsed by `httpx-sse`, so `tether run` reaches its first request without
importing the SDK's hundreds of types. What the SDK did is kept: the key as a bearer token,
`OPENAI_ORG_ID` and `OPENAI_PROJECT_ID` as the `OpenAI-Organization` and `OpenAI-Project`
headers, its timeouts, and an error event inside the stream reported as the stream's error.
Retries, backoff and `retry-after` are `retry`'s, as for every provider. Azure's deployments
and the Responses API keep the SDK (`openai_sdk`).

Importing only the SDK's client and chat resource does not help: `openai/__init__` imports
`openai.types` whole, and with the packages' `__init__`s skipped the chat resource still
imports `openai.lib._parsing`, which imports `openai.types.responses` whole (400 modules,
0.5 s of CPU against 0.55 s for all of `openai`, measured at load 9-15).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from tether.models.base import ModelRequest
from tether.models.openai_convert import ChunkAssembler, to_openai_messages, to_openai_tools
from tether.models.sse_model import SSEModel
from tether.models.streaming import ClientClass
from tether.models.thinking import same_model_thinking

if TYPE_CHECKING:
    from tether.models.sse_client import SSEClient, SSEStream

__all__ = ["DEFAULT_MODEL", "OpenAICompatModel", "chat_request"]

DEFAULT_MODEL = "deepseek-chat"

ORGANIZATION_HEADERS = (
    ("OPENAI_ORG_ID", "OpenAI-Organization"),
    ("OPENAI_PROJECT_ID", "OpenAI-Project"),
)
"""The environment variables the `openai` SDK sends as headers, and their headers."""


def chat_request(model: str, name: str, request: ModelRequest) -> dict[str, Any]:
    """The body of one streamed chat-completions request (`name` is the model's `KIND:MODEL`,
    whose own reasoning goes back to it)."""
    history = same_model_thinking(request.messages, name)
    body: dict[str, Any] = {
        "model": model,
        "stream": True,
        "messages": to_openai_messages(request.system, history),
        # The last chunk then carries the token counts.
        "stream_options": {"include_usage": True},
    }
    tools = to_openai_tools(request.tools)
    # Some servers reject an empty tool list, so a toolless request sends none.
    if tools:
        body["tools"] = tools
    # `off` asks for nothing: a model that always reasons (deepseek-reasoner) still does.
    if request.thinking != "off":
        body["reasoning_effort"] = request.thinking
    return body


def connect(*, api_key: str | None, base_url: str, max_retries: int) -> SSEClient:
    """A client sending the key as a bearer token (retries are the caller's: `max_retries`
    is for the SDKs' clients and means nothing here)."""
    # httpx loads with the first request, not with the model (a session may never ask).
    from tether.models.sse_client import SSEClient

    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    for variable, header in ORGANIZATION_HEADERS:
        value = os.environ.get(variable)
        if value:
            headers[header] = value
    return SSEClient(base_url, headers)


class OpenAICompatModel(SSEModel):
    """Streams chat completions over `httpx`."""

    kind = "openai"
    label = "OpenAI-compatible API"
    default_model = DEFAULT_MODEL
    unfinished = "ended before the message was complete"

    def _client_class(self) -> ClientClass[SSEClient]:
        return connect

    async def _open(self, request: ModelRequest) -> SSEStream:
        body = chat_request(self.model, self.name, request)
        client: SSEClient = self._sdk()
        return await client.stream("chat/completions", body)

    def _assembler(self) -> ChunkAssembler:
        return ChunkAssembler()

    async def _list(self, limit: int) -> tuple[str, ...]:
        """At most `limit` ids of `GET /models` (one page, as OpenAI's and the compatible
        servers' lists are)."""
        client: SSEClient = self._sdk()
        listed = await client.get("models")
        data = listed.get("data") if isinstance(listed, dict) else None
        if not isinstance(data, list):
            raise ValueError(f"{self.base_url}/models did not answer a list of models")
        ids = [m["id"] for m in data if isinstance(m, dict) and isinstance(m.get("id"), str)]
        return tuple(ids[:limit])
