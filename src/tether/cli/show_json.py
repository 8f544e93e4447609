"""`tether show ID --json`: a stored session as one JSON document, printed only once the whole
log has been read and found sound.

The log is read once: each line is checked as its event is made, and the event is replayed and
dumped at once. The document is held back meanwhile (in memory while it is small, then in an
unnamed temporary file: it is about two and a half times the log, too much to hold), and
printed after the last line, so a corrupt line is still an error before anything is printed.
Should holding it back fail (no room for the temporary file), the document is made again as it
was before: every line checked first, then each update printed as it is made.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import logging
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from pydantic import TypeAdapter
from pydantic_core import PydanticSerializationError

from tether.cli.safe_output import safe_text
from tether.session.document import SESSION_DOCUMENT, SessionDocument
from tether.session.log.events import SessionHeader
from tether.session.updates import ClientUpdate

__all__ = ["IN_MEMORY", "print_session"]

log = logging.getLogger(__name__)

IN_MEMORY = 1 << 20
"""Bytes of the document held in memory before the rest goes to a temporary file."""

_COPY = 1 << 20
"""Bytes copied at a time from the held document to stdout."""

Replayed = Callable[[bool], tuple[SessionHeader, Iterator[ClientUpdate]]]
"""A session's header and updates; `True` asks for every log line checked before returning."""


class _HoldFailed(Exception):
    """The held document could not be written (no room for the temporary file)."""


class _Held:
    """The document held back: in memory while small, then in an unnamed temporary file."""

    def __init__(self) -> None:
        # Closed by `close`, whichever way the document ends.
        self.file: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=IN_MEMORY)  # noqa: SIM115

    def write(self, data: bytes) -> None:
        """Add `data`; `_HoldFailed` when it cannot be held."""
        try:
            self.file.write(data)
        except OSError as exc:
            raise _HoldFailed(exc) from exc

    def rewound(self) -> IO[bytes]:
        """Everything written, from its start; `_HoldFailed` when the last of it cannot be."""
        try:
            self.file.seek(0)  # writes out what is still buffered
        except OSError as exc:
            raise _HoldFailed(exc) from exc
        return self.file

    def close(self) -> None:
        """Let it go; a buffered write that failed does not fail again here."""
        with contextlib.suppress(OSError):
            self.file.close()


def print_session(replayed: Replayed) -> None:
    """The document of the session `replayed` replays, on stdout, once its log is known sound."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    held = _Held()
    try:
        header, updates = replayed(False)
        _write_document(header, updates, encoding, held.write)
        document = held.rewound()
    except _HoldFailed as exc:
        log.debug("could not hold the document back (%s); checking the log first", exc)
    else:
        _print_held(document, encoding)
        return
    finally:
        held.close()
    header, updates = replayed(True)
    _print_streamed(header, updates, encoding)


def _print_held(held: IO[bytes], encoding: str) -> None:
    """Copy the held document to stdout: as it is on a UTF-8 stdout, else as text."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None and _is_utf8(encoding):
        sys.stdout.flush()  # what went through the text layer first stays first
        shutil.copyfileobj(held, buffer, _COPY)
        buffer.flush()
        return
    # The held text is already what this encoding can take (see `_write_json_stream`).
    decoder = codecs.getincrementaldecoder("utf-8")()
    while chunk := held.read(_COPY):
        sys.stdout.write(decoder.decode(chunk))
    sys.stdout.write(decoder.decode(b"", final=True))


def _print_streamed(header: SessionHeader, updates: Iterator[ClientUpdate], encoding: str) -> None:
    """The document written to stdout as it is made (its log was checked whole before)."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None and _is_utf8(encoding):
        sys.stdout.flush()
        _write_document(header, updates, encoding, buffer.write)
        buffer.flush()
        return
    text_write = sys.stdout.write
    _write_document(header, updates, encoding, lambda data: text_write(data.decode()))


def _write_document(
    header: SessionHeader,
    updates: Iterator[ClientUpdate],
    encoding: str,
    write: Callable[[bytes], object],
) -> None:
    document = SessionDocument(
        id=header.id,
        cwd=header.cwd,
        created_at=header.created_at,
        updates=[],
        parent=header.parent,
    )
    head = SESSION_DOCUMENT.dump_python(document, mode="json", by_alias=True)
    _write_json_stream(
        head, "updates", (_update_json(update) for update in updates), encoding, write
    )


def _write_json_stream(
    head: dict[str, Any],
    key: str,
    items: Iterable[bytes],
    encoding: str,
    write: Callable[[bytes], object],
) -> None:
    """`head` as `safe_output.print_json` prints it, but with `key` holding `items`.

    Each item is one element's JSON as UTF-8 bytes, indented by two spaces as `print_json`
    indents (pydantic writes it so, quickly), so a long list is never held whole in memory nor
    encoded by the slow pure-Python indenting encoder, and the text is the same byte for byte.
    For an encoding other than UTF-8, an item it cannot take is written again with JSON's own
    `\\uXXXX` escapes.
    """
    utf8 = _is_utf8(encoding)
    members = list(head)
    write(b"{")
    for number, name in enumerate(members):
        write(("\n  " if number == 0 else ",\n  ").encode() + json.dumps(name).encode() + b": ")
        if name != key:
            write(_json_text(head[name], encoding).replace("\n", "\n  ").encode())
            continue
        separator = b"[\n    "
        for item in items:
            # pydantic's bytes are valid UTF-8 (it refuses a lone surrogate), so only another
            # encoding needs the check.
            data = item
            if not utf8 and safe_text(text := item.decode(), encoding) != text:
                data = _escaped(text).encode()
            write(separator)  # apart: joined, a long document would be copied once more
            write(data.replace(b"\n", b"\n    "))
            separator = b",\n    "
        write(b"[]" if separator == b"[\n    " else b"\n  ]")
    write(b"\n}\n" if members else b"}\n")


def _update_json(update: ClientUpdate) -> bytes:
    """One update's JSON as UTF-8, indented, encoded by pydantic's fast serializer if it can be."""
    adapter = _adapter(type(update))
    try:
        return adapter.dump_json(update, by_alias=True, indent=2)
    except PydanticSerializationError:  # a lone surrogate: JSON's own escapes carry it
        document = adapter.dump_python(update, mode="json", by_alias=True)
        return json.dumps(document, indent=2, ensure_ascii=True).encode()


def _adapter(kind: type[object]) -> TypeAdapter[object]:
    """The serializer of one kind of update: the same JSON as `CLIENT_UPDATE`'s, without
    finding the kind in the union first (a third of the time, on a long log's updates)."""
    adapter = _ADAPTERS.get(kind)
    if adapter is None:
        adapter = _ADAPTERS[kind] = TypeAdapter(kind)
    return adapter


_ADAPTERS: dict[type[object], TypeAdapter[object]] = {}


def _is_utf8(encoding: str) -> bool:
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


def _escaped(text: str) -> str:
    return json.dumps(json.loads(text), indent=2, ensure_ascii=True)


def _json_text(value: object, encoding: str) -> str:
    text = json.dumps(value, indent=2, ensure_ascii=False)
    if safe_text(text, encoding) == text:
        return text
    return json.dumps(value, indent=2, ensure_ascii=True)
