"""The agent's `initialize`, as the web client makes it: what the page is told the agent is
and can do (`Ready`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from acp import PROTOCOL_VERSION
from acp.client.connection import ClientSideConnection
from acp.schema import ClientCapabilities, FileSystemCapabilities, Implementation

from tether import __version__
from tether.web.protocol import Ready

__all__ = ["initialize"]


async def initialize(conn: ClientSideConnection, program: str, cwd: Path) -> Ready:
    """Initialize the agent (a client with no file system or terminal of its own); the page
    names it by its info, or by `program` when it gives none."""
    init = await conn.initialize(
        protocol_version=PROTOCOL_VERSION,
        client_capabilities=ClientCapabilities(
            fs=FileSystemCapabilities(read_text_file=False, write_text_file=False),
            terminal=False,
        ),
        client_info=Implementation(name="tether-web", version=__version__),
    )
    caps = init.agent_capabilities
    session_caps = caps.session_capabilities if caps else None
    info = init.agent_info
    return Ready(
        agent_name=(info.title or info.name) if info else program,
        agent_version=info.version if info else None,
        cwd=str(cwd),
        can_load=bool(caps and caps.load_session),
        can_list=bool(session_caps and session_caps.list is not None),
        can_fork=bool(session_caps and session_caps.fork is not None),
        can_delete=bool(session_caps and session_caps.delete is not None),
        can_rename=_offers(caps.field_meta if caps else None, "renameSession"),
        can_report_permissions=_offers(caps.field_meta if caps else None, "permissions"),
    )


def _offers(meta: dict[str, Any] | None, extension: str) -> bool:
    """Whether the agent says it has one of tether's extensions (`_meta.tether.EXTENSION`:
    `renameSession` for `_tether/session/rename`, `permissions` for `_tether/permissions`)."""
    tether = meta.get("tether") if isinstance(meta, dict) else None
    return isinstance(tether, dict) and tether.get(extension) is True
