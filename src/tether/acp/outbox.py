"""Session updates sent in order from synchronous callbacks.

A session reports updates through a plain callback while its loop runs, but writing to the
connection is asynchronous. The outbox queues them and one task writes them in order;
`flush()` waits until everything queued so far is on the wire, so a permission request
never overtakes the `tool_call` it is about, and a prompt's answer never overtakes its
updates.
"""

from __future__ import annotations

import asyncio
import logging

from acp.interfaces import Client

from tether.acp.mapping import AcpUpdate

__all__ = ["Outbox"]

log = logging.getLogger(__name__)


class Outbox:
    """An ordered queue of `session/update` notifications to one client."""

    def __init__(self, client: Client) -> None:
        self._client = client
        self._queue: asyncio.Queue[tuple[str, AcpUpdate]] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None

    def post(self, session_id: str, update: AcpUpdate) -> None:
        """Queue one update; it is sent after everything queued before it."""
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._drain())
        self._queue.put_nowait((session_id, update))

    async def flush(self) -> None:
        """Return once every update queued so far has been written."""
        if self._worker is not None and not self._worker.done():
            await self._queue.join()

    async def close(self) -> None:
        """Stop the writer (updates still queued are dropped)."""
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)

    async def _drain(self) -> None:
        gone = False  # the client closed the connection: nothing more can reach it
        while True:
            session_id, update = await self._queue.get()
            try:
                if not gone:
                    await self._client.session_update(session_id=session_id, update=update)
            except ConnectionError as exc:
                # The client went away (its tab closed, Ctrl+C stopped `tether web`): an
                # ordinary end, said once and plainly, not a traceback per update.
                gone = True
                log.info("the client closed the connection; updates are no longer sent (%s)", exc)
            except Exception:
                # Any other failure must not stop the session from finishing its turn.
                log.warning("could not send a session update", exc_info=True)
            finally:
                self._queue.task_done()
