"""One session's tool calls as the client saw them announced: titles and cards to repeat.

A call's `tool_call` is the one place its title, kind, content and locations are decided.
The result repeats that title, and a permission request repeats all of it, so a client
shows one title per call and can show what it approves without any earlier update.
"""

from __future__ import annotations

from pathlib import Path

from acp import text_block, tool_content
from acp.schema import ToolCallProgress, ToolCallStart, ToolCallUpdate

from tether.acp.content import console_text
from tether.acp.mapping import AcpUpdate, acp_update
from tether.acp.plan import plan_update
from tether.session import ClientUpdate, ToolCallFinished, ToolCallPartial, ToolCallStarted
from tether.tools.todo import TODO_TOOL, todos_from_meta
from tether.views import TerminalCallView

__all__ = ["SessionCalls"]


class SessionCalls:
    """Maps a session's updates to ACP and remembers each call's `tool_call` until it ends."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self._started: dict[str, tuple[ToolCallStarted, ToolCallStart]] = {}

    def acp(self, update: ClientUpdate) -> list[AcpUpdate]:
        """The ACP updates for `update` (the same function live and on `session/load`).

        A finished `todo` call is also the session's new plan: a `plan` update follows it.
        """
        match update:
            case ToolCallStarted(tool_call_id=call_id):
                start = acp_update(update, self.cwd)
                assert isinstance(start, ToolCallStart)
                self._started[call_id] = (update, start)
                return [start]
            case ToolCallPartial(tool_call_id=call_id):
                return _some(acp_update(update, self.cwd, self._title(call_id)))
            case ToolCallFinished(tool_call_id=call_id):
                started = self._started.pop(call_id, None)
                title = started[1].title if started else None
                updates = _some(acp_update(update, self.cwd, title))
                todos = todos_from_meta(update.result.meta) if not update.result.is_error else None
                if started is not None and started[0].name == TODO_TOOL and todos is not None:
                    updates.append(plan_update(todos))
                return updates
            case _:
                return _some(acp_update(update, self.cwd))

    def permission_call(self, call_id: str, reason: str, fallback_title: str) -> ToolCallUpdate:
        """The `toolCall` of a permission request: everything the call's `tool_call` said."""
        known = self._started.get(call_id)
        if known is None:
            meta = {"tether": {"reason": reason}}
            return ToolCallUpdate(tool_call_id=call_id, title=fallback_title, field_meta=meta)
        started, start = known
        content = list(start.content or ())
        if isinstance(started.view, TerminalCallView):
            # A command's card has no output before it runs; the request shows what will run
            # first, then how (its sandbox).
            content.insert(0, tool_content(text_block(console_text(started.view.title, ""))))
        meta = dict(start.field_meta or {})
        meta["tether"] = {**meta.get("tether", {}), "reason": reason}
        return ToolCallUpdate(
            tool_call_id=call_id,
            title=start.title,
            kind=start.kind,
            status="pending",
            content=content or None,
            locations=start.locations,
            raw_input=start.raw_input,
            field_meta=meta,
        )

    def announced(self, call_id: str) -> ToolCallProgress | None:
        """The call as its `tool_call` announced it (title, kind, content, locations), to give
        it back after a request that showed it as something else (a child's step)."""
        known = self._started.get(call_id)
        if known is None:
            return None
        start = known[1]
        return ToolCallProgress(
            session_update="tool_call_update",
            tool_call_id=call_id,
            status="in_progress",
            title=start.title,
            kind=start.kind,
            content=start.content or [],
            locations=start.locations or [],
        )

    def _title(self, call_id: str) -> str | None:
        known = self._started.get(call_id)
        return known[1].title if known is not None else None


def _some(update: AcpUpdate | None) -> list[AcpUpdate]:
    return [update] if update is not None else []
