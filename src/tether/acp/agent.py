"""The ACP agent: sessions from the store, prompts through the loop, updates through one mapping.

Errors a client gets (JSON-RPC `error`, codes named in `tether.acp.errors`):

| case                                        | code   | message                                  |
|---------------------------------------------|--------|------------------------------------------|
| unknown session (not in the store, not open)| -32002 | `Session not found: ID` / `... not open` |
| a bad cwd, directory, mode, cursor or block | -32602 | says which and why                       |
| an unknown config option or value           | -32602 | names the option and its choices         |
| a model that cannot be built on a switch    | -32603 | `Cannot switch to SPEC: WHY`             |
| a second prompt while one runs              | -32600 | `Session ID is already running a prompt` |
| the model failed (`PromptFailed`)           | -32603 | `The model failed: WHY`                  |
| the log is locked by another process        | -32603 | names the session and the lock (1)       |

(1) with `data.reason` `sessionLocked`, so a client can retry without reading the text.

A model failure answers the prompt with an error rather than `end_turn`: the turn did not
end normally, and the log records it as such (`turn/end` with the error).
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from acp import PROTOCOL_VERSION, RequestError, update_agent_message_text
from acp.interfaces import Client
from acp.schema import (
    AgentCapabilities,
    CurrentModeUpdate,
    DeleteSessionResponse,
    Implementation,
    InitializeResponse,
    ListSessionsResponse,
    LoadSessionResponse,
    McpCapabilities,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
    SessionAdditionalDirectoriesCapabilities,
    SessionCapabilities,
    SessionDeleteCapabilities,
    SessionInfo,
    SessionListCapabilities,
    SetSessionConfigOptionResponse,
    SetSessionModeResponse,
)

from tether import __version__
from tether.acp.calls import SessionCalls
from tether.acp.commands import available_commands, command_prompt
from tether.acp.config import (
    MODE_OPTION,
    MODEL_OPTION,
    SANDBOX_OPTION,
    checked_value,
    config_options,
)
from tether.acp.errors import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    RESOURCE_NOT_FOUND,
    invalid_params,
    stored_session_error,
)
from tether.acp.mcp import SessionMcp
from tether.acp.modes import mode_state, parse_mode
from tether.acp.outbox import Outbox
from tether.acp.permissions import AcpAsker
from tether.acp.prompt import PromptBlock, prompt_content, shown_blocks
from tether.commands import ModeSwitch, load_commands
from tether.mcp import ClientServer
from tether.models.base import Model, ModelError
from tether.models.catalog import known_models
from tether.policy import PolicyMode
from tether.session import (
    ClientUpdate,
    CorruptLog,
    PromptFailed,
    Session,
    SessionBusy,
    SessionConfig,
    SessionLocked,
    SessionNotFound,
    SessionStore,
    UserImage,
    UserResource,
    UserText,
)
from tether.session.budget import DEFAULT_COMPACT_AT
from tether.tools.bash.sandbox import SandboxPolicy
from tether.tools.bash.tool import BashTool
from tether.tools.registry import ToolRegistry
from tether.tools.workspace import Workspace

__all__ = ["LIST_PAGE", "TetherAgent"]

log = logging.getLogger(__name__)

LIST_PAGE = 200
"""Sessions per `session/list` answer; `nextCursor` leads to the next page."""


@dataclass
class _Open:
    session: Session
    calls: SessionCalls
    mcp: SessionMcp | None = None

    async def close(self) -> None:
        if self.mcp is not None:
            await self.mcp.close()
        self.session.close()


class TetherAgent:
    """Serves tether sessions to one ACP client (the methods `acp.run_agent` routes to)."""

    def __init__(
        self,
        *,
        store: SessionStore,
        model: Callable[[], Model],
        tools: Callable[[], ToolRegistry],
        mode: PolicyMode,
        switch_model: Callable[[str], Model] | None = None,
        context_window: int | None = None,
        compact_at: float = DEFAULT_COMPACT_AT,
    ) -> None:
        self.store = store
        self.mode = mode
        """The mode new and loaded sessions start in."""
        self._context_window = context_window
        self._compact_at = compact_at
        self._model = model
        self._switch_model = switch_model
        self._tools = tools
        self._client: Client | None = None
        self._outbox: Outbox | None = None
        self._open: dict[str, _Open] = {}

    def on_connect(self, conn: Client) -> None:
        """Keep the connection to the client (the SDK calls this once)."""
        self._client = conn
        self._outbox = Outbox(conn)

    async def initialize(
        self, protocol_version: int, client_capabilities: Any = None, **kwargs: Any
    ) -> InitializeResponse:
        """ACP v1: sessions load and list, prompts take images and embedded context."""
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                mcp_capabilities=McpCapabilities(http=True, sse=True),
                prompt_capabilities=PromptCapabilities(image=True, embedded_context=True),
                session_capabilities=SessionCapabilities(
                    list=SessionListCapabilities(),
                    delete=SessionDeleteCapabilities(),
                    additional_directories=SessionAdditionalDirectoriesCapabilities(),
                ),
            ),
            agent_info=Implementation(name="tether", title="tether", version=__version__),
            auth_methods=[],
        )

    async def new_session(
        self,
        cwd: str,
        additional_directories: list[str] | None = None,
        mcp_servers: list[ClientServer] | None = None,
        **kwargs: Any,
    ) -> NewSessionResponse:
        """A new session in `cwd` with the client's MCP servers; extra directories join it."""
        root = _directory(cwd, "cwd")
        extra = [_directory(d, "additionalDirectories") for d in additional_directories or ()]
        # The id first: the session's asker asks under it from the start.
        session_id = self.store.new_id()
        config, calls = self._config(session_id, root, extra)
        session = Session.create(self.store, root, config, session_id)
        opened = self._opened(session, calls)
        await self._start_mcp(opened, mcp_servers or [])
        self._advertise(opened)
        return NewSessionResponse(
            session_id=session.id,
            modes=mode_state(self.mode),
            config_options=self._options(session),
        )

    async def load_session(
        self,
        cwd: str,
        session_id: str,
        additional_directories: list[str] | None = None,
        mcp_servers: list[ClientServer] | None = None,
        **kwargs: Any,
    ) -> LoadSessionResponse:
        """Replay the session's log as `session/update`s, then answer; it can then be prompted."""
        asked_cwd = _path(cwd, "cwd")
        opened = self._open.get(session_id)
        if opened is None:
            opened = self._load(session_id, additional_directories)
            # Before the replay, so the cards of MCP calls come back as they were shown.
            await self._start_mcp(opened, mcp_servers or [])
        session = opened.session
        if asked_cwd != session.cwd:
            log.info(
                "session %s lives in %s, not %s; using its own cwd", session.id, session.cwd, cwd
            )
        for update in session.replay():
            self._post(opened, update)
        await self._flush()
        self._advertise(opened)
        return LoadSessionResponse(
            modes=mode_state(session.gate.mode), config_options=self._options(session)
        )

    async def delete_session(self, session_id: str, **kwargs: Any) -> DeleteSessionResponse:
        """Delete a stored session (closing it here first); refused while another process has it."""
        opened = self._open.get(session_id)
        if opened is not None:
            if opened.session.running:
                raise RequestError(
                    INVALID_REQUEST,
                    f"Session {session_id} is running a prompt; cancel it before deleting it",
                    {"sessionId": session_id},
                )
            del self._open[session_id]
            await opened.close()
        try:
            self.store.delete(session_id)
        except (SessionNotFound, SessionLocked) as exc:
            raise stored_session_error(exc, session_id) from exc
        return DeleteSessionResponse()

    async def list_sessions(
        self, cwd: str | None = None, cursor: str | None = None, **kwargs: Any
    ) -> ListSessionsResponse:
        """The stored sessions, newest first, optionally only those in `cwd`."""
        infos = self.store.list_sessions()
        if cwd is not None:
            wanted = _path(cwd, "cwd").resolve()
            infos = [info for info in infos if Path(info.cwd) == wanted]
        start = _cursor(cursor)
        page = infos[start : start + LIST_PAGE]
        more = start + LIST_PAGE < len(infos)
        return ListSessionsResponse(
            sessions=[
                SessionInfo(
                    session_id=info.id, cwd=info.cwd, title=info.title, updated_at=info.updated_at
                )
                for info in page
            ],
            next_cursor=str(start + LIST_PAGE) if more else None,
        )

    async def set_session_mode(
        self, session_id: str, mode_id: str, **kwargs: Any
    ) -> SetSessionModeResponse:
        """Switch an open session's mode; the next permission decision follows it."""
        mode = parse_mode(mode_id)
        self._set_mode(self._opened_session(session_id), mode)
        await self._flush()
        return SetSessionModeResponse()

    async def set_config_option(
        self, config_id: str, session_id: str, value: str | bool, **kwargs: Any
    ) -> SetSessionConfigOptionResponse:
        """Switch the model (from the next request on, logged) or the mode of an open session."""
        opened = self._opened_session(session_id)
        session = opened.session
        chosen = checked_value(self._options(session), config_id, value)
        if config_id == MODE_OPTION:
            self._set_mode(opened, parse_mode(chosen))
        elif config_id == MODEL_OPTION and chosen != session.model.name:
            session.set_model(self._build_model(chosen))
        elif config_id == SANDBOX_OPTION and (bash := _bash(session)) is not None:
            bash.sandbox = SandboxPolicy.from_env(chosen, allow_network=bash.sandbox.allow_network)
        await self._flush()
        return SetSessionConfigOptionResponse(config_options=self._options(session))

    async def prompt(
        self, session_id: str, prompt: list[PromptBlock], **kwargs: Any
    ) -> PromptResponse:
        """Run one prompt; updates stream as `session/update`s, the answer carries the stop."""
        opened = self._opened_session(session_id)
        session = opened.session
        meant = command_prompt(prompt, load_commands(session.cwd, self.store.root))
        if isinstance(meant, ModeSwitch):
            if session.running:
                raise RequestError(-32600, f"Session {session_id} is already running a prompt")
            self._set_mode(opened, meant.mode)
            await self._flush()
            return PromptResponse(stop_reason="end_turn")
        if opened.mcp is not None and not session.running:
            await opened.mcp.before_prompt(session, self._connection()[0], self._notifier(opened))
        content = prompt_content(meant.blocks)
        shown = shown_blocks(prompt, always=meant.expanded)

        def on_update(update: ClientUpdate) -> None:
            # The client shows its own prompt; user chunks are for `session/load` only.
            if not isinstance(update, UserText | UserImage | UserResource):
                self._post(opened, update)

        try:
            stop = await session.prompt(content, on_update, shown=shown)
        except SessionBusy as exc:
            raise RequestError(
                INVALID_REQUEST,
                f"Session {session_id} is already running a prompt",
                {"details": str(exc)},
            ) from exc
        except PromptFailed as exc:
            await self._flush()
            raise RequestError(
                INTERNAL_ERROR,
                f"The model failed: {exc}",
                {"sessionId": session_id, "details": str(exc)},
            ) from exc
        await self._flush()
        return PromptResponse(stop_reason=stop)

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        """Stop the running prompt of a session (it answers `cancelled`)."""
        opened = self._open.get(session_id)
        if opened is None:
            log.warning("session/cancel for a session that is not open: %s", session_id)
            return
        opened.session.cancel()

    async def close(self) -> None:
        """Release every open session (sync their logs, drop their locks)."""
        for opened in list(self._open.values()):
            await opened.close()
        self._open.clear()
        if self._outbox is not None:
            await self._outbox.close()

    def _load(self, session_id: str, extra: list[str] | None) -> _Open:
        roots = [_directory(d, "additionalDirectories") for d in extra or ()]
        try:
            cwd = Path(self.store.header(session_id).cwd)
            config, calls = self._config(session_id, cwd, roots)
            session = Session.load(self.store, session_id, config)
        except (SessionNotFound, SessionLocked, CorruptLog) as exc:
            raise stored_session_error(exc, session_id) from exc
        self._honour_logged_model(session)
        return self._opened(session, calls)

    async def _start_mcp(self, opened: _Open, servers: list[ClientServer]) -> None:
        opened.mcp = await SessionMcp.start(
            opened.session, self.store.root, servers, self._notifier(opened)
        )

    def _notifier(self, opened: _Open) -> Callable[[str], None]:
        # Posted, not flushed: a new session's id reaches the client with the answer first.
        def notify(notice: str) -> None:
            self._connection()[1].post(
                opened.session.id, update_agent_message_text(f"Warning: {notice}\n")
            )

        return notify

    def _advertise(self, opened: _Open) -> None:
        # Posted, not flushed: it goes out after the answer that makes the session known.
        commands = load_commands(opened.session.cwd, self.store.root)
        self._connection()[1].post(opened.session.id, available_commands(commands))

    def _set_mode(self, opened: _Open, mode: PolicyMode) -> None:
        opened.session.set_mode(mode)
        # The client's mode menu follows, whoever changed it (the client, `/mode`).
        self._connection()[1].post(
            opened.session.id,
            CurrentModeUpdate(session_update="current_mode_update", current_mode_id=mode),
        )

    def _options(self, session: Session) -> list[Any]:
        bash = _bash(session)
        return list(
            config_options(
                session.model.name,
                known_models(session.model),
                session.gate.mode,
                bash.sandbox if bash is not None else None,
            )
        )

    def _build_model(self, spec: str) -> Model:
        if self._switch_model is None:
            raise RequestError(INTERNAL_ERROR, f"Cannot switch to {spec}: this agent has one model")
        try:
            return self._switch_model(spec)
        except ModelError as exc:
            raise RequestError(
                INTERNAL_ERROR, f"Cannot switch to {spec}: {exc}", {"value": spec}
            ) from exc

    def _honour_logged_model(self, session: Session) -> None:
        logged = session.configured(MODEL_OPTION)
        if logged is None or logged == session.model.name or self._switch_model is None:
            return
        try:
            session.set_model(self._switch_model(logged), record=False)
        except ModelError as exc:
            log.warning("session %s keeps %s: %s", session.id, session.model.name, exc)

    def _opened(self, session: Session, calls: SessionCalls) -> _Open:
        opened = self._open[session.id] = _Open(session, calls)
        return opened

    def _session(self, session_id: str) -> Session:
        return self._opened_session(session_id).session

    def _opened_session(self, session_id: str) -> _Open:
        opened = self._open.get(session_id)
        if opened is None:
            raise RequestError(
                RESOURCE_NOT_FOUND,
                f"Session not open: {session_id} (create it with session/new "
                "or open it with session/load first)",
                {"sessionId": session_id},
            )
        return opened

    def _config(
        self, session_id: str, cwd: Path, extra_roots: list[Path]
    ) -> tuple[SessionConfig, SessionCalls]:
        """The config of session `session_id` in `cwd`, and the calls its asker repeats."""
        calls = SessionCalls(Workspace.at(cwd).cwd)
        client, outbox = self._connection()
        config = SessionConfig(
            model=self._model(),
            tools=self._tools(),
            mode=self.mode,
            asker=AcpAsker(client, outbox, session_id, calls),
            extra_roots=extra_roots,
            context_window=self._context_window,
            compact_at=self._compact_at,
            models=self._switch_model,
        )
        return config, calls

    def _post(self, opened: _Open, update: ClientUpdate) -> None:
        outbox = self._connection()[1]
        for acp in opened.calls.acp(update):
            outbox.post(opened.session.id, acp)

    async def _flush(self) -> None:
        await self._connection()[1].flush()

    def _connection(self) -> tuple[Client, Outbox]:
        if self._client is None or self._outbox is None:
            raise RuntimeError("the agent is not connected to a client")
        return self._client, self._outbox


def _directory(raw: str, field: str) -> Path:
    path = _path(raw, field)
    if not path.is_absolute():
        raise invalid_params(f"{field} must be an absolute path: {raw}", {field: raw})
    try:
        is_dir = path.is_dir()
    except OSError:  # a name too long, a directory that may not be searched
        is_dir = False
    if not is_dir:
        raise invalid_params(f"{field} is not a directory: {raw}", {field: raw})
    return path


def _path(raw: str, field: str) -> Path:
    """A path a client sent; a NUL or a lone surrogate cannot name a file."""
    try:
        os.fsencode(raw)
    except UnicodeEncodeError:
        raise invalid_params(f"{field} is not a valid path: {raw!r}", {field: raw}) from None
    if "\0" in raw:
        raise invalid_params(f"{field} is not a valid path: {raw!r}", {field: raw})
    return Path(raw)


_CURSOR = re.compile(r"[0-9]{1,18}")
"""What `session/list` hands out: a decimal offset (ASCII digits, not `²` or a 5000-digit one)."""


def _cursor(cursor: str | None) -> int:
    if cursor is None:
        return 0
    if not _CURSOR.fullmatch(cursor):
        raise invalid_params(f"Not a cursor from session/list: {cursor!r}", {"cursor": cursor})
    return int(cursor)


def _bash(session: Session) -> BashTool | None:
    """The session's bash tool, whose sandbox the `sandbox` option shows and sets."""
    tool = session.tools.get("bash")
    return tool if isinstance(tool, BashTool) else None
