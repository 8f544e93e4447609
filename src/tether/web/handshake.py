"""The agent's `initialize`, as the web client makes it: what the page is told the agent is
and can do (`Ready`)."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from acp import PROTOCOL_VERSION
from acp.client.connection import ClientSideConnection
from acp.schema import (
    AuthMethodAgent,
    ClientCapabilities,
    EnvVarAuthMethod,
    FileSystemCapabilities,
    Implementation,
    TerminalAuthMethod,
)

from tether import __version__
from tether.web.keys import SavedSignIn
from tether.web.protocol import Ready, SignInMethod, SignInVar

__all__ = ["initialize", "sign_in_methods"]


async def initialize(
    conn: ClientSideConnection,
    command: Sequence[str],
    cwd: Path,
    saved: SavedSignIn | None = None,
) -> Ready:
    """Initialize the agent (a client with no file system or terminal of its own); the page
    names it by its info, or by its program when it gives none. `saved`: what the page
    signed this agent in with before (only which variables are kept is told)."""
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
    methods = sign_in_methods(init.auth_methods or [], command, saved)
    return Ready(
        agent_name=(info.title or info.name) if info else command[0],
        agent_version=info.version if info else None,
        cwd=str(cwd),
        can_load=bool(caps and caps.load_session),
        can_list=bool(session_caps and session_caps.list is not None),
        can_fork=bool(session_caps and session_caps.fork is not None),
        can_delete=bool(session_caps and session_caps.delete is not None),
        can_rename=_offers(caps.field_meta if caps else None, "renameSession"),
        can_report_permissions=_offers(caps.field_meta if caps else None, "permissions"),
        sign_in=methods,
        signed_in=(
            saved.method
            if saved is not None and any(m.id == saved.method for m in methods)
            else None
        ),
    )


def sign_in_methods(
    methods: Sequence[EnvVarAuthMethod | TerminalAuthMethod | AuthMethodAgent],
    command: Sequence[str],
    saved: SavedSignIn | None,
) -> tuple[SignInMethod, ...]:
    """The agent's `authMethods` as the page offers them, in the agent's order."""
    kept = saved.env if saved is not None else {}
    offered: list[SignInMethod] = []
    for method in methods:
        match method:
            case EnvVarAuthMethod():
                offered.append(
                    SignInMethod(
                        id=method.id,
                        name=method.name,
                        kind="env_var",
                        description=method.description,
                        link=_web_link(method.link),
                        vars=tuple(
                            SignInVar(
                                name=v.name,
                                label=v.label,
                                secret=v.secret is not False,
                                optional=bool(v.optional),
                                saved=v.name in kept,
                            )
                            for v in method.vars
                        ),
                    )
                )
            case TerminalAuthMethod():
                env = [f"{k}={shlex.quote(v)}" for k, v in (method.env or {}).items()]
                words = shlex.join([*command, *(method.args or [])])
                offered.append(
                    SignInMethod(
                        id=method.id,
                        name=method.name,
                        kind="terminal",
                        description=method.description,
                        command=" ".join([*env, words]),
                    )
                )
            case AuthMethodAgent():
                offered.append(
                    SignInMethod(
                        id=method.id,
                        name=method.name,
                        kind="agent",
                        description=method.description,
                    )
                )
    return tuple(offered)


def _web_link(link: str | None) -> str | None:
    """A link the page may show: http or https only (never `javascript:` and the like)."""
    if link is None:
        return None
    return link if urlsplit(link).scheme in {"http", "https"} else None


def _offers(meta: dict[str, Any] | None, extension: str) -> bool:
    """Whether the agent says it has one of tether's extensions (`_meta.tether.EXTENSION`:
    `renameSession` for `_tether/session/rename`, `permissions` for `_tether/permissions`)."""
    tether = meta.get("tether") if isinstance(meta, dict) else None
    return isinstance(tether, dict) and tether.get(extension) is True
