"""A stored session as one JSON document (`tether show --json`), typed and dumped by its adapter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import ConfigDict, TypeAdapter

from tether.session.log.events import ParentLink
from tether.session.updates import ClientUpdate
from tether.wire import WIRE_CONFIG, Opt

__all__ = ["DOCUMENT_HEAD", "SESSION_DOCUMENT", "DocumentHead", "SessionDocument"]


@dataclass(frozen=True, kw_only=True)
class DocumentHead:
    """A session document with its updates untyped: its fields, dumped without a schema of
    every kind of update (`show --json` dumps each update with its own kind's serializer)."""

    # Built on first use, as every wire type is: plain `tether show` imports this module too.
    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    id: str
    cwd: str
    created_at: str
    updates: list[Any]
    parent: Opt[ParentLink] = None


@dataclass(frozen=True, kw_only=True)
class SessionDocument(DocumentHead):
    """A session's id, cwd and creation time, and every update its log replays to.

    A child session (an agent's) also names its `parent` session and call.
    """

    updates: list[ClientUpdate]  # a field typed again keeps its place: before `parent`


SESSION_DOCUMENT: TypeAdapter[SessionDocument] = TypeAdapter(SessionDocument)
"""Serializes a session document as camelCase JSON."""

DOCUMENT_HEAD: TypeAdapter[DocumentHead] = TypeAdapter(DocumentHead)
"""Serializes a document's head as `SESSION_DOCUMENT` serializes the document (its updates
empty), without building the schema of every kind of update (about 16 ms)."""
