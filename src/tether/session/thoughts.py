"""How long the model thought: one clock for the live loop and the replay, so both agree.

A run of `assistant/thinking` chunks is one thought. It began when the request went out
(the time of the event logged just before its first chunk) and ended with its last chunk;
it is closed, with a `ThoughtFinished`, by whatever comes next.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tether.session.log.events import AssistantThinking, Event
from tether.session.updates import AgentThought, ThoughtFinished

__all__ = ["ThoughtClock"]


def _at(time: str) -> datetime | None:
    try:
        return datetime.fromisoformat(time)
    except ValueError:
        return None


@dataclass
class ThoughtClock:
    """Follows the thinking chunks of a log, in order."""

    _began: str | None = None
    _last: str | None = None

    @property
    def open(self) -> bool:
        """Whether a thought is running (chunks came and nothing else yet)."""
        return self._last is not None

    def chunk(self, event: AssistantThinking, previous: Event | None) -> AgentThought:
        """The update of one logged chunk; `previous` is the event logged before it."""
        if self._last is None:
            self._began = previous.time if previous is not None else event.time
        self._last = event.time
        return AgentThought(text=event.text)

    def step(
        self, event: Event | None, previous: Event | None
    ) -> list[AgentThought | ThoughtFinished]:
        """The updates of the next logged event as far as thinking goes (`None`: the log's end)."""
        if isinstance(event, AssistantThinking):
            return [self.chunk(event, previous)]
        finished = self.close()
        return [finished] if finished is not None else []

    def close(self) -> ThoughtFinished | None:
        """The end of the running thought, if one is running."""
        if self._last is None:
            return None
        began, last = _at(self._began or ""), _at(self._last)
        self._began = self._last = None
        ms = 0
        if began is not None and last is not None:
            ms = max(0, round((last - began).total_seconds() * 1000))
        return ThoughtFinished(duration_ms=ms)
