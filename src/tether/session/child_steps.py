"""A child session's updates, turned into the progress its parent's `task` card shows."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from tether.session.updates import (
    AgentText,
    AgentThought,
    ClientUpdate,
    ThoughtFinished,
    ToolCallFinished,
    ToolCallStarted,
)
from tether.tools.delegate import ChildProgress
from tether.tools.task.meta import refusals
from tether.views import ToolCallView

__all__ = ["THOUGHT_EVERY", "THOUGHT_SHOWN", "ChildSteps"]

log = logging.getLogger(__name__)

THOUGHT_SHOWN = 200
"""Characters of a child's thought its parent's card shows (the end of it)."""
THOUGHT_EVERY = 0.25
"""Seconds between two reports of a thought as it streams (its end is always reported)."""


class ChildSteps:
    """A child's updates, turned into its progress: its current step, its calls so far, and
    the end of its thought while it thinks."""

    def __init__(self, agent: str, progress: Callable[[ChildProgress], None]) -> None:
        self.agent = agent
        self.session_id = ""
        self.calls = 0
        self.refused = 0
        """Calls refused for want of someone to approve them, its children's included."""
        self.views: dict[str, ToolCallView] = {}
        """The child's running calls' cards, by id (what a permission question shows)."""
        self.thought = ""
        """What the child is thinking now (kept until it calls a tool or writes)."""
        self._progress = progress
        self._shown: tuple[str, int, str] | None = None
        self._thought_at = 0.0

    def __call__(self, update: ClientUpdate) -> None:
        match update:
            case AgentThought(text=chunk):
                self.thought = (self.thought + chunk)[-4 * THOUGHT_SHOWN :]
                # A thought streams in many small chunks: the card follows it a few times a
                # second, not once per chunk.
                if time.monotonic() - self._thought_at < THOUGHT_EVERY:
                    return
                self._thought_at = time.monotonic()
                self.show("thinking")
                return
            case ThoughtFinished():
                self.show("thinking")  # the thought's end, however fast it came
                return
            case ToolCallStarted(tool_call_id=call_id, view=view):
                self.calls += 1
                self.views[call_id] = view
                self.thought = ""
            case ToolCallFinished(tool_call_id=call_id, permission=permission, result=result):
                self.views.pop(call_id, None)
                self.refused += (permission == "refused") + refusals(result.meta)
            case AgentText() if not self.views:
                self.thought = ""
                self.show("writing")
                return
            case _:
                return
        self.show(self._running() or "thinking")

    def show(self, activity: str) -> None:
        """Tell the parent what the child does now, if that changed (or its count did)."""
        thought = _thought_end(self.thought)
        shown = (activity, self.calls, thought)
        if shown == self._shown:
            return
        self._shown = shown
        step = ChildProgress(self.agent, self.session_id, activity, self.calls, thought or None)
        try:
            self._progress(step)
        except Exception:
            log.exception("reporting the progress of %s failed", self.session_id)

    def _running(self) -> str:
        titles = [view.title for view in self.views.values()]
        if not titles:
            return ""
        more = f" (+{len(titles) - 1} more)" if len(titles) > 1 else ""
        return titles[-1] + more


def _thought_end(thought: str) -> str:
    """The last `THOUGHT_SHOWN` characters of a thought, on one line."""
    flat = " ".join(thought.split())
    return flat if len(flat) <= THOUGHT_SHOWN else "…" + flat[-THOUGHT_SHOWN + 1 :]
