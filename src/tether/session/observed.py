"""What the session has read or written, kept in the log so a loaded session still has it."""

from __future__ import annotations

from collections.abc import Sequence

from tether.session.log.events import Event, ToolResultEvent
from tether.tools.observations import FileObservations

__all__ = ["observations_from"]


def observations_from(events: Sequence[Event]) -> FileObservations:
    """What the log says the session has seen, so a loaded session can edit without rereading.

    A file that changed since is still refused by the version check, as in a live session.
    """
    observations = FileObservations()
    for event in events:
        if isinstance(event, ToolResultEvent) and event.observed:
            for version in event.observed:
                observations.record(version)
    return observations
