"""Claude Code's `*` in bash rules (`git * main`): matching a command's words against it.

The words are joined by single spaces and `*` stands for any text, spaces included. A word
the parser cannot know (`$FLAGS`) may be any text: for deny and ask rules (`possibly`) it
counts when some text in its place would match; for allow rules only when a `*` of the
pattern takes all of it, so an allow rule never covers more than it says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

__all__ = ["wildcard_matches"]

Word = str | None
"""A word of a command; `None` when it cannot be known before the command runs."""


def wildcard_matches(
    pattern: tuple[str | None, ...], words: Sequence[Word], *, possibly: bool
) -> bool:
    """Whether `words` match `pattern` (characters, `None` for each `*`)."""
    if all(word is not None for word in words):
        return _regex(pattern).fullmatch(" ".join(w for w in words if w is not None)) is not None
    subject: list[str | None] = []
    for index, word in enumerate(words):
        if index:
            subject.append(" ")
        subject.extend([None] if word is None else list(word))
    return _aligned(pattern, subject, possibly=possibly)


@lru_cache(maxsize=256)
def _regex(pattern: tuple[str | None, ...]) -> re.Pattern[str]:
    return re.compile("".join(".*" if c is None else re.escape(c) for c in pattern), re.DOTALL)


def _aligned(
    pattern: Sequence[str | None], subject: Sequence[str | None], *, possibly: bool
) -> bool:
    """Whether the pattern's stars and the subject's unknown words can be lined up: with
    `possibly`, whether some text matches both; without, whether each unknown word falls
    wholly inside one star."""
    width = len(subject)
    # below[j]: whether pattern[i + 1:] lines up with subject[j:]; built from the end.
    below: list[bool] = []
    for i in range(len(pattern), -1, -1):
        row = [False] * (width + 1)
        for j in range(width, -1, -1):
            if i == len(pattern):
                row[j] = j == width or (possibly and all(s is None for s in subject[j:]))
                continue
            token = pattern[i]
            other = subject[j] if j < width else ""
            ok = False
            if token is None:
                # A star takes nothing more, or takes the next character or unknown word.
                ok = below[j] or (j < width and row[j + 1])
            if not ok and j < width and other is None and possibly:
                # An unknown word ends here, or stands for the pattern's next character.
                ok = row[j + 1] or below[j]
            if not ok and j < width and token is not None and other == token:
                ok = below[j + 1]
            row[j] = ok
        below = row
    return below[0]
