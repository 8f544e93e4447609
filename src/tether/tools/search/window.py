"""Grep's `offset`: the first entries of a result left out, so a model can page through it.

An entry is what the output mode lists: a matching line (`content`), a file (`count`,
`files_with_matches`). Context lines go with the match they surround: those before the first
entry kept stay only within its before-context.
"""

from __future__ import annotations

from tether.tools.search.value import OutputMode
from tether.views import SearchFile

__all__ = ["MAX_OFFSET", "skip_entries"]

MAX_OFFSET = 5000
"""Entries a call may skip: the skipped ones are collected first, so memory bounds it."""


def skip_entries(
    files: tuple[SearchFile, ...], mode: OutputMode, offset: int, before: int
) -> tuple[SearchFile, ...]:
    """`files` without their first `offset` entries in `mode` (`before`: the `-B` context)."""
    if offset <= 0:
        return files
    if mode != "content":
        return files[offset:]
    out: list[SearchFile] = []
    left = offset
    for file in files:
        matches = [line for line in file.matches if not line.context]
        if left >= len(matches):
            left -= len(matches)
            continue
        if left == 0:
            out.append(file)
            continue
        first = matches[left].line_number
        left = 0
        kept = tuple(
            line
            for line in file.matches
            if line.line_number >= first or (line.context and line.line_number >= first - before)
        )
        out.append(SearchFile(path=file.path, matches=kept))
    return tuple(out)
