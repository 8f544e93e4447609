"""Grep's collector: ripgrep's `--json` stream folded into the first matches and the total.

ripgrep searches files in parallel and prints each file's messages together (`begin`,
`match`..., `end`), files in no fixed order. To show the first `limit` matches in path order
whatever that order, committed files are kept sorted and those that can no longer make the
cut are evicted, so memory stays bounded by the limit. The total comes from each file's
`end` statistics, so matches past the cut are counted without being decoded. A file whose
`end` names a binary offset is dropped whole: binary files are not searched.

The stream is parsed lazily, since a search may print thousands of matches of which few are
shown: a match line is kept as raw JSON and decoded only if it makes the cut (a long one is
decoded at once, so what is held stays small), and an `end` line is read by its two fields.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tether.tools.search.preview import json_text, preview
from tether.tools.search.rg import RgRun
from tether.views import SearchFile, SearchMatch

__all__ = ["MatchCollector"]

_MATCH = b'{"type":"match"'
_END = b'{"type":"end"'
_TEXT_BINARY = b'"binary_offset":null'
_MATCHED_LINES = re.compile(rb'"matched_lines":(\d+)')
_RAW_KEPT = 1 << 14
"""A match line up to this size is kept raw until it makes the cut; a longer one is cut now."""

PathKey = tuple[bytes, ...]


@dataclass(order=True)
class _Kept:
    key: PathKey
    path: bytes = field(compare=False)
    matches: list[bytes | SearchMatch] = field(compare=False)
    """Raw `match` JSON lines, or the decoded match for a long one."""


class MatchCollector:
    """Feed it ripgrep's JSON lines; it keeps the first `limit` matches and counts them all."""

    def __init__(self, limit: int, display: Callable[[bytes], str]) -> None:
        self.limit = limit
        self._display = display
        self._kept: list[_Kept] = []
        self._kept_count = 0
        self._current: _Kept | None = None
        self._skip_current = False
        self.total = 0
        self.total_files = 0
        """Files with at least one match, listed or not."""
        self.finished = False
        """ripgrep's closing summary arrived: the search ran to its end."""

    def feed(self, line: bytes) -> None:
        """Take one line of `rg --json` output."""
        if line.startswith(_MATCH):
            if not self._skip_current:
                self._raw_match(line)
            return
        if line.startswith(_END) and (matched := _MATCHED_LINES.search(line)) is not None:
            self._finish(binary=_TEXT_BINARY not in line, matched=int(matched.group(1)))
            return
        message = json.loads(line)
        kind, data = message.get("type"), message.get("data")
        if kind == "match":
            if not self._skip_current:
                self._match(data)
        elif kind == "begin":
            self._begin(json_text(data["path"]))
        elif kind == "end":
            self._end(data)
        elif kind == "summary":
            self.finished = True

    def ended(self, run: RgRun) -> bool:
        """Close after the run; `False` when ripgrep gave up before searching anything."""
        if run.stopped is not None:
            self.stop()
            return True
        # No closing summary: a bad pattern or glob, say.
        return self.finished

    def stop(self) -> None:
        """The search was stopped mid-file: keep what that file showed so far (a lower bound)."""
        current, self._current = self._current, None
        if current is not None and current.matches:
            self.total += len(current.matches)
            self.total_files += 1
            self._commit(current)

    def files(self) -> tuple[SearchFile, ...]:
        """The kept matches grouped by file, in path order, at most `limit` of them."""
        out = []
        room = self.limit
        for kept in self._kept:
            if room <= 0:
                break
            matches = kept.matches[:room]
            room -= len(matches)
            decoded = tuple(m for m in map(_decoded, matches) if m is not None)
            out.append(SearchFile(path=self._display(kept.path), matches=decoded))
        return tuple(out)

    def _begin(self, path: bytes) -> None:
        kept = _Kept(_key(path), path, [])
        self._current = kept
        # A file that sorts after every kept one cannot make the cut once the cut is full.
        self._skip_current = self._kept_count >= self.limit and kept > self._kept[-1]

    def _raw_match(self, line: bytes) -> None:
        current = self._current
        if current is None or len(current.matches) >= self.limit:
            return
        if len(line) <= _RAW_KEPT:
            current.matches.append(line)
        else:
            self._match(json.loads(line)["data"])

    def _match(self, data: dict[str, object]) -> None:
        current = self._current
        if current is None or len(current.matches) >= self.limit:
            return
        found = _match(data)
        if found is not None:
            current.matches.append(found)

    def _end(self, data: dict[str, object]) -> None:
        stats = data.get("stats")
        matched = stats.get("matched_lines") if isinstance(stats, dict) else None
        binary = data.get("binary_offset") is not None
        self._finish(binary=binary, matched=matched if isinstance(matched, int) else 0)

    def _finish(self, *, binary: bool, matched: int) -> None:
        current, self._current = self._current, None
        if binary:
            return
        self.total += matched
        self.total_files += matched > 0
        if current is not None and current.matches:
            self._commit(current)

    def _commit(self, current: _Kept) -> None:
        bisect.insort(self._kept, current)
        self._kept_count += len(current.matches)
        while len(self._kept) > 1 and self._kept_count - len(self._kept[-1].matches) >= self.limit:
            self._kept_count -= len(self._kept.pop().matches)


def _key(path: bytes) -> PathKey:
    # Component by component, so the files of one directory stay together as in a tree walk.
    return tuple(path.split(b"/"))


def _decoded(kept: bytes | SearchMatch) -> SearchMatch | None:
    if isinstance(kept, SearchMatch):
        return kept
    data: dict[str, object] = json.loads(kept)["data"]
    return _match(data)


def _match(data: dict[str, object]) -> SearchMatch | None:
    number = data.get("line_number")
    if not isinstance(number, int) or number < 1:
        return None  # ripgrep always numbers lines here; a match without one cannot be shown
    return SearchMatch(line_number=number, line=preview(json_text(data["lines"])))
