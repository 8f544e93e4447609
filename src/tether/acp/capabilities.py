"""What tether tells a client at `initialize`: the protocol version and what it can do.

Written in the wire's own form (plain JSON), so `tether acp` can answer `initialize` before
the SDK's schema loads (`tether.acp.handover`); the SDK's path validates the same object
(`initialize_response`), and a test holds the two answers equal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tether import __version__

if TYPE_CHECKING:
    from acp.schema import InitializeResponse

__all__ = ["PROTOCOL_VERSION", "initialize_response", "initialize_result"]

PROTOCOL_VERSION = 1
"""The ACP version tether speaks, whatever version the client asks for (the SDK's
`acp.PROTOCOL_VERSION`, which a test holds this equal to)."""


def initialize_result() -> dict[str, Any]:
    """ACP v1: sessions load, list, delete, fork, resume and close (and are renamed through
    `_tether/session/rename`); prompts take images and embedded context. A new object each
    call, as the wire gives it."""
    # In the order the SDK writes its fields, so both paths write the same bytes.
    return {
        "protocolVersion": PROTOCOL_VERSION,
        "agentCapabilities": {
            "loadSession": True,
            "promptCapabilities": {"image": True, "embeddedContext": True},
            "mcpCapabilities": {"http": True, "sse": True},
            "sessionCapabilities": {
                "list": {},
                "delete": {},
                "additionalDirectories": {},
                "fork": {},
                "resume": {},
                "close": {},
            },
            # tether's own extensions a client may look for (`_tether/session/rename`,
            # `_tether/permissions`).
            "_meta": {"tether": {"renameSession": True, "permissions": True}},
        },
        "authMethods": [],
        "agentInfo": {"name": "tether", "title": "tether", "version": __version__},
    }


def initialize_response() -> InitializeResponse:
    """`initialize_result` as the SDK's type, for the SDK's own path."""
    from acp.schema import InitializeResponse

    return InitializeResponse.model_validate(initialize_result())
