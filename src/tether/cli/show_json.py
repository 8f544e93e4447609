"""`tether show ID --json`: a stored session as one JSON document, printed only once the whole
log has been read and found sound.

The log is read once: each line is checked as its event is made, and the event is replayed and
dumped at once. The document is held back meanwhile (`tether.cli.held_output`, as text `show`
holds its text), and printed after the last line, so a corrupt line is still an error before
anything is printed. Should holding it back fail (no room for the temporary file), the document
is made again as it was before: every line checked first, then each update printed as it is
made. Read results, most of a session's bytes, are written whole by orjson
(`tether.cli.show_json_reads`).
"""

from __future__ import annotations

import codecs
import itertools
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pydantic import TypeAdapter
from pydantic_core import CoreSchema, PydanticSerializationError, SchemaSerializer, to_json

from tether.cli.held_output import HeldOutput, said_once
from tether.cli.safe_output import safe_text
from tether.cli.show_json_reads import read_result_json
from tether.lazy import logger
from tether.session.document import DOCUMENT_HEAD, DocumentHead
from tether.session.log import eventlog
from tether.session.log.events import SessionHeader
from tether.session.updates import ClientUpdate, ToolCallFinished

__all__ = ["print_session"]

log = logger(__name__)  # `logging` loads when it first logs

Replayed = Callable[[bool], tuple[SessionHeader, Iterator[ClientUpdate]]]
"""A session's header and updates; `True` asks for every log line checked before returning."""


def print_session(replayed: Replayed) -> None:
    """The document of the session `replayed` replays, on stdout, once its log is known sound."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    with said_once(eventlog.log):  # a log read twice (holding failed) warns of a torn line once
        held = HeldOutput()
        try:
            header, updates = replayed(False)
            _write_document(header, updates, encoding, _stdout_writer(encoding, held))
            if held.release():
                return
        finally:
            held.close()
        log.debug("could not hold the document back; checking the log first")
        header, updates = replayed(True)
        _write_document(header, updates, encoding, _stdout_writer(encoding, None))
        sys.stdout.flush()


Write = Callable[[Sequence[bytes | memoryview]], object]
"""A write of pieces of UTF-8 JSON, one after the other."""


def _stdout_writer(encoding: str, held: HeldOutput | None) -> Write:
    """A write of UTF-8 JSON to stdout (held back by `held`, when given): the bytes as they are
    on a UTF-8 stdout, else text (which `_write_document` made what the encoding can take)."""
    buffer = getattr(sys.stdout, "buffer", None)
    sys.stdout.flush()  # what went through the text layer first stays first
    if buffer is not None and _is_utf8(encoding):
        return buffer.writelines if held is None else held.binary(buffer)
    text = sys.stdout if held is None else held.stream(sys.stdout)
    return lambda pieces: text.write(str(b"".join(pieces), "utf-8"))


def _write_document(
    header: SessionHeader,
    updates: Iterator[ClientUpdate],
    encoding: str,
    write: Write,
) -> None:
    """The document as `safe_output.print_json` would print it whole (`head` indented by two
    spaces, with JSON's own escapes where the encoding falls short), but its updates dumped
    by pydantic's serializer a batch at a time and written as they come: the list is never
    held whole, nor encoded by the slow pure-Python indenting encoder."""
    document = DocumentHead(
        id=header.id,
        cwd=header.cwd,
        created_at=header.created_at,
        updates=[],
        parent=header.parent,
    )
    head = DOCUMENT_HEAD.dump_python(document, mode="json", by_alias=True)
    utf8 = _is_utf8(encoding)
    write((b"{",))
    for number, name in enumerate(head):
        key = ("\n  " if number == 0 else ",\n  ").encode() + json.dumps(name).encode() + b": "
        if name != "updates":
            write((key, _json_text(head[name], encoding).replace("\n", "\n  ").encode()))
            continue
        write((key,))
        separator = b"[\n    "
        count = 1
        try:
            while batch := tuple(itertools.islice(updates, count)):
                pieces = _batch_json(batch, encoding, utf8)
                # In pieces: joined, a long document would be copied once more.
                write([separator, *pieces])
                separator = b",\n    "
                size = sum(map(len, pieces))
                # As many as made about `_BATCH_BYTES` last time: many small updates go in one
                # call, and a large card is dumped while what it was made of is still in the
                # processor's cache (64 of them at a time dumped slower than one by one).
                count = max(1, min(_BATCH, _BATCH_BYTES * len(batch) // size))
        finally:
            _unset_serializers()
        write((b"[]" if separator == b"[\n    " else b"\n  ]",))
    write((b"\n}\n" if head else b"}\n",))


_BATCH = 256
"""The most updates dumped in one call (each call costs about 20 microseconds more than what
it dumps: 64 at most cost 3% more on a session of mostly small updates, 1,024 cost more)."""

_BATCH_BYTES = 1 << 16
"""About how much JSON one call makes."""

_OPEN = len(b'{\n  "updates": [\n    ')
_CLOSE = len(b"\n  ]\n}")


def _batch_json(
    updates: tuple[ClientUpdate, ...], encoding: str, utf8: bool
) -> list[bytes | memoryview]:
    """`updates` as elements of the document's list: indented four spaces, `,` between; in
    pieces, to be written one after the other."""
    for kind in {type(update) for update in updates}:
        _serializable(kind)
    pieces: list[bytes | memoryview] = []
    run: list[ClientUpdate] = []  # updates for pydantic, dumped together
    for update in updates:
        written = None
        if type(update) is ToolCallFinished:
            written = read_result_json(update)
        if written is None:
            run.append(update)
            continue
        if run:
            pieces += (_run_json(run, encoding, utf8), _SEPARATOR)
            run = []
        pieces += (written, _SEPARATOR)
    if run:
        pieces.append(_run_json(run, encoding, utf8))
    else:
        pieces.pop()  # the last separator
    # pydantic's and orjson's bytes are valid UTF-8, so only another encoding needs the check.
    if not utf8 and safe_text(text := b"".join(pieces).decode(), encoding) != text:
        return [_SEPARATOR.join(_update_json(update, encoding, utf8) for update in updates)]
    return pieces


_SEPARATOR = b",\n    "
"""Between two elements of the document's list."""


def _run_json(updates: list[ClientUpdate], encoding: str, utf8: bool) -> bytes | memoryview:
    """`updates` as elements of the document's list, dumped by pydantic in one call."""
    try:
        # As the `updates` of a document indented by two: each element lands indented as the
        # document's are, and only the wrapping is cut off.
        data = to_json({"updates": updates}, by_alias=True, indent=2)
    except PydanticSerializationError:  # a lone surrogate: dumped one by one, escaped
        return _SEPARATOR.join(_update_json(update, encoding, utf8) for update in updates)
    return memoryview(data)[_OPEN : len(data) - _CLOSE]


def _update_json(update: ClientUpdate, encoding: str, utf8: bool) -> bytes:
    """One update as an element of the document's list, with JSON's escapes where needed."""
    adapter = _serializable(type(update))
    try:
        data = adapter.dump_json(update, by_alias=True, indent=2)
    except PydanticSerializationError:  # a lone surrogate: JSON's own escapes carry it
        document = adapter.dump_python(update, mode="json", by_alias=True)
        data = json.dumps(document, indent=2, ensure_ascii=True).encode()
    if not utf8 and safe_text(text := data.decode(), encoding) != text:
        data = _escaped(text).encode()
    return data.replace(b"\n", b"\n    ")


def _serializable(kind: type[object]) -> TypeAdapter[object]:
    """The serializer of one kind of update (the same JSON as `CLIENT_UPDATE`'s), set on the
    class, where `to_json` finds it, until `_unset_serializers`: a list of updates is then
    dumped without finding each one's kind in the union first (a third of the time)."""
    adapter = _ADAPTERS.get(kind)
    if adapter is None:
        adapter = _ADAPTERS[kind] = TypeAdapter(kind)
        adapter.rebuild()  # the serializer itself, not its stand-in until first use
        _DIRECT[kind] = _direct(adapter.core_schema)
    if kind not in _SET:
        serializer, own = _DIRECT[kind]
        # A plain dataclass has no serializer of its own; given this one, `to_json` uses it.
        _set_serializer(kind, serializer)
        for cls, its_own in own.items():
            _set_serializer(cls, its_own)
    return adapter


def _direct(schema: CoreSchema) -> tuple[SchemaSerializer, dict[type[object], SchemaSerializer]]:
    """A serializer of `schema` that writes a field holding one of several classes (a card:
    read, diff, terminal...) with that class's own serializer, and those serializers.

    pydantic writes a value of a union by first turning it into Python objects with the
    chosen class's serializer, checked strictly, and then writing those: a large card (a read
    window's lines) was made twice. Here such a field is written as whatever it holds, and
    each class it may hold is given the serializer of its own schema (as it is in the union),
    which `to_json` then uses: the same JSON, made once."""
    definitions = list(schema.get("definitions", ())) if schema["type"] == "definitions" else []
    refs = {definition["ref"]: definition for definition in definitions if "ref" in definition}
    own: dict[type[object], CoreSchema] = {}

    def classes(node: Any) -> dict[type[object], CoreSchema] | None:
        """The classes a union's choices are, each with its schema; `None` if one is not a
        dataclass that `to_json` could hand to a serializer of its own."""
        while node["type"] == "definition-ref":
            node = refs[node["schema_ref"]]
        if "serialization" in node:  # written its own way: left to the union
            return None
        if node["type"] in ("function-after", "function-before"):  # checks only
            return classes(node["schema"])
        if node["type"] == "dataclass":
            return {node["cls"]: node}
        if node["type"] != "tagged-union":
            return None
        found: dict[type[object], CoreSchema] = {}
        for choice in node["choices"].values():
            more = classes(choice)
            if more is None:
                return None
            found.update(more)
        return found

    def loosened(node: Any) -> Any:
        if isinstance(node, list):
            return [loosened(item) for item in node]
        if not isinstance(node, dict):
            return node
        if node.get("type") == "tagged-union" and (held := classes(node)):
            own.update(held)
            return {"type": "any"}
        return {key: loosened(value) for key, value in node.items()}

    serializer = SchemaSerializer(loosened(schema))

    def alone(node: CoreSchema) -> SchemaSerializer:
        if not definitions:
            return SchemaSerializer(node)
        return SchemaSerializer({"type": "definitions", "schema": node, "definitions": definitions})

    return serializer, {cls: alone(node) for cls, node in own.items()}


def _set_serializer(cls: type[object], serializer: SchemaSerializer) -> None:
    """Give `cls` `serializer` until `_unset_serializers`, which puts back what it had."""
    if cls in _SET:
        return
    _SET[cls] = (vars(cls).get("__pydantic_serializer__", _NONE), serializer)
    setattr(cls, "__pydantic_serializer__", serializer)  # noqa: B010


def _unset_serializers() -> None:
    """Take the serializers off the classes again: elsewhere in the process (an `Any` field
    holding an update) pydantic dumps them as plain dataclasses, as it always did, and a
    card class has its own serializer back (built, as before, on first use)."""
    while _SET:
        cls, (before, given) = _SET.popitem()
        if vars(cls).get("__pydantic_serializer__") is not given:
            continue  # pydantic built the class's own meanwhile (its first use): it stays
        if before is _NONE:
            delattr(cls, "__pydantic_serializer__")
        else:
            setattr(cls, "__pydantic_serializer__", before)  # noqa: B010


_NONE = object()
"""What `_SET` records for a class that had no serializer of its own."""

_ADAPTERS: dict[type[object], TypeAdapter[object]] = {}
_DIRECT: dict[type[object], tuple[SchemaSerializer, dict[type[object], SchemaSerializer]]] = {}
_SET: dict[type[object], tuple[object, SchemaSerializer]] = {}
"""The classes given a serializer for this document: what each had before, what it was given."""


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
