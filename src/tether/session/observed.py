"""What the session has read or written, kept in the log so a loaded session still has it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tether.session.events import Event, ObservedFile, ToolResultEvent
from tether.tools.observations import FileObservations, FileVersion

__all__ = ["observations_from", "observed_file"]


def observations_from(events: Sequence[Event]) -> FileObservations:
    """What the log says the session has seen, so a loaded session can edit without rereading.

    A file that changed since is still refused by the version check, as in a live session.
    """
    observations = FileObservations()
    for event in events:
        if isinstance(event, ToolResultEvent) and event.observed:
            for seen in event.observed:
                version = FileVersion(seen.size, seen.mtime_ns, seen.sha256)
                observations.record(Path(seen.path), version)
    return observations


def observed_file(path: Path, version: FileVersion) -> ObservedFile:
    """The log's record of one version a call saw."""
    return ObservedFile(
        path=str(path), size=version.size, mtime_ns=version.mtime_ns, sha256=version.sha256
    )
