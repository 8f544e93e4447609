"""The two SDK-backed providers as the shared cases see them: how to build one, what its
server sends, and the words its errors use."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tests.models.sse_server import Reply, SSEServer, sse_reply
from tests.models.support import FAST
from tether.models import Usage
from tether.models.anthropic_model import AnthropicModel
from tether.models.openai_compat import OpenAICompatModel
from tether.models.streaming import StreamingModel
from tether.providers import ANTHROPIC, OPENAI, Discovery

Body = dict[str, object]


@dataclass(frozen=True)
class Wire:
    """One provider's side of the shared cases."""

    model_class: type[StreamingModel[Any, Any]]
    discovery: Discovery
    path: str
    """The base URL's path on the test server."""
    held: int
    """How many events of `KIND_long_text.sse` carry its first two words, `word0 word1 `."""
    text_usage: Usage | None
    """The usage `KIND_text.sse` reports."""
    cached: tuple[str, Usage]
    """A transcript (`KIND_NAME.sse`) whose usage counts cached tokens, and that usage."""
    deep_prefix: bytes
    """What comes before a chunk's JSON in this wire's SSE."""
    malformed_excerpt: str
    """Part of the broken chunk of `KIND_malformed.sse`, as its error quotes it."""
    missing_key: str
    """The error for the default endpoint without a key."""
    factory: tuple[str, str | None]
    """A `--model` spec and `--base-url` for the factory."""
    unknown_model: Body
    """A 404 body for an unknown model."""
    rejected_key: tuple[str, Body]
    """The words and the 401 body of a rejected key."""
    overflows: tuple[Body, ...]
    """400 bodies that say the prompt is longer than the context."""
    requested: Mapping[str, object] = field(default_factory=dict)
    """Fields every request carries."""

    def __str__(self) -> str:
        return self.kind

    @property
    def kind(self) -> str:
        """The `--model` kind, which also names its transcripts."""
        return self.model_class.kind

    @property
    def label(self) -> str:
        """How its errors name the provider."""
        return self.model_class.label

    @property
    def key_variable(self) -> str:
        """Where a key for the test server comes from when no flag gives one."""
        return self.discovery.key_names("127.0.0.1")[0]

    def undecodable(self, case: str) -> tuple[Reply, tuple[str, ...]]:
        """A reply whose chunk cannot be decoded, and words its error must contain."""
        if case == "malformed":
            words = ("malformed stream chunk (invalid JSON)", self.malformed_excerpt)
            return self.sse("malformed"), words
        deep = self.deep_prefix + b"[" * 100_000 + b"\n\n"
        stream = Reply(headers={"content-type": "text/event-stream"}, chunks=(deep,))
        return stream, ("nested too deeply to decode",)

    def sse(self, name: str, **options: int) -> Reply:
        """This wire's transcript `KIND_NAME.sse` as a reply."""
        return sse_reply(f"{self.kind}_{name}.sse", **options)

    def error(self, kind: str, message: str) -> Body:
        """An error body as this wire's servers send it."""
        if self.kind == "anthropic":
            return {"type": "error", "error": {"type": kind, "message": message}}
        return {"error": {"message": message, "type": kind}}

    def url(self, server: SSEServer) -> str:
        """The base URL of the test server for this wire."""
        return f"{server.url}{self.path}"

    def make(
        self,
        base_url: str | None = None,
        *,
        model: str | None = None,
        api_key: str | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> StreamingModel[Any, Any]:
        """A model with fast retries; keys come only from `api_key` and `environ`."""
        provider = self.discovery.resolve(base_url, api_key, environ or {})
        return self.model_class(provider, model=model, retry=FAST)


OPENAI_WIRE = Wire(
    model_class=OpenAICompatModel,
    discovery=OPENAI,
    path="/v1",
    held=3,
    text_usage=None,
    cached=(
        "cached_usage",
        Usage(input_tokens=2100, output_tokens=3, cached_read_tokens=2048),
    ),
    deep_prefix=b"data: ",
    malformed_excerpt='"content":"oops"',
    missing_key=(
        "No API key for https://api.deepseek.com: set DEEPSEEK_API_KEY or TETHER_API_KEY "
        "or pass --api-key"
    ),
    factory=("openai:gpt-5.5", "https://api.openai.com/v1"),
    unknown_model={
        "error": {
            "message": "The model `nope` does not exist",
            "type": "invalid_request_error",
            "code": "model_not_found",
        }
    },
    rejected_key=(
        "Incorrect API key provided",
        {"error": {"message": "Incorrect API key provided"}},
    ),
    overflows=(
        {
            "error": {
                "message": "too long",
                "type": "invalid_request_error",
                "code": "context_length_exceeded",
            }
        },
        {
            "error": {
                "message": "This model's maximum context length is 65536 tokens. However, you "
                "requested 70000 tokens. Please reduce the length of the messages.",
                "type": "invalid_request_error",
                "code": None,
            }
        },
    ),
    requested={"stream": True, "stream_options": {"include_usage": True}},
)

ANTHROPIC_WIRE = Wire(
    model_class=AnthropicModel,
    discovery=ANTHROPIC,
    path="",
    held=4,
    text_usage=Usage(input_tokens=472, output_tokens=9),
    cached=(
        "cached",
        # The whole prompt: the uncached 12 and what the cache read and wrote.
        Usage(input_tokens=2360, output_tokens=4, cached_read_tokens=2048, cached_write_tokens=300),
    ),
    deep_prefix=b"event: message_start\ndata: ",
    malformed_excerpt='"text":"oops"',
    missing_key="No API key for https://api.anthropic.com: set ANTHROPIC_API_KEY or pass --api-key",
    factory=("anthropic:claude-opus-5-5", None),
    unknown_model={
        "type": "error",
        "error": {"type": "not_found_error", "message": "model: nope"},
    },
    rejected_key=(
        "invalid x-api-key",
        {
            "type": "error",
            "error": {"type": "authentication_error", "message": "invalid x-api-key"},
        },
    ),
    overflows=(
        {
            "type": "error",
            "error": {
                "type": "invalid_request_error",
                "message": "prompt is too long: 210000 tokens > 200000 maximum",
            },
        },
    ),
    requested={"stream": True, "max_tokens": 8192},
)

WIRES = (OPENAI_WIRE, ANTHROPIC_WIRE)
