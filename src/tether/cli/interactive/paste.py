"""Long pastes, shown collapsed in the input box and sent whole.

A bracketed paste of more than `COLLAPSE_LINES` lines (or `COLLAPSE_CHARS` characters) is
put in the box as one token, `[Pasted text #1 +42 lines]`; sending the prompt puts the text
back where the token is. A token edited by hand no longer matches and is sent as typed.
"""

from __future__ import annotations

__all__ = ["COLLAPSE_CHARS", "COLLAPSE_LINES", "Pastes"]

COLLAPSE_LINES = 8
"""A paste with more lines than this is collapsed."""
COLLAPSE_CHARS = 1000
"""A paste longer than this is collapsed, however few its lines."""


class Pastes:
    """The collapsed pastes of the prompt being written."""

    def __init__(self) -> None:
        self._texts: dict[str, str] = {}

    def insertion(self, pasted: str) -> str:
        """What to put in the box for `pasted`: the text itself, or a token for a long one."""
        text = pasted.replace("\r\n", "\n").replace("\r", "\n")
        lines = text.count("\n") + 1
        if lines <= COLLAPSE_LINES and len(text) <= COLLAPSE_CHARS:
            return text
        number = len(self._texts) + 1
        more = f"+{lines} lines" if lines > 1 else f"{len(text)} characters"
        token = f"[Pasted text #{number} {more}]"
        self._texts[token] = text
        return token

    def expand(self, typed: str) -> str:
        """The prompt with every token put back as the text it stands for."""
        for token, text in self._texts.items():
            typed = typed.replace(token, text)
        return typed

    def clear(self) -> None:
        """Forget the pastes (the prompt was sent or thrown away)."""
        self._texts.clear()
