"""A small real ACP agent for the web client's tests, built on the ACP SDK.

Every prompt plays one fixed scenario: text, a read, a bash run with live output, an edit
that asks permission, a tool call with only standard ACP content, and one whose tether view
is a card no client knows. With `--no-views` it is a "foreign" agent: no `_meta.tether`
at all. Sessions are stored as JSON under `--store` so another process can list and load
them (each browser tab runs its own agent process).
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import json
import os
import uuid
from pathlib import Path
from typing import Any

from acp import (
    PROTOCOL_VERSION,
    RequestError,
    run_agent,
    text_block,
    tool_content,
    tool_diff_content,
)
from acp.interfaces import Client
from acp.schema import (
    AgentCapabilities,
    AgentMessageChunk,
    AllowedOutcome,
    AuthenticateResponse,
    AuthEnvVar,
    EnvVarAuthMethod,
    Implementation,
    InitializeResponse,
    ListSessionsResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PermissionOption,
    PromptResponse,
    SessionCapabilities,
    SessionInfo,
    SessionListCapabilities,
    SessionMode,
    SessionModeState,
    SessionNotification,
    SetSessionModeResponse,
    TerminalAuthMethod,
    ToolCallLocation,
    ToolCallProgress,
    ToolCallStart,
    ToolCallUpdate,
    UserMessageChunk,
)

MODES = [
    SessionMode(id="ask", name="Ask"),
    SessionMode(id="accept-edits", name="Accept edits"),
    SessionMode(id="auto", name="Auto"),
]

READ_LINES = [
    "import os",
    "",
    "def greet(name: str) -> str:",
    '    """Say hello."""',
    '    return f"hello {name}"  # greeting',
    "",
    "class Box:",
    "    size = 3",
    "",
    "print(greet('x'))",
]


API_KEY = "FAKE_AGENT_API_KEY"
"""The variable the agent signs in with when run with `--auth`."""
KEY_METHOD = EnvVarAuthMethod(
    id="fake-key",
    name="Fake API key",
    type="env_var",
    description="A key for the fake service",
    vars=[AuthEnvVar(name=API_KEY, label="API key")],
    link="https://example.com/keys",
)
TERMINAL_METHOD = TerminalAuthMethod(
    id="fake-terminal", name="Log in with a browser", type="terminal", args=["--login"]
)


def _opencode_edit(old: str, new: str) -> dict[str, str]:
    """The raw input of opencode's edit permission: `filepath` and a unified `diff`."""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), "calc.py", "calc.py"
    )
    return {"filepath": "/work/demo/calc.py", "diff": "".join(lines)}


def _meta(view: dict[str, Any] | None) -> dict[str, Any] | None:
    return {"tether": {"view": view}} if view is not None else None


class FakeAgent:
    """Plays the scenario; `views` says whether tether cards ride along in `_meta`."""

    def __init__(self, store: Path, views: bool, auth: bool = False) -> None:
        self.store = store
        self.views = views
        self.auth = auth
        """Prompts are refused until `authenticate` succeeded with the key in the environment."""
        self.authenticated = False
        self.conn: Client | None = None
        self.modes: dict[str, str] = {}
        self.cancelled: set[str] = set()

    def on_connect(self, conn: Client) -> None:
        self.conn = conn

    # --- storage ----------------------------------------------------------------------

    def _file(self, session_id: str) -> Path:
        return self.store / f"{session_id}.json"

    def _save(self, session_id: str, record: dict[str, Any]) -> None:
        self._file(session_id).write_text(json.dumps(record))

    def _load(self, session_id: str) -> dict[str, Any]:
        return json.loads(self._file(session_id).read_text())

    async def _emit(self, session_id: str, update: Any) -> None:
        assert self.conn is not None
        record = self._load(session_id)
        record["updates"].append(update.model_dump(mode="json", by_alias=True, exclude_none=True))
        self._save(session_id, record)
        await self.conn.session_update(session_id=session_id, update=update)

    # --- ACP agent methods -------------------------------------------------------------

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                session_capabilities=SessionCapabilities(list=SessionListCapabilities()),
            ),
            agent_info=Implementation(name="fake-agent", version="1.0"),
            auth_methods=[KEY_METHOD, TERMINAL_METHOD] if self.auth else None,
        )

    async def authenticate(self, method_id: str, **kwargs: Any) -> AuthenticateResponse:
        key = os.environ.get(API_KEY)
        # Each call is kept, with the process and whether the key was there, for the tests.
        with (self.store / "authenticate.jsonl").open("a") as log:
            entry = {"method": method_id, "pid": os.getpid(), "key": key}
            log.write(json.dumps(entry) + "\n")
        if method_id != KEY_METHOD.id:
            raise RequestError.invalid_params({"details": f"no method {method_id}"})
        if not key:
            raise RequestError.auth_required({"details": f"{API_KEY} is not set"})
        if key == "wrong":
            raise RequestError(-32000, "Authentication failed", {"details": "the key is revoked"})
        self.authenticated = True
        return AuthenticateResponse()

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        session_id = uuid.uuid4().hex
        self._save(session_id, {"cwd": cwd, "title": None, "updates": []})
        self.modes[session_id] = "ask"
        return NewSessionResponse(session_id=session_id, modes=self._modes(session_id))

    def _modes(self, session_id: str) -> SessionModeState:
        return SessionModeState(
            current_mode_id=self.modes.get(session_id, "ask"), available_modes=MODES
        )

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> LoadSessionResponse:
        assert self.conn is not None
        record = self._load(session_id)
        for raw in record["updates"]:
            note = SessionNotification.model_validate({"sessionId": session_id, "update": raw})
            await self.conn.session_update(session_id=session_id, update=note.update)
        return LoadSessionResponse(modes=self._modes(session_id))

    async def list_sessions(self, cwd: str | None = None, **kwargs: Any) -> ListSessionsResponse:
        sessions = []
        for path in sorted(self.store.glob("*.json"), key=lambda p: -p.stat().st_mtime):
            record = json.loads(path.read_text())
            sessions.append(
                SessionInfo(session_id=path.stem, cwd=record["cwd"], title=record["title"])
            )
        return ListSessionsResponse(sessions=sessions)

    async def set_session_mode(
        self, session_id: str, mode_id: str, **kwargs: Any
    ) -> SetSessionModeResponse:
        self.modes[session_id] = mode_id
        return SetSessionModeResponse()

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        self.cancelled.add(session_id)

    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> PromptResponse:
        assert self.conn is not None
        if self.auth and not self.authenticated:
            raise RequestError.auth_required({"details": "sign in with an API key first"})
        text = "".join(getattr(block, "text", "") for block in prompt)
        record = self._load(session_id)
        record["title"] = record["title"] or text[:40]
        # Stored for replay only: live, the client shows its own prompt.
        chunk = UserMessageChunk(session_update="user_message_chunk", content=text_block(text))
        record["updates"].append(chunk.model_dump(mode="json", by_alias=True, exclude_none=True))
        self._save(session_id, record)
        if text.strip().endswith("wait"):
            # Runs until cancelled: for the cancel button.
            for _ in range(600):
                if session_id in self.cancelled:
                    self.cancelled.discard(session_id)
                    return PromptResponse(stop_reason="cancelled")
                await asyncio.sleep(0.05)
            return PromptResponse(stop_reason="end_turn")
        if text.strip().endswith("todos"):
            await self._todos(session_id)
            return PromptResponse(stop_reason="end_turn")
        await self._say(session_id, "Reading the file first.")
        await self._read(session_id)
        await self._bash(session_id)
        await self._edit(session_id)
        await self._foreign(session_id)
        await self._unknown_card(session_id)
        await self._say(session_id, "All done.")
        return PromptResponse(stop_reason="end_turn")

    # --- the scenario ------------------------------------------------------------------

    async def _say(self, session_id: str, text: str) -> None:
        for piece in (text[: len(text) // 2], text[len(text) // 2 :]):
            await self._emit(
                session_id,
                AgentMessageChunk(session_update="agent_message_chunk", content=text_block(piece)),
            )

    async def _todos(self, session_id: str) -> None:
        # As opencode reports its todowrite: the list in rawInput, and no `plan` update.
        todos = [
            {"content": "Read the code", "status": "completed", "priority": "high", "id": "1"},
            {"content": "Fix the bug", "status": "in_progress", "priority": "high", "id": "2"},
            {"content": "Run the tests", "status": "pending", "priority": "medium", "id": "3"},
        ]
        await self._emit(
            session_id,
            ToolCallStart(
                session_update="tool_call",
                tool_call_id="todo-1",
                title="todowrite",
                kind="other",
                status="pending",
                raw_input={"todos": todos},
            ),
        )
        await self._emit(
            session_id,
            ToolCallProgress(
                session_update="tool_call_update",
                tool_call_id="todo-1",
                status="completed",
                content=[tool_content(text_block(json.dumps(todos, indent=2)))],
            ),
        )

    async def _read(self, session_id: str) -> None:
        call_view = {
            "card": "generic",
            "title": "Read demo.py (lines 3-7)",
            "kind": "read",
            "locations": [{"path": "demo.py", "line": 3}],
        }
        await self._emit(
            session_id,
            ToolCallStart(
                session_update="tool_call",
                tool_call_id="read-1",
                title="Read demo.py",
                kind="read",
                status="pending",
                locations=[ToolCallLocation(path="demo.py", line=3)],
                raw_input={"path": "demo.py", "offset": 3, "limit": 5},
                field_meta=_meta(call_view if self.views else None),
            ),
        )
        lines = [{"number": n, "text": READ_LINES[n - 1]} for n in range(3, 8)]
        body = "\n".join(f"{line['number']}: {line['text']}" for line in lines)
        content = f"{body}\n\n(Showing lines 3-7 of 10. Use offset=8 to continue.)"
        view = {
            "card": "read",
            "path": "demo.py",
            "offset": 3,
            "lines": lines,
            "totalLines": 10,
            "lang": "py",
            "content": content,
        }
        await self._emit(
            session_id,
            ToolCallProgress(
                session_update="tool_call_update",
                tool_call_id="read-1",
                status="completed",
                content=[tool_content(text_block(content))],
                field_meta=_meta(view if self.views else None),
            ),
        )

    async def _bash(self, session_id: str) -> None:
        call_view = {
            "card": "terminal",
            "title": "make test",
            "description": "Run the tests",
            "cwd": "/work/demo",
        }
        await self._emit(
            session_id,
            ToolCallStart(
                session_update="tool_call",
                tool_call_id="bash-1",
                title="make test",
                kind="execute",
                status="pending",
                raw_input={"command": "make test"},
                field_meta=_meta(call_view if self.views else None),
            ),
        )
        partial = "running 3 tests\n\x1b[32mok\x1b[0m test_one\n"
        await self._emit(
            session_id,
            ToolCallProgress(
                session_update="tool_call_update",
                tool_call_id="bash-1",
                status="in_progress",
                content=[tool_content(text_block(f"```console\n{partial}```"))],
                field_meta=_meta({"card": "terminal", "output": partial} if self.views else None),
            ),
        )
        await asyncio.sleep(0.05)
        output = partial + "\x1b[31mFAIL\x1b[0m test_two\n\x1b[1;33mwarning\x1b[0m: slow\n"
        await self._emit(
            session_id,
            ToolCallProgress(
                session_update="tool_call_update",
                tool_call_id="bash-1",
                status="failed",
                content=[tool_content(text_block(f"```console\n{output}```\nexit code 2"))],
                field_meta=_meta(
                    {"card": "terminal", "output": output, "exitCode": 2} if self.views else None
                ),
            ),
        )

    async def _edit(self, session_id: str) -> None:
        assert self.conn is not None
        old, new = "a = 1\nb = 2\nc = 3\n", "a = 1\nb = 20\nc = 3\nd = 4\n"
        diff = {"path": "/work/demo/calc.py", "oldText": old, "newText": new}
        call_view = {"card": "diff", "title": "Edit calc.py", "diffs": [diff]}
        start = ToolCallStart(
            session_update="tool_call",
            tool_call_id="edit-1",
            title="Edit calc.py",
            kind="edit",
            status="pending",
            raw_input={"path": "calc.py"},
            field_meta=_meta(call_view if self.views else None),
        )
        await self._emit(session_id, start)
        allowed = self.modes.get(session_id, "ask") != "ask"
        if not allowed:
            answer = await self.conn.request_permission(
                session_id=session_id,
                tool_call=ToolCallUpdate(
                    tool_call_id="edit-1",
                    title="Edit calc.py",
                    kind="edit",
                    field_meta=_meta(call_view if self.views else None),
                    # Without views it asks as opencode does: the path and a unified diff.
                    raw_input=None if self.views else _opencode_edit(old, new),
                ),
                options=[
                    PermissionOption(option_id="allow-once", name="Allow once", kind="allow_once"),
                    PermissionOption(
                        option_id="allow-always", name="Always allow", kind="allow_always"
                    ),
                    PermissionOption(option_id="reject-once", name="Reject", kind="reject_once"),
                ],
            )
            allowed = isinstance(
                answer.outcome, AllowedOutcome
            ) and answer.outcome.option_id.startswith("allow")
        if allowed:
            await self._emit(
                session_id,
                ToolCallProgress(
                    session_update="tool_call_update",
                    tool_call_id="edit-1",
                    status="completed",
                    content=[tool_diff_content("/work/demo/calc.py", new, old)],
                    field_meta=_meta(
                        {
                            "card": "diff",
                            "diffs": [diff],
                            "locations": [{"path": "/work/demo/calc.py", "line": 1}],
                        }
                        if self.views
                        else None
                    ),
                ),
            )
        else:
            await self._emit(
                session_id,
                ToolCallProgress(
                    session_update="tool_call_update",
                    tool_call_id="edit-1",
                    status="failed",
                    content=[tool_content(text_block("The user rejected this edit."))],
                    field_meta=_meta(
                        {"card": "generic", "content": "The user rejected this edit."}
                        if self.views
                        else None
                    ),
                ),
            )

    async def _foreign(self, session_id: str) -> None:
        # Standard ACP content only, whatever --views says: how any other agent reports.
        await self._emit(
            session_id,
            ToolCallStart(
                session_update="tool_call",
                tool_call_id="plain-1",
                title="Search for TODO",
                kind="search",
                status="pending",
                raw_input={"pattern": "TODO"},
            ),
        )
        await self._emit(
            session_id,
            ToolCallProgress(
                session_update="tool_call_update",
                tool_call_id="plain-1",
                status="completed",
                content=[
                    tool_content(text_block("src/a.py:3: # TODO <b>bold?</b>")),
                    tool_diff_content("notes.txt", "one\nTWO\n", "one\ntwo\n"),
                ],
            ),
        )

    async def _unknown_card(self, session_id: str) -> None:
        await self._emit(
            session_id,
            ToolCallStart(
                session_update="tool_call",
                tool_call_id="chart-1",
                title="Plot results",
                kind="other",
                status="pending",
                field_meta=_meta(
                    {"card": "chart", "title": "Plot results"} if self.views else None
                ),
            ),
        )
        await self._emit(
            session_id,
            ToolCallProgress(
                session_update="tool_call_update",
                tool_call_id="chart-1",
                status="completed",
                content=[tool_content(text_block("chart fallback text"))],
                field_meta=_meta({"card": "chart", "series": [1, 2, 3]} if self.views else None),
            ),
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--no-views", action="store_true")
    parser.add_argument("--auth", action="store_true", help="ask for a sign-in (an API key)")
    args = parser.parse_args()
    args.store.mkdir(parents=True, exist_ok=True)
    agent = FakeAgent(args.store, views=not args.no_views, auth=args.auth)
    asyncio.run(run_agent(agent))


if __name__ == "__main__":
    main()
