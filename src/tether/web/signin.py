"""Signing an agent in from the page, with the methods it advertised (ACP `authMethods`).

An `agent` method is one `authenticate` call. An `env_var` method needs its variables in the
agent's environment when it starts: the page asks for them, they are kept (`AgentKeys`,
mode 0600), the agent is restarted with them and then asked to `authenticate`, as ACP's
authentication methods describe. A kept sign-in is given to every later start of the same
agent command, and `authenticate` is asked again, so a reload or a new server stays signed in.
A `terminal` method needs a terminal the page does not have: the page says what to run.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from acp import RequestError
from acp.client.connection import ClientSideConnection
from pydantic import ValidationError

from tether.errors import BadKeys
from tether.web.client import SendToPage
from tether.web.failures import reason
from tether.web.keys import AgentKeys, SavedSignIn
from tether.web.protocol import (
    ErrorMessage,
    Ready,
    SignIn,
    SignInMethod,
    SignInResult,
    SignOut,
)

__all__ = ["AUTH_REQUIRED", "SignIns"]

log = logging.getLogger(__name__)

AUTH_REQUIRED = -32000
"""ACP's error code for a request refused until the agent is signed in."""


class SignIns:
    """One page's sign-ins to its agent: what is kept for it, and the page's requests."""

    def __init__(self, command: Sequence[str], keys: AgentKeys, send: SendToPage) -> None:
        self._command = list(command)
        self._keys = keys
        self._send = send
        self.ready: Ready | None = None
        """What the running agent said it is, with its methods (set once it initialized)."""
        self._restarted_for: str | None = None
        """The method the agent is being restarted to sign in with."""
        self._signed_out: str | None = None
        """The method whose variables were forgotten: the restarted agent goes without."""

    async def saved(self) -> SavedSignIn | None:
        """What this agent was signed in with before; a keys file that cannot be read is said
        once and the agent starts without it."""
        try:
            return self._keys.saved(self._command)
        except BadKeys as exc:
            await self._send(ErrorMessage(message=f"the saved sign-in is not used: {exc}"))
            return None

    async def started(self, conn: ClientSideConnection, saved: SavedSignIn | None) -> None:
        """The agent is initialized: ask it to sign in with what it was started with."""
        if self._signed_out is not None:
            forgotten, self._signed_out = self._signed_out, None
            await self._send(SignInResult(method_id=forgotten, signed_out=True))
            return
        restarted_for, self._restarted_for = self._restarted_for, None
        method_id = restarted_for or (saved.method if saved is not None else None)
        method = self._method(method_id)
        if method is None or method.kind != "env_var":
            return
        await self._authenticate(conn, method, quiet=restarted_for is None)

    async def handle(self, conn: ClientSideConnection, message: SignIn | SignOut) -> bool:
        """Act on the page's sign-in or sign-out; True when the agent must restart."""
        if isinstance(message, SignOut):
            return await self.forget()
        return await self.request(conn, message)

    async def request(self, conn: ClientSideConnection, message: SignIn) -> bool:
        """Act on the page's sign-in; True when the agent must restart to take the keys."""
        method = self._method(message.method_id)
        if method is None:
            await self._failed(message.method_id, "the agent offers no such way to sign in")
            return False
        match method.kind:
            case "agent":
                await self._authenticate(conn, method, quiet=False)
                return False
            case "terminal":
                await self._failed(
                    method.id,
                    f"{method.name} signs in through a terminal: run `{method.command}` in "
                    "one, then reload this page",
                )
                return False
            case "env_var":
                return await self._keep(method, message.values)

    async def forget(self) -> bool:
        """Forget what this agent was signed in with; True when the agent must restart
        without it (there was something to forget)."""
        try:
            saved = self._keys.saved(self._command)
            if saved is not None:
                self._keys.forget(self._command)
        except BadKeys as exc:
            await self._send(ErrorMessage(message=f"signing out failed: {exc}"))
            return False
        if saved is None:
            await self._send(ErrorMessage(message="signing out: nothing is kept for this agent"))
            return False
        self._signed_out = saved.method
        return True

    async def _keep(self, method: SignInMethod, values: dict[str, str]) -> bool:
        """Keep the method's variables (a blank one keeps what was saved for it)."""
        known = {v.name for v in method.vars}
        unknown = sorted(set(values) - known)
        if unknown:
            await self._failed(method.id, f"{method.name} does not use {', '.join(unknown)}")
            return False
        try:
            before = self._keys.saved(self._command)
        except BadKeys as exc:
            await self._failed(method.id, str(exc))
            return False
        kept = before.env if before is not None else {}
        env: dict[str, str] = {}
        for var in method.vars:
            value = values.get(var.name, "").strip()
            if not value and var.name in kept:
                value = kept[var.name]
            if value:
                env[var.name] = value
            elif not var.optional:
                await self._failed(method.id, f"{var.label or var.name} is needed to sign in")
                return False
        try:
            self._keys.save(self._command, SavedSignIn(method=method.id, env=env))
        except BadKeys as exc:
            await self._failed(method.id, str(exc))
            return False
        self._restarted_for = method.id
        return True

    async def _authenticate(
        self, conn: ClientSideConnection, method: SignInMethod, *, quiet: bool
    ) -> None:
        """`authenticate` with `method`; the page hears how it went (a kept sign-in that still
        works is not news)."""
        try:
            await conn.authenticate(method_id=method.id)
        except (RequestError, ConnectionError, ValidationError) as exc:
            kept = " (the key is kept: enter another to replace it)" if method.vars else ""
            await self._failed(method.id, f"{reason(exc)}{kept}")
            return
        if not quiet:
            await self._send(SignInResult(method_id=method.id))

    async def _failed(self, method_id: str, why: str) -> None:
        log.info("signing in with %s failed: %s", method_id, why)
        await self._send(SignInResult(method_id=method_id, error=why))

    def _method(self, method_id: str | None) -> SignInMethod | None:
        if self.ready is None or method_id is None:
            return None
        return next((m for m in self.ready.sign_in if m.id == method_id), None)
