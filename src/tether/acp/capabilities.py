"""What tether tells a client at `initialize`: the protocol version and what it can do."""

from __future__ import annotations

from acp import PROTOCOL_VERSION
from acp.schema import (
    AgentCapabilities,
    Implementation,
    InitializeResponse,
    McpCapabilities,
    PromptCapabilities,
    SessionAdditionalDirectoriesCapabilities,
    SessionCapabilities,
    SessionCloseCapabilities,
    SessionDeleteCapabilities,
    SessionForkCapabilities,
    SessionListCapabilities,
    SessionResumeCapabilities,
)

from tether import __version__

__all__ = ["initialize_response"]


def initialize_response() -> InitializeResponse:
    """ACP v1: sessions load, list, delete, fork, resume and close (and are renamed through
    `_tether/session/rename`); prompts take images and embedded context."""
    return InitializeResponse(
        protocol_version=PROTOCOL_VERSION,
        agent_capabilities=AgentCapabilities(
            # tether's own extensions a client may look for (`_tether/session/rename`,
            # `_tether/permissions`).
            field_meta={"tether": {"renameSession": True, "permissions": True}},
            load_session=True,
            mcp_capabilities=McpCapabilities(http=True, sse=True),
            prompt_capabilities=PromptCapabilities(image=True, embedded_context=True),
            session_capabilities=SessionCapabilities(
                list=SessionListCapabilities(),
                delete=SessionDeleteCapabilities(),
                additional_directories=SessionAdditionalDirectoriesCapabilities(),
                fork=SessionForkCapabilities(),
                resume=SessionResumeCapabilities(),
                close=SessionCloseCapabilities(),
            ),
        ),
        agent_info=Implementation(name="tether", title="tether", version=__version__),
        auth_methods=[],
    )
