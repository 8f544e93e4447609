"""The session's `Answerer`: `web_fetch`'s questions put to the session's model (or the one
`webFetch.model` names), with no tools, off the conversation: the log keeps only the call's
result, as it keeps a child's report."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from tether.content import TextContent
from tether.errors import ModelError, ToolError
from tether.models.base import Completed, Model, ModelRequest
from tether.models.messages import UserMessage
from tether.session.calls import close_stream

__all__ = ["ModelAnswerer"]


class ModelAnswerer:
    """Answers with the model `model()` gives at the time of the call."""

    def __init__(self, model: Callable[[], Model]) -> None:
        self._model = model

    async def answer(
        self, instructions: str, question: str, cancelled: asyncio.Event, call_id: str
    ) -> str:
        """The model's final text; cancel stops the request at once."""
        from tether.models.script import ScriptModel  # with the first question, not the session

        model = self._model()
        if isinstance(model, ScriptModel):
            # A script plays one conversation: the answer is the script its call id is given.
            model = model.for_task(call_id)
        request = ModelRequest(
            system=instructions,
            messages=(UserMessage(content=(TextContent(text=question),)),),
            tools=(),
        )
        asking = asyncio.ensure_future(_final_text(model, request))
        stop = asyncio.ensure_future(cancelled.wait())
        try:
            await asyncio.wait({asking, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
        if not asking.done():
            asking.cancel()
            raise ToolError("Fetch cancelled")
        try:
            return asking.result()
        except ModelError as exc:
            raise ToolError(
                f"The page was fetched, but {model.name} could not answer: {exc}"
            ) from exc


async def _final_text(model: Model, request: ModelRequest) -> str:
    stream = model.stream(request)
    try:
        async for event in stream:
            # Only the final message counts: the answer streams to no one.
            if isinstance(event, Completed):
                return event.message.text
    finally:
        await close_stream(stream)
    raise ModelError(f"the model {model.name} ended its stream without a message")
