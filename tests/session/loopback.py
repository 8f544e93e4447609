"""A session's provider models on a loopback server speaking the provider's wire, and the
host its pinned requests describe: for the tests of what a session sends."""

from __future__ import annotations

from datetime import date
from typing import Any

from tests.models.sse_server import SSEServer
from tests.models.support import FAST
from tether.models.anthropic_model import AnthropicModel
from tether.models.openai_compat import OpenAICompatModel
from tether.models.streaming import StreamingModel
from tether.providers import ANTHROPIC, OPENAI
from tether.session.context.environment_block import Host

__all__ = ["HOST", "model_for"]

HOST = Host(
    system="Linux 6.1.0 (Debian GNU/Linux 12 (bookworm))",
    today=date(2026, 12, 4),
    timezone="CET, UTC+01:00",
)
"""The machine, day and zone the golden requests were written on."""


def model_for(kind: str, server: SSEServer) -> StreamingModel[Any, Any]:
    """The provider's model pointed at the loopback server, with fast retries."""
    if kind == "openai":
        provider = OPENAI.resolve(f"{server.url}/v1", "sk-test", environ={})
        return OpenAICompatModel(provider, model="deepseek-chat", retry=FAST)
    return AnthropicModel(ANTHROPIC.resolve(server.url, "sk-ant-test", environ={}), retry=FAST)
