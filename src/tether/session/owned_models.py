"""The models a session closes: who builds a model closes it, and a session is handed its own.

A surface builds a session's first model and each one it switches to (`--model`, a client's
model option, `/model`) and hands it over: from then on the session owns it. So does the model
a slash command's `model` answers one prompt with, and the one `webFetch.model` reads pages
with. The session closes a model once it no longer answers with it and no prompt is running
(a switch during a prompt closes the old model after that prompt), and every one when it ends.

A `task` child runs on its parent's model, which stays the parent's (closed by the parent
once, after its children: they run inside its prompts), or on a model built for its agent,
which `Children` closes when the child ends: a child session owns no model it is made with,
only its own `webFetch.model`, whose connections `Children` closes with it.
"""

from __future__ import annotations

import asyncio
import logging

from tether.models.base import Model

__all__ = ["OwnedModels"]

log = logging.getLogger(__name__)


class OwnedModels:
    """The models one session owns, and the closes it started in the background."""

    def __init__(self, model: Model | None, *, lasting: Model | None = None) -> None:
        self._owned: list[Model] = [model] if model is not None else []
        self._lasting: list[Model] = [lasting] if lasting is not None else []
        """Used for as long as the session lasts (`webFetch.model`): closed only at its end."""
        self._closing: set[asyncio.Task[None]] = set()

    def adopt(self, model: Model) -> None:
        """Own `model` from now on (once, however often it is handed over)."""
        if all(owned is not model for owned in (*self._owned, *self._lasting)):
            self._owned.append(model)

    def drop_soon(self, current: Model) -> None:
        """Start closing every owned model but `current` (no prompt runs on them); without an
        event loop they wait for `drop` or `aclose`."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        for model in self._unused(current):
            task = loop.create_task(_close(model))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def drop(self, current: Model) -> None:
        """Close every owned model but `current`, now (a prompt that used them has ended)."""
        # Closed in tasks of their own: a cancel of this wait leaves none half-closed.
        self.drop_soon(current)
        await self._settled()

    async def close_connections(self) -> None:
        """Close every owned model's pool but keep owning the models: their next request
        opens a new one (before the event loop that opened the pools ends)."""
        for model in (*self._owned, *self._lasting):
            await _close(model)
        await self._settled()

    async def aclose(self) -> None:
        """Close every owned model: the session has ended."""
        await self.close_connections()
        self._owned.clear()
        self._lasting.clear()

    def _unused(self, current: Model) -> list[Model]:
        """The owned models but `current` (and the lasting ones), which are owned no longer."""
        unused = [model for model in self._owned if model is not current]
        self._owned = [model for model in self._owned if model is current]
        return unused

    async def _settled(self) -> None:
        if self._closing:
            await asyncio.wait(list(self._closing))


async def _close(model: Model) -> None:
    """Close `model`; a failure to close is logged, never raised (the session goes on)."""
    try:
        await model.aclose()
    except Exception:
        log.warning("could not close the connections of %s", model.name, exc_info=True)
