"""Text the terminal can take: what a model or a log says may not be encodable as it is.

A tool argument may carry a lone surrogate (`"\\ud800"` is valid JSON, but no encoding can
write it), and a terminal may be ASCII or Latin-1. Every console and every plain `print` of
the command line writes through `SafeStream`, so no string can make a write fail: lone
surrogates become U+FFFD and anything else the encoding lacks becomes a backslash escape.
"""

from __future__ import annotations

import codecs
import json
import re
import sys
from typing import TYPE_CHECKING, Any, TextIO, cast

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "SafeStream",
    "consoles",
    "is_utf8",
    "print_json",
    "print_json_line",
    "safe_text",
    "stderr",
    "stdout",
]

_SURROGATE = re.compile("[\ud800-\udfff]")
_UTF8 = frozenset({"utf-8", "UTF-8", "utf8", "UTF8", "utf_8"})
"""UTF-8's names as streams give them."""


def is_utf8(encoding: str) -> bool:
    """Whether `encoding` names UTF-8."""
    if encoding in _UTF8:
        return True
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


def safe_text(text: str, encoding: str) -> str:
    """`text` as `encoding` can write it: U+FFFD for lone surrogates, escapes for the rest."""
    try:
        # UTF-8 fails on a surrogate and nothing else: a C pass, where looking for one with
        # the pattern was a quarter of writing a replayed session out.
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = _SURROGATE.sub("\ufffd", text)
    else:
        if encoding in _UTF8:
            return text
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return text.encode(encoding, "backslashreplace").decode(encoding)
    except LookupError:  # an encoding Python does not know: plain ASCII always works
        return text.encode("ascii", "backslashreplace").decode("ascii")
    return text


class SafeStream:
    """A text stream that makes each write safe for its encoding; the rest is the stream's."""

    def __init__(self, stream: TextIO, encoding: str | None = None) -> None:
        self._stream = stream
        self.encoding = encoding or getattr(stream, "encoding", None) or "utf-8"

    def write(self, text: str) -> int:
        """Write `text`, made safe first."""
        return self._stream.write(safe_text(text, self.encoding))

    def __getattr__(self, name: str) -> Any:
        # flush, isatty, fileno...: rich asks the file for these, and they are the stream's.
        return getattr(self._stream, name)


def stdout() -> TextIO:
    """The process's stdout, safe."""
    return cast(TextIO, SafeStream(sys.stdout))


def stderr() -> TextIO:
    """The process's stderr, safe."""
    return cast(TextIO, SafeStream(sys.stderr))


def print_json(document: object) -> None:
    """`document` as indented JSON on stdout; JSON escapes where the encoding falls short.

    A backslash escape inside a JSON string would be invalid JSON, so text the terminal
    cannot take (a lone surrogate included) is written with JSON's own `\\uXXXX` instead.
    """
    text = json.dumps(document, indent=2, ensure_ascii=False)
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    if safe_text(text, encoding) != text:
        text = json.dumps(document, indent=2, ensure_ascii=True)
    sys.stdout.write(text + "\n")


def consoles(*, settled: bool = False) -> tuple[Console, Console]:
    """stdout for the conversation, stderr for status and errors; `settled`: whether each is
    a terminal, and its size, found once (a document drawn at one width, as `tether show`
    draws a session) rather than again at every print."""
    from rich.console import Console  # with the first command that prints through it

    class PipedConsole(Console):
        """A reader gone (`tether show ID | head`) ends the command as every other write
        does (`tether.cli` stops quietly with 141), not with rich's silent status 1."""

        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    # Through safe streams: no string a model or a log holds can make a write fail.
    made = (
        PipedConsole(file=stdout(), highlight=False),
        PipedConsole(file=stderr(), highlight=False),
    )
    if not settled:
        return made
    out, err = (
        PipedConsole(
            file=console.file,
            highlight=False,
            force_terminal=console.is_terminal,
            width=console.width,
            height=console.height,
        )
        for console in made
    )
    return out, err


def print_json_line(document: object) -> None:
    """`document` as one line of compact JSON on stdout, flushed (a JSON Lines stream).

    As in `print_json`, text the encoding cannot take is written with JSON's own escapes.
    """
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    if safe_text(text, encoding) != text:
        text = json.dumps(document, ensure_ascii=True, separators=(",", ":"))
    sys.stdout.write(text + "\n")
    sys.stdout.flush()  # a program reading the stream acts on each line as it comes
