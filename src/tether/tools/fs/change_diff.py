"""The change a write or an edit applied, as stored in a result's `meta` and shown as a diff card.

`meta` is `{"path": str, "diffs": [{"path", "oldText", "newText"}], "lines": [int, ...]}`:
one diff per hunk (a write stores one diff of the whole file) and the 1-based line in the new
file where each starts. The card is derived from that JSON alone, so it is the same live and
on replay; anything malformed gives `None` and the generic card.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import JsonValue

from tether.tools.result import ToolResult
from tether.views import DiffCallView, DiffResultView, FileDiff, Location
from tether.views.trusted import trusted

__all__ = ["MAX_DIFF_CHARS", "AppliedChange", "change_meta", "change_view", "diff_result_view"]

MAX_DIFF_CHARS = 256_000
"""The most text a stored diff may hold; a larger change is shown as the generic card."""


@dataclass(frozen=True)
class AppliedChange:
    """What a write or an edit did to one file: diffs to show and a summary for the model."""

    path: Path
    diffs: tuple[FileDiff, ...]
    lines: tuple[int, ...]
    """Where each diff starts in the new file, 1-based."""
    created: bool
    line_count: int
    """Lines in the file after the change."""
    replacements: int = 0
    """How many occurrences an edit replaced (0 for a write)."""


def change_meta(change: AppliedChange) -> JsonValue:
    """The JSON stored with the result, or `None` when the diff is too large to keep."""
    size = sum(len(d.old_text or "") + len(d.new_text) for d in change.diffs)
    if size > MAX_DIFF_CHARS:
        return None
    diffs: list[JsonValue] = [
        {"path": d.path, "oldText": d.old_text, "newText": d.new_text} for d in change.diffs
    ]
    lines: list[JsonValue] = list(change.lines)
    return {"path": str(change.path), "diffs": diffs, "lines": lines}


def change_view(change: AppliedChange, verb: str) -> DiffCallView:
    """A change not made yet, as the card that asks for it: the same hunks, title and lines
    its result card will show once it is applied."""
    path = str(change.path)
    return DiffCallView(
        title=f"{verb} {path}",
        diffs=change.diffs,
        locations=tuple(Location(path=path, line=line) for line in change.lines),
    )


def diff_result_view(result: ToolResult, verb: str) -> DiffResultView | None:
    """The diff card of a successful result, from its `meta`; `None` for anything else."""
    meta = result.meta
    if result.is_error or not isinstance(meta, dict):
        return None
    path, raw_diffs, raw_lines = meta.get("path"), meta.get("diffs"), meta.get("lines")
    if not isinstance(path, str) or not isinstance(raw_diffs, list):
        return None
    if not isinstance(raw_lines, list) or len(raw_lines) != len(raw_diffs):
        return None
    if not raw_diffs:
        return None
    # Each value is checked as it is taken (a replay makes one per edit and write): the cards
    # are made without a second check, and the first value that is off gives the generic card.
    diffs: list[FileDiff] = []
    for item in raw_diffs:
        diff = _diff(item)
        if diff is None:
            return None
        diffs.append(diff)
    location = trusted(Location)
    locations: list[Location] = []
    for item in raw_lines:
        line = _line(item)
        if line is None:
            return None
        locations.append(location(path=path, line=line))
    return trusted(DiffResultView)(
        title=f"{verb} {path}", diffs=tuple(diffs), locations=tuple(locations)
    )


def _diff(item: JsonValue) -> FileDiff | None:
    if not isinstance(item, dict) or "oldText" not in item:
        return None
    path, old, new = item.get("path"), item.get("oldText"), item.get("newText")
    if not isinstance(path, str) or not isinstance(new, str):
        return None
    if old is not None and not isinstance(old, str):
        return None
    return trusted(FileDiff)(path=path, old_text=old, new_text=new)


def _line(item: JsonValue) -> int | None:
    if isinstance(item, bool) or not isinstance(item, int) or item < 1:
        return None
    return item
