"""Switching an open session's mode, model or bash sandbox (`session/set_mode`,
`session/set_config_option`, `/mode`), and the config options that show them.

Every switch goes through `set_mode`, `set_model` or `set_sandbox`, whatever asked for it:
each tells the client with a `config_option_update` carrying every option's current value
(and a mode switch also with `current_mode_update`), so a client's menus never keep a
value the session left, even one the client did not choose itself.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from acp import RequestError
from acp.schema import (
    ConfigOptionUpdate,
    CurrentModeUpdate,
    SetSessionConfigOptionResponse,
    SetSessionModeResponse,
)

from tether.acp.config import (
    MODE_OPTION,
    MODEL_OPTION,
    SANDBOX_OPTION,
    THINKING_OPTION,
    checked_value,
    config_options,
)
from tether.acp.context import AgentContext, OpenSession
from tether.acp.errors import INTERNAL_ERROR
from tether.acp.modes import parse_mode
from tether.errors import ModelError
from tether.models.base import Model
from tether.models.catalog import offered_models, offered_now
from tether.models.messages import ThinkingLevel
from tether.models.thinking import parse_level
from tether.policy import PolicyMode
from tether.sandbox.policy import SandboxPolicy
from tether.session import Session
from tether.tools.bash.tool import BashTool

__all__ = [
    "honour_logged_model",
    "list_models",
    "session_options",
    "set_config_option",
    "set_mode",
    "set_model",
    "set_sandbox",
    "set_session_mode",
    "set_thinking",
]

log = logging.getLogger(__name__)


async def set_session_mode(
    ctx: AgentContext, session_id: str, mode_id: str
) -> SetSessionModeResponse:
    """Switch an open session's mode; the next permission decision follows it."""
    mode = parse_mode(mode_id)
    set_mode(ctx, ctx.opened(session_id), mode)
    await ctx.flush()
    return SetSessionModeResponse()


async def set_config_option(
    ctx: AgentContext, config_id: str, session_id: str, value: str | bool
) -> SetSessionConfigOptionResponse:
    """Switch the model (from the next request on, logged) or the mode of an open session."""
    opened = ctx.opened(session_id)
    session = opened.session
    chosen = checked_value(session_options(session), config_id, value)
    if config_id == MODE_OPTION:
        set_mode(ctx, opened, parse_mode(chosen))
    elif config_id == MODEL_OPTION and chosen != session.model.name:
        set_model(ctx, opened, _build_model(ctx, chosen))
        ctx.beside(list_models(ctx, opened))
    elif config_id == SANDBOX_OPTION:
        set_sandbox(ctx, opened, chosen)
    elif config_id == THINKING_OPTION:
        set_thinking(ctx, opened, parse_level(chosen))
    await ctx.flush()
    return SetSessionConfigOptionResponse(config_options=session_options(session))


def set_mode(ctx: AgentContext, opened: OpenSession, mode: PolicyMode) -> None:
    """Switch `opened` to `mode` and tell the client's mode menu and config options."""
    opened.session.set_mode(mode)
    ctx.post_acp(
        opened, CurrentModeUpdate(session_update="current_mode_update", current_mode_id=mode)
    )
    _tell_options(ctx, opened)


def set_model(ctx: AgentContext, opened: OpenSession, model: Model) -> None:
    """Answer `opened`'s next request with `model` (logged) and tell the config options."""
    opened.session.set_model(model)
    _tell_options(ctx, opened)


def set_thinking(ctx: AgentContext, opened: OpenSession, level: ThinkingLevel) -> None:
    """Ask `opened`'s model to think at `level` from the next prompt on (logged)."""
    opened.session.set_thinking(level)
    _tell_options(ctx, opened)


def set_sandbox(ctx: AgentContext, opened: OpenSession, mode: str) -> None:
    """Confine `opened`'s next commands in sandbox mode `mode` and tell the config options."""
    bash = _bash(opened.session)
    if bash is None:
        return
    chosen = SandboxPolicy.from_env(mode, allow_network=bash.sandbox.allow_network)
    # The rest of the policy (the variables passed in, the size of /tmp) stays.
    bash.sandbox = replace(bash.sandbox, mode=chosen.mode)
    _tell_options(ctx, opened)


def _tell_options(ctx: AgentContext, opened: OpenSession) -> None:
    # Posted, not flushed: it follows the updates of a running turn in order.
    options = session_options(opened.session)
    ctx.post_acp(
        opened, ConfigOptionUpdate(session_update="config_option_update", config_options=options)
    )


def session_options(session: Session) -> list[Any]:
    """The config options of `session` with their current values."""
    bash = _bash(session)
    return list(
        config_options(
            session.model.name,
            offered_now(session.model),
            session.gate.mode,
            bash.sandbox if bash is not None else None,
            session.thinking,
        )
    )


async def list_models(ctx: AgentContext, opened: OpenSession) -> None:
    """Ask the session's endpoint for its own models (bounded, kept a while: see
    `tether.models.listing`); when the model menu gains any, tell the client.

    Only once the model's SDK is loaded, which the first prompt does: opening a session sends
    nothing to a provider and loads no SDK (an editor may open many and prompt none).
    """
    model = opened.session.model
    loaded = getattr(model, "sdk_loaded", None)
    if loaded is None or not loaded():
        return
    before = offered_now(model)
    offered = await offered_models(model)
    session = opened.session
    if ctx.open.get(session.id) is not opened or (
        session.model is not model and not session.running
    ):
        # The session let go of the model (and closed it) while it listed: what the listing
        # opened closes here.
        await model.aclose()
    elif offered != before:
        _tell_options(ctx, opened)
        await ctx.flush()


def honour_logged_model(ctx: AgentContext, session: Session) -> None:
    """Switch a loaded session to the model its log last chose, when it can be built."""
    logged = session.configured(MODEL_OPTION)
    if logged is None or logged == session.model.name:
        return
    try:
        session.set_model(ctx.switch_model(logged), record=False)
    except ModelError as exc:
        log.warning("session %s keeps %s: %s", session.id, session.model.name, exc)


def _build_model(ctx: AgentContext, spec: str) -> Model:
    try:
        return ctx.switch_model(spec)
    except ModelError as exc:
        raise RequestError(
            INTERNAL_ERROR, f"Cannot switch to {spec}: {exc}", {"value": spec}
        ) from exc


def _bash(session: Session) -> BashTool | None:
    """The session's bash tool, whose sandbox the `sandbox` option shows and sets."""
    tool = session.tools.get("bash")
    return tool if isinstance(tool, BashTool) else None
