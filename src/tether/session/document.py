"""A stored session as one JSON document (`tether show --json`), typed and dumped by its adapter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pydantic import ConfigDict, TypeAdapter

from tether.session.log.events import ParentLink
from tether.session.updates import ClientUpdate
from tether.wire import WIRE_CONFIG, Opt

__all__ = ["SESSION_DOCUMENT", "SessionDocument"]


@dataclass(frozen=True, kw_only=True)
class SessionDocument:
    """A session's id, cwd and creation time, and every update its log replays to.

    A child session (an agent's) also names its `parent` session and call.
    """

    # Built on first use, as every wire type is: plain `tether show` imports this module too.
    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    id: str
    cwd: str
    created_at: str
    updates: list[ClientUpdate]
    parent: Opt[ParentLink] = None


SESSION_DOCUMENT: TypeAdapter[SessionDocument] = TypeAdapter(SessionDocument)
"""Serializes a session document as camelCase JSON."""
