"""Grep's collector: ripgrep's `--json` stream folded into the first matches and the total.

ripgrep searches files in parallel and prints each file's messages together (`begin`,
`match`..., `end`), files in no fixed order. To show the first `limit` matches in path order
whatever that order, committed files are kept sorted and those that can no longer make the
cut are evicted, so memory stays bounded by the limit. The total comes from each file's
`end` statistics, so matches past the cut are counted without being decoded. A file whose
`end` names a binary offset is dropped whole: binary files are not searched.

The stream is parsed lazily, since a search may print thousands of matches of which few are
shown: a match line is kept as raw JSON and decoded only if it makes the cut (a long one is
decoded at once, so what is held stays small), an `end` line is read by its two fields, and
a `begin` line whose path has nothing escaped is read by slicing.

Context lines (`-A/-B/-C`) are kept beside the matches of their file but do not count
toward the limit; when a file is cut, the lines after its last kept match stay only as far as
that match's own after-context reaches.
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
_CONTEXT = b'{"type":"context"'
_END = b'{"type":"end"'
_BEGIN_TEXT = b'{"type":"begin","data":{"path":{"text":"'
_BEGIN_CLOSE = b'"}}}'
_TEXT_BINARY = b'"binary_offset":null'
_MATCHED_LINES = re.compile(rb'"matched_lines":(\d+)')
_RAW_KEPT = 1 << 14
"""A match line up to this size is kept raw until it makes the cut; a longer one is cut now."""

PathKey = tuple[bytes, ...]


Kept = bytes | SearchMatch
"""A raw `match` or `context` JSON line, or the decoded line for a long one."""


@dataclass(order=True)
class _Kept:
    key: PathKey
    path: bytes = field(compare=False)
    lines: list[Kept] = field(compare=False)
    matched: int = field(default=0, compare=False)
    """How many of `lines` are matches (the rest are context)."""
    trailing: int = field(default=0, compare=False)
    """Context lines kept after the file reached the limit of matches."""


class MatchCollector:
    """Feed it ripgrep's JSON lines; it keeps the first `limit` matches and counts them all.

    `after` is the search's after-context (`-A`), which bounds the context kept past a cut.
    """

    def __init__(self, limit: int, display: Callable[[bytes], str], *, after: int = 0) -> None:
        self.limit = limit
        self.after = after
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
        if line.startswith(_MATCH) or line.startswith(_CONTEXT):
            if not self._skip_current:
                self._raw_line(line)
            return
        if line.startswith(_END) and (matched := _MATCHED_LINES.search(line)) is not None:
            self._finish(binary=_TEXT_BINARY not in line, matched=int(matched.group(1)))
            return
        if line.startswith(_BEGIN_TEXT) and line.endswith(_BEGIN_CLOSE) and b"\\" not in line:
            # A UTF-8 path with nothing escaped: its JSON string is its bytes.
            self._begin(line[len(_BEGIN_TEXT) : -len(_BEGIN_CLOSE)])
            return
        message = json.loads(line)
        kind, data = message.get("type"), message.get("data")
        if kind in ("match", "context"):
            if not self._skip_current:
                self._line(data, context=kind == "context")
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
        if current is not None and current.matched:
            self.total += current.matched
            self.total_files += 1
            self._commit(current)

    def files(self) -> tuple[SearchFile, ...]:
        """The kept matches grouped by file, in path order, at most `limit` of them, each with
        the context lines around it."""
        out = []
        room = self.limit
        for kept in self._kept:
            if room <= 0:
                break
            lines = self._cut(kept, room)
            room -= sum(not line.context for line in lines)
            out.append(SearchFile(path=self._display(kept.path), matches=lines))
        return tuple(out)

    def _cut(self, kept: _Kept, room: int) -> tuple[SearchMatch, ...]:
        """The file's lines up to its `room`-th match, and that match's after-context."""
        taken: list[SearchMatch] = []
        matches = 0
        for raw in kept.lines:
            line = _decoded(raw)
            if line is None:
                continue
            if not line.context:
                if matches == room:
                    break
                matches += 1
            taken.append(line)
        # Context past the last match belongs to it only within its after-context; the rest
        # leads up to a match that was cut.
        last = max((line.line_number for line in taken if not line.context), default=0)
        while taken and taken[-1].context and taken[-1].line_number > last + self.after:
            taken.pop()
        return tuple(taken)

    def _begin(self, path: bytes) -> None:
        kept = _Kept(_key(path), path, [])
        self._current = kept
        # A file that sorts after every kept one cannot make the cut once the cut is full.
        self._skip_current = self._kept_count >= self.limit and kept > self._kept[-1]

    def _raw_line(self, line: bytes) -> None:
        context = line.startswith(_CONTEXT)
        if not self._keeps(context):
            return
        if len(line) <= _RAW_KEPT:
            self._keep(line, context)
        else:
            self._line(json.loads(line)["data"], context=context)

    def _line(self, data: dict[str, object], *, context: bool) -> None:
        if not self._keeps(context):
            return
        found = _match(data, context)
        if found is not None:
            self._keep(found, context)

    def _keeps(self, context: bool) -> bool:
        # Matches up to the limit, with their context; past it, one match's after-context.
        current = self._current
        if current is None:
            return False
        if current.matched < self.limit:
            return True
        return context and current.trailing < self.after

    def _keep(self, line: Kept, context: bool) -> None:
        current = self._current
        assert current is not None
        if context and current.matched >= self.limit:
            current.trailing += 1
        current.lines.append(line)
        if not context:
            current.matched += 1

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
        if current is not None and current.matched:
            self._commit(current)

    def _commit(self, current: _Kept) -> None:
        bisect.insort(self._kept, current)
        self._kept_count += current.matched
        while len(self._kept) > 1 and self._kept_count - self._kept[-1].matched >= self.limit:
            self._kept_count -= self._kept.pop().matched


def _key(path: bytes) -> PathKey:
    # Component by component, so the files of one directory stay together as in a tree walk.
    return tuple(path.split(b"/"))


def _decoded(kept: Kept) -> SearchMatch | None:
    if isinstance(kept, SearchMatch):
        return kept
    data: dict[str, object] = json.loads(kept)["data"]
    return _match(data, kept.startswith(_CONTEXT))


def _match(data: dict[str, object], context: bool) -> SearchMatch | None:
    number = data.get("line_number")
    if not isinstance(number, int) or number < 1:
        return None  # ripgrep always numbers lines here; a line without one cannot be shown
    line = preview(json_text(data["lines"]))
    return SearchMatch(line_number=number, line=line, context=True if context else None)
