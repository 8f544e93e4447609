"""Cards and plain paragraphs written straight to a console's file: the text `Console.print`
writes for them, without its machinery.

`Console.print` collects, checks and buffers every renderable, renders it through its
protocol, crops its lines and writes the buffer under a lock: for a replayed session of
thousands of cards, as much as drawing them. A card that draws its own lines (`Card`) and a
paragraph that fits (`PlainParagraph`) already give lines of exactly the console's width, so
there is nothing to crop: their segments are rendered as the console renders its buffer and
written at once. Anything else, and any console that is not plainly writing to its file
(recording, quiet, inside a `with console:` block, with render hooks such as a `Live`, soft
wrapping, Jupyter or a legacy Windows terminal), goes through `Console.print` as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO
from weakref import WeakKeyDictionary, ref

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.text import Text

__all__ = [
    "Streamed",
    "WholeLines",
    "bare_options",
    "print_bare",
    "print_line_break",
    "print_renderable",
]


class WholeLines:
    """A renderable that can draw itself as whole lines of the width it is given, each
    ending in a line break, with nothing for `Console.print` to crop."""

    def drawn(self, console: Console, options: ConsoleOptions) -> list[Segment] | None:
        """Its segments; None where rich must lay it out (and `Console.print` crop it)."""
        raise NotImplementedError


class Streamed:
    """A renderable that can give what `Console.print` writes of it in pieces, each let go
    once written (rich lays it out whole, holding every line until the last)."""

    def pieces(self, console: Console, options: ConsoleOptions) -> Iterator[list[Segment]] | None:
        """Its segments, a piece at a time, cropped as `Console.print` crops; None where only
        `Console.print` is sure to write it right."""
        raise NotImplementedError


def print_renderable(console: Console, renderable: RenderableType, *, crop: bool = True) -> None:
    """`console.print(renderable, crop=crop)`, written directly where that gives its text."""
    if not _writes_plainly(console):
        console.print(renderable, crop=crop)
        return
    options, file = _settled(console)
    if crop and isinstance(renderable, Streamed):
        pieces = renderable.pieces(console, options)
        if pieces is not None:
            for piece in pieces:
                _write(console, file, piece)
            return
    segments = _drawn(console, renderable, options)
    if segments is None:
        console.print(renderable, crop=crop)
        return
    _write(console, file, segments)


def _write(console: Console, file: IO[str], segments: list[Segment]) -> None:
    """The segments, rendered as the console renders its buffer, written to its file."""
    if len(segments) == 1 and not segments[0].style and not segments[0].control:
        text = segments[0].text  # one bare piece renders as itself
    else:
        text = console._render_buffer(segments)
    try:
        file.write(text)
        file.flush()
    except BrokenPipeError:
        console.on_broken_pipe()


def bare_options(console: Console) -> ConsoleOptions | None:
    """The options `Console.print` renders with, where it would write a card's bare text (no
    colour, nothing recorded, nothing between it and its file); None elsewhere."""
    if console.color_system is not None or not _writes_plainly(console):
        return None
    options = _settled(console)[0]
    return options if options.justify is None else None


def print_bare(console: Console, text: str) -> None:
    """Write `text`, lines a card drew as bare text for a console of `bare_options`."""
    _write(console, _settled(console)[1], [Segment(text)])


def print_line_break(console: Console) -> None:
    """`console.print()`: an empty line."""
    if not _writes_plainly(console):
        console.print()
        return
    file = _file(console)
    try:
        file.write("\n")
        file.flush()
    except BrokenPipeError:
        console.on_broken_pipe()


def _writes_plainly(console: Console) -> bool:
    """Whether `console.print` would render and write its buffer with nothing in between."""
    return not (
        console.record
        or console.quiet
        or console.soft_wrap
        or console.is_jupyter
        or console.legacy_windows
        or console._buffer_index
        or console._render_hooks
    )


def _drawn(
    console: Console, renderable: RenderableType, options: ConsoleOptions
) -> list[Segment] | None:
    """The segments of a renderable that draws whole lines of the console's width; None
    for anything `Console.print` must lay out (and crop) itself."""
    if isinstance(renderable, WholeLines):
        return renderable.drawn(console, options)
    if isinstance(renderable, Text):
        return _one_line(console, renderable, options.max_width)
    return None


def _one_line(console: Console, text: Text, width: int) -> list[Segment] | None:
    """What `Console.print` writes of a text that fits on one line as it is: the text joined
    into one, as `print` joins the texts it is given (its style a span, its justify, overflow
    and wrapping dropped), drawn with its line break. None for anything to wrap or cut."""
    plain = text.plain
    if "\n" in plain or "\t" in plain or cell_len(plain) > width:
        return None
    if len(plain) > width and plain[-1:].isspace():
        return None  # rich's wrapping cuts those spaces by their count of characters
    if any(not span.start <= span.end <= len(plain) for span in text.spans):
        return None  # rich's layout clips such a span first
    if console.color_system is None:
        return [Segment(plain + "\n")]  # its styles write nothing: its bare text
    joined = Text(" ", end="\n").join([text])
    return list(joined.render(console, end="\n"))


def _print_options(console: Console) -> ConsoleOptions:
    """The options `Console.print` renders with when given no arguments."""
    return _settled(console)[0]


def _file(console: Console) -> IO[str]:
    """The file `Console.print` writes to."""
    return _settled(console)[1]


def _settled(console: Console) -> tuple[ConsoleOptions, IO[str]]:
    """The console's print options and file, found once for a console given its size and
    its file (they ask the file its encoding, whether it is a terminal, whether it stands
    for another): not at every card."""
    key = (console._file, console._width, console._height, console._force_terminal)
    last = _LAST[0]
    if last is not None and last[0]() is console and last[1] == key:
        return last[2], last[3]  # the console printed to last, as it was
    settled = None not in (console._width, console._height, console._file)
    kept = _KEPT.get(console) if settled else None
    if kept is not None and kept[0] == key:
        _LAST[0] = (ref(console), key, kept[1], kept[2])
        return kept[1], kept[2]
    options = console.options.update(
        justify=None, overflow=None, height=None, no_wrap=None, markup=None, highlight=None
    )
    file = console.file
    if settled:
        _KEPT[console] = (key, options, file)
        _LAST[0] = (ref(console), key, options, file)
    return options, file


_KEPT: WeakKeyDictionary[Console, tuple[tuple[object, ...], ConsoleOptions, IO[str]]] = (
    WeakKeyDictionary()
)
"""Each settled console's print options and file, with what they were found for."""
_LAST: list[tuple[ref[Console], tuple[object, ...], ConsoleOptions, IO[str]] | None] = [None]
"""The last of them asked for, found again without a look-up (a replayed session asks for the
same console's at every card and line of text)."""
