"""OpenAI's Responses API through the official `openai` SDK (`openai-responses:MODEL`).

Requests are stateless (`store: false`): the whole history goes every time, and reasoning
items come back encrypted (`include: ["reasoning.encrypted_content"]`) so they can be sent
back, as codex does; `reasoning.effort` follows the thinking level, with a summary asked
for so there is something to show.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether.models.base import ModelRequest
from tether.models.openai_sdk import OpenAISdkModel
from tether.models.responses_convert import (
    ResponseAssembler,
    to_responses_input,
    to_responses_tools,
)
from tether.models.thinking import same_model_thinking

if TYPE_CHECKING:
    from openai import AsyncStream
    from openai.types.responses import ResponseStreamEvent

__all__ = ["DEFAULT_MODEL", "ResponsesModel"]

DEFAULT_MODEL = "gpt-5.5"


class ResponsesModel(OpenAISdkModel):
    """Streams responses; errors and retries as for chat completions (the same SDK)."""

    kind = "openai-responses"
    label = "OpenAI Responses API"
    default_model = DEFAULT_MODEL
    unfinished = "ended before response.completed"

    async def _open(self, request: ModelRequest) -> AsyncStream[ResponseStreamEvent]:
        import openai

        tools = to_responses_tools(request.tools)
        history = same_model_thinking(request.messages, self.name)
        effort = request.thinking
        return await self._sdk().responses.create(
            model=self.model,
            instructions=request.system or openai.omit,
            input=to_responses_input(history),
            tools=tools if tools else openai.omit,
            store=False,
            include=["reasoning.encrypted_content"],
            reasoning=({"effort": effort, "summary": "auto"} if effort != "off" else openai.omit),
            stream=True,
        )

    def _assembler(self) -> ResponseAssembler:
        return ResponseAssembler()
