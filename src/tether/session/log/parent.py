"""How a child session names the session that started it (its log's header, its listing).

A plain dataclass, so listing sessions needs no validation library: the header's schema
takes it as a field (with the header's camelCase wire names).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ParentLink"]


@dataclass(frozen=True, kw_only=True)
class ParentLink:
    """Which session started this one, and through which of its `task` calls."""

    id: str
    call_id: str
