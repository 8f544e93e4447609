"""What `web_fetch` needs from its session to answer a question from a page: a model to ask.

The tool lives below the session and never imports a model's session plumbing: the session
hands each call an `Answerer` through its `ToolContext`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import asyncio

__all__ = ["Answerer"]


class Answerer(Protocol):
    """Asks a model one question, with no tools, and returns its answer's text."""

    async def answer(
        self, instructions: str, question: str, cancelled: asyncio.Event, call_id: str
    ) -> str:
        """The model's reply to `question` under `instructions`; raises `ToolError` on failure."""
        ...
