"""Grep's collector: ripgrep's `--json` stream folded into the first matches and the total.

ripgrep searches files in parallel and prints each file's messages together (`begin`,
`match`..., `end`), files in no fixed order. To show the first `limit` matches in path order
whatever that order, committed files are kept sorted and those that can no longer make the
cut are evicted, so memory stays bounded by the limit. The total comes from each file's
`end` statistics, so matches past the cut are counted without being decoded. A file whose
`end` names a binary offset is dropped whole: binary files are not searched.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable
from dataclasses import dataclass, field

from tether.tools.search.preview import json_text, preview
from tether.views import SearchFile, SearchMatch

__all__ = ["MatchCollector"]

_MATCH = b'{"type":"match"'

PathKey = tuple[bytes, ...]


@dataclass(order=True)
class _Kept:
    key: PathKey
    path: bytes = field(compare=False)
    matches: list[SearchMatch] = field(compare=False)


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
        self.finished = False
        """ripgrep's closing summary arrived: the search ran to its end."""

    def feed(self, line: bytes) -> None:
        """Take one line of `rg --json` output."""
        if line.startswith(_MATCH):
            if not self._skip_current:
                self._match(json.loads(line)["data"])
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

    def stop(self) -> None:
        """The search was stopped mid-file: keep what that file showed so far (a lower bound)."""
        current, self._current = self._current, None
        if current is not None and current.matches:
            self.total += len(current.matches)
            self._commit(current)

    def files(self) -> tuple[SearchFile, ...]:
        """The kept matches grouped by file, in path order, at most `limit` of them."""
        out = []
        room = self.limit
        for kept in self._kept:
            if room <= 0:
                break
            matches = tuple(kept.matches[:room])
            room -= len(matches)
            out.append(SearchFile(path=self._display(kept.path), matches=matches))
        return tuple(out)

    def _begin(self, path: bytes) -> None:
        kept = _Kept(_key(path), path, [])
        self._current = kept
        # A file that sorts after every kept one cannot make the cut once the cut is full.
        self._skip_current = self._kept_count >= self.limit and kept > self._kept[-1]

    def _match(self, data: dict[str, object]) -> None:
        current = self._current
        if current is None or len(current.matches) >= self.limit:
            return
        number = data.get("line_number")
        if not isinstance(number, int) or number < 1:
            return  # ripgrep always numbers lines here; a match without one cannot be shown
        current.matches.append(
            SearchMatch(line_number=number, line=preview(json_text(data["lines"])))
        )

    def _end(self, data: dict[str, object]) -> None:
        current, self._current = self._current, None
        if data.get("binary_offset") is not None:
            return
        stats = data.get("stats")
        matched = stats.get("matched_lines") if isinstance(stats, dict) else None
        if isinstance(matched, int):
            self.total += matched
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
