"""What a line that starts with `/` means: a command, a mistyped command, or text.

`/name` that names no command is a mistake to say, not a prompt to send: `/review x` sent to
the model as text would cost a request and a confused answer. Text that only looks like one
still goes as text: a path (`/usr/bin is gone`), a line starting with `//` (sent with one
slash) or with a space.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

__all__ = ["literal", "unknown_command"]

_NAME = re.compile(r"/([\w.:-]+)(?:\s|$)")
"""`/name`: a command's shape (a path has a second slash, so it is text)."""


def literal(text: str) -> str | None:
    """The text to send for a line that escapes its slash (`//text` → `/text`), else None."""
    return text[1:] if text.startswith("//") else None


def unknown_command(text: str, names: Sequence[str]) -> str | None:
    """What to say of `/name ...` when no command has that name; None when one does, or when
    the line is no command at all."""
    called = _NAME.match(text)
    if called is None or called[1] in names:
        return None
    name = called[1]
    near = [n for n in names if n.startswith(name) or name.startswith(n)]
    near += difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    nearest = list(dict.fromkeys(near))[:3]
    hint = f"; did you mean {', '.join(f'/{n}' for n in nearest)}?" if nearest else ""
    return (
        f"unknown command /{name}{hint} (/help lists them; start with // or a space to send "
        "the text to the model)"
    )
