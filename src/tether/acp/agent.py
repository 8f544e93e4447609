"""The ACP agent: the one place where a client's requests are dispatched to their handlers.

Each ACP method is one line here, routed to a handler in a small module:

| methods                                                       | module                 |
|---------------------------------------------------------------|------------------------|
| `initialize`                                                  | `acp.capabilities`     |
| `session/new`, `session/load`, `session/list`, `session/delete`| `acp.lifecycle`        |
| `session/fork`, `session/resume`, `session/close`             | `acp.branching`        |
| `session/prompt`, `session/cancel`                            | `acp.turns`            |
| `session/set_mode`, `session/set_config_option`               | `acp.switches`         |
| `_tether/permissions` (an extension method)                   | `acp.workspace`        |
| `_tether/session/rename` (an extension method)                | `acp.titles`           |

A handler is a function of the shared `AgentContext` (store, connection, open sessions).
The context and the handler modules load with the first request that needs them, and this
module loads no part of the SDK: `tether acp` answers a plain `initialize` before the SDK
loads (`tether.acp.handover`), then the SDK routes everything here, `initialize` included.
To serve a new method, write its handler in a module of its own, add its method here under
the SDK's name for it (`fork_session`, `resume_session`, `close_session`, ...), and say so
in `initialize`'s capabilities; `agent_router` routes every method the agent defines.

Errors a client gets (JSON-RPC `error`, codes named in `tether.acp.errors`):

| case                                        | code   | message                                  |
|---------------------------------------------|--------|------------------------------------------|
| unknown session (not in the store, not open)| -32002 | `Session not found: ID` / `... not open` |
| a bad cwd, directory, mode, cursor or block | -32602 | says which and why                       |
| deleting a session the store does not hold  | -32602 | `Session not found: ID (nothing to ...)` |
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

from typing import TYPE_CHECKING, Any, cast

from tether.acp.capabilities import initialize_response

if TYPE_CHECKING:
    from acp.interfaces import Client
    from acp.router import MessageRouter
    from acp.schema import (
        CloseSessionResponse,
        DeleteSessionResponse,
        ForkSessionResponse,
        InitializeResponse,
        ListSessionsResponse,
        LoadSessionResponse,
        NewSessionResponse,
        PromptResponse,
        ResumeSessionResponse,
        SetSessionConfigOptionResponse,
        SetSessionModeResponse,
    )

    from tether.acp.context import AgentContext
    from tether.acp.mcp import ClientServer
    from tether.acp.prompt import PromptBlock
    from tether.policy import PolicyMode
    from tether.session import SessionStore
    from tether.settings import SettingsFlags
    from tether.surface import Launch

__all__ = ["TetherAgent", "agent_router"]


class TetherAgent:
    """Serves tether sessions to one ACP client (the methods `agent_router` routes to)."""

    def __init__(
        self,
        *,
        store: SessionStore,
        launch: Launch,
        mode: PolicyMode | None = None,
        flags: SettingsFlags | None = None,
    ) -> None:
        self.store = store
        """Where sessions are stored."""
        self.mode = mode
        """The mode `--mode` starts sessions in (`None`: the workspace's settings say)."""
        self._client: Client | None = None
        self._context: AgentContext | None = None

        def make() -> AgentContext:
            from tether.acp.context import AgentContext

            return AgentContext(store=store, launch=launch, mode=mode, flags=flags)

        self._make = make

    @property
    def context(self) -> AgentContext:
        """What every handler shares: the store, the connection, the open sessions.

        Made with the first request that needs it (loading the session machinery then).
        """
        if self._context is None:
            self._context = self._make()
            if self._client is not None:
                self._context.connect(self._client)
        return self._context

    def on_connect(self, conn: Client) -> None:
        """Keep the connection to the client (the SDK calls this once)."""
        self._client = conn
        if self._context is not None:
            self._context.connect(conn)

    async def initialize(
        self, protocol_version: int, client_capabilities: Any = None, **kwargs: Any
    ) -> InitializeResponse:
        """`initialize`: the protocol version and tether's capabilities."""
        return initialize_response()

    async def new_session(
        self,
        cwd: str,
        additional_directories: list[str] | None = None,
        mcp_servers: list[ClientServer] | None = None,
        **kwargs: Any,
    ) -> NewSessionResponse:
        """`session/new`."""
        from tether.acp import lifecycle

        return await lifecycle.new_session(self.context, cwd, additional_directories, mcp_servers)

    async def load_session(
        self,
        cwd: str,
        session_id: str,
        additional_directories: list[str] | None = None,
        mcp_servers: list[ClientServer] | None = None,
        **kwargs: Any,
    ) -> LoadSessionResponse:
        """`session/load`."""
        from tether.acp import lifecycle

        return await lifecycle.load_session(
            self.context, cwd, session_id, additional_directories, mcp_servers
        )

    async def fork_session(
        self,
        session_id: str,
        cwd: str,
        additional_directories: list[str] | None = None,
        mcp_servers: list[ClientServer] | None = None,
        **kwargs: Any,
    ) -> ForkSessionResponse:
        """`session/fork` (`_meta.tether.prompt`: fork before that prompt)."""
        from tether.acp import branching

        return await branching.fork_session(
            self.context,
            session_id,
            cwd,
            additional_directories,
            mcp_servers,
            tether=kwargs.get("tether"),
        )

    async def resume_session(
        self,
        session_id: str,
        cwd: str,
        additional_directories: list[str] | None = None,
        mcp_servers: list[ClientServer] | None = None,
        **kwargs: Any,
    ) -> ResumeSessionResponse:
        """`session/resume`."""
        from tether.acp import branching

        return await branching.resume_session(
            self.context, session_id, cwd, additional_directories, mcp_servers
        )

    async def close_session(self, session_id: str, **kwargs: Any) -> CloseSessionResponse:
        """`session/close`."""
        from tether.acp import branching

        return await branching.close_session(self.context, session_id)

    async def delete_session(self, session_id: str, **kwargs: Any) -> DeleteSessionResponse:
        """`session/delete`."""
        from tether.acp import lifecycle

        return await lifecycle.delete_session(self.context, session_id)

    async def list_sessions(
        self, cwd: str | None = None, cursor: str | None = None, **kwargs: Any
    ) -> ListSessionsResponse:
        """`session/list`."""
        from tether.acp import lifecycle

        return await lifecycle.list_sessions(self.context, cwd, cursor)

    async def set_session_mode(
        self, session_id: str, mode_id: str, **kwargs: Any
    ) -> SetSessionModeResponse:
        """`session/set_mode`."""
        from tether.acp import switches

        return await switches.set_session_mode(self.context, session_id, mode_id)

    async def set_config_option(
        self, config_id: str, session_id: str, value: str | bool, **kwargs: Any
    ) -> SetSessionConfigOptionResponse:
        """`session/set_config_option`."""
        from tether.acp import switches

        return await switches.set_config_option(self.context, config_id, session_id, value)

    async def prompt(
        self, session_id: str, prompt: list[PromptBlock], **kwargs: Any
    ) -> PromptResponse:
        """`session/prompt`."""
        from tether.acp import turns

        return await turns.prompt(self.context, session_id, prompt)

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        """`session/cancel` (a notification)."""
        from tether.acp import turns

        await turns.cancel(self.context, session_id)

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Extension methods: `_tether/permissions {sessionId}` (the rules, as JSON) and
        `_tether/session/rename {sessionId, title}`."""
        from acp import RequestError

        from tether.acp import titles, workspace

        if method == workspace.PERMISSIONS_METHOD:
            return workspace.permissions_method(self.context, params)
        if method == titles.RENAME_METHOD:
            return await titles.rename_method(self.context, params)
        raise RequestError.method_not_found(f"_{method}")

    async def close(self) -> None:
        """Release every open session (sync their logs, drop their locks)."""
        if self._context is not None:
            await self._context.close()


def agent_router(agent: TetherAgent) -> MessageRouter:
    """The SDK's routes for every method `agent` defines, plus `session/delete`."""
    from acp import Agent
    from acp.agent.router import build_agent_router
    from acp.meta import AGENT_METHODS
    from acp.schema import DeleteSessionRequest
    from acp.utils import normalize_result

    # The SDK routes only the methods the agent defines; any other method is answered
    # "method not found", so the partial implementation of its `Agent` protocol is safe.
    # Its unstable methods (`session/fork`, `session/resume`, `session/close`) are routed
    # too, as soon as the agent defines them.
    router = build_agent_router(cast(Agent, agent), use_unstable_protocol=True)
    # The SDK (0.12) names `session/delete` but does not route it.
    router.route_request(
        AGENT_METHODS["session_delete"],
        DeleteSessionRequest,
        agent,
        "delete_session",
        adapt_result=normalize_result,
    )
    return router
