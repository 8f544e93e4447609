"""What was typed before the screen took the terminal: `tether`, then a prompt and Enter at once.

Until the screen puts the terminal in raw mode, the terminal is in line mode: it echoes what
is typed and turns Enter into a line feed, which the input box would read as Ctrl+J (a new
line), so the prompt stayed in the box unsent, under its echo, and the screen was drawn
after the echo of an unfinished line. What was typed ahead is taken here before the screen
starts: each Enter is an Enter again, and the echo is erased (the screen draws where it was).
"""

from __future__ import annotations

import contextlib
import os
import select
import termios
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.input.typeahead import store_typeahead
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPress

from tether.cli.interactive.output import ERASE_BELOW

__all__ = ["take_typeahead"]

_LIMIT = 1 << 16
"""Bytes taken at most (the rest of a larger paste reaches the box as it is)."""


def take_typeahead(app: Application[int], fd: int, columns: int) -> str:
    """Hand what was typed ahead on `fd` to `app` as key presses, erase its echo, and return
    it as read (empty when nothing was typed)."""
    try:
        saved = termios.tcgetattr(fd)
    except termios.error:
        return ""
    raw = _pending(fd, saved)
    if not raw:
        return ""
    text = raw.decode(errors="replace")
    keys: list[KeyPress] = []
    # The terminal turned each Enter into a line feed (ICRNL): it was an Enter.
    Vt100Parser(keys.append).feed_and_flush(text.replace("\n", "\r"))
    store_typeahead(app.input, keys)
    if saved[3] & termios.ECHO:
        width = max(columns, 1)
        *lines, unfinished = text.split("\n")
        up = sum(max(1, -(-len(line) // width)) for line in lines) + len(unfinished) // width
        app.output.write_raw(f"\r\x1b[{up}A{ERASE_BELOW}" if up else f"\r{ERASE_BELOW}")
        app.output.flush()
    return text


def _pending(fd: int, saved: list[Any]) -> bytes:
    """Everything waiting on `fd`, an unfinished line too (line mode is left for the read)."""
    reading = list(saved)
    reading[3] = saved[3] & ~(termios.ICANON | termios.ECHO)
    raw = b""
    try:
        termios.tcsetattr(fd, termios.TCSANOW, reading)
    except termios.error:
        return b""
    try:
        while len(raw) < _LIMIT and select.select([fd], [], [], 0)[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            raw += chunk
    finally:
        with contextlib.suppress(termios.error):
            termios.tcsetattr(fd, termios.TCSANOW, saved)
    return raw
