"""What a session's log records and tells: its id, title, parent and options, the person's
trust answer, and the calls a person runs between prompts (`Session` is built on it)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from tether.session.calls import unique_ids
from tether.session.log.eventlog import E, EventLog
from tether.session.log.events import (
    Event,
    ParentLink,
    SessionTitle,
    ToolCallEvent,
    ToolResultEvent,
    configured,
)
from tether.session.log.workspace_events import TrustEvent
from tether.session.notices import TrustSettled
from tether.session.updates import TitleChanged

__all__ = ["SessionRecords"]


class SessionRecords:
    """A session's records in its event log, read and written."""

    _log: EventLog

    @property
    def id(self) -> str:
        """The session id (the log's file name)."""
        return self._log.header.id

    @property
    def title(self) -> str | None:
        """The title, once the first prompt set it."""
        titles = [e.title for e in self._log.events if isinstance(e, SessionTitle)]
        return titles[-1] if titles else None

    @property
    def events(self) -> Sequence[Event]:
        """Every event of the log so far (read-only)."""
        return tuple(self._log.events)

    def rename(self, title: str) -> TitleChanged:
        """Give the session a title of a person's choosing (kept in the log; a first prompt
        no longer names it)."""
        return TitleChanged(title=self._append(SessionTitle(title=title)).title)

    def record_trust(self, event: TrustEvent) -> TrustSettled:
        """Log the person's answer about trusting the workspace; the notice that shows it."""
        stored = self._append(event)
        return TrustSettled(root=stored.root, decision=stored.decision)

    @property
    def trust_answer(self) -> TrustEvent | None:
        """The last answer this session's log holds about trusting its workspace."""
        answers = [e for e in self._log.events if isinstance(e, TrustEvent)]
        return answers[-1] if answers else None

    def record_call(self, call: ToolCallEvent) -> ToolCallEvent:
        """Log a call a person runs themselves between prompts (`!command`), under an id no
        earlier call of the log has; its card replays like any other."""
        [call_id] = unique_ids([call.tool_call_id], self._log.call_ids)
        return self._append(dataclasses.replace(call, tool_call_id=call_id))

    def record_result(self, result: ToolResultEvent) -> ToolResultEvent:
        """Log the result of a call `record_call` logged, on disk at once."""
        event = self._append(result)
        self._log.sync()
        return event

    @property
    def parent(self) -> ParentLink | None:
        """The session and call that started this one, for a child session."""
        return self._log.header.parent

    def configured(self, config_id: str) -> str | None:
        """The last value the log holds for a session option (`model`), if it was ever set."""
        return configured(self._log.events, config_id)

    def _append(self, event: E) -> E:
        return self._log.append(event)
