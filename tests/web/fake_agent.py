"""A small real ACP agent for the web client's tests, speaking the protocol's JSON lines itself.

Every prompt plays one fixed scenario: text, a read, a bash run with live output, an edit
that asks permission, a tool call with only standard ACP content, and one whose tether view
is a card no client knows. With `--no-views` it is a "foreign" agent: no `_meta.tether`
at all. Sessions are stored as JSON under `--store` so another process can list and load
them (each browser tab runs its own agent process). It does not import the ACP SDK, which
would cost each tab's agent about half a second of CPU (`tests/web/jsonrpc_lines.py`).
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

try:
    from tests.web.jsonrpc_lines import RpcError, Wire
except ModuleNotFoundError:  # run as a script (the agent of a page): its own folder is first
    from jsonrpc_lines import RpcError, Wire  # type: ignore[no-redef]

PROTOCOL_VERSION = 1
MODES = [
    {"id": "ask", "name": "Ask"},
    {"id": "accept-edits", "name": "Accept edits"},
    {"id": "auto", "name": "Auto"},
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
KEY_METHOD = {
    "id": "fake-key",
    "name": "Fake API key",
    "type": "env_var",
    "description": "A key for the fake service",
    "vars": [{"name": API_KEY, "label": "API key"}],
    "link": "https://example.com/keys",
}
TERMINAL_METHOD = {
    "id": "fake-terminal",
    "name": "Log in with a browser",
    "type": "terminal",
    "args": ["--login"],
}


def _opencode_edit(old: str, new: str) -> dict[str, str]:
    """The raw input of opencode's edit permission: `filepath` and a unified `diff`."""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), "calc.py", "calc.py"
    )
    return {"filepath": "/work/demo/calc.py", "diff": "".join(lines)}


def _text(text: str) -> dict[str, Any]:
    """A text content block."""
    return {"type": "text", "text": text}


def _content(text: str) -> dict[str, Any]:
    """A tool call's text content."""
    return {"type": "content", "content": _text(text)}


def _diff(path: str, new: str, old: str) -> dict[str, Any]:
    """A tool call's diff content."""
    return {"type": "diff", "path": path, "newText": new, "oldText": old}


def _update(
    session_update: str, meta: dict[str, Any] | None = None, /, **fields: Any
) -> dict[str, Any]:
    """A session update (its camelCase fields); its view, if any, rides in `_meta.tether`."""
    update = {"sessionUpdate": session_update, **fields}
    if meta is not None:
        update["_meta"] = {"tether": {"view": meta}}
    return update


class FakeAgent:
    """Plays the scenario; `views` says whether tether cards ride along in `_meta`."""

    def __init__(self, store: Path, views: bool, auth: bool = False) -> None:
        self.store = store
        self.views = views
        self.auth = auth
        """Prompts are refused until `authenticate` succeeded with the key in the environment."""
        self.authenticated = False
        self.modes: dict[str, str] = {}
        self.cancelled: set[str] = set()
        self.wire = Wire(
            {
                "initialize": self.initialize,
                "authenticate": self.authenticate,
                "session/new": self.new_session,
                "session/load": self.load_session,
                "session/list": self.list_sessions,
                "session/set_mode": self.set_session_mode,
                "session/prompt": self.prompt,
            },
            {"session/cancel": self.cancel},
        )

    def _view(self, view: dict[str, Any]) -> dict[str, Any] | None:
        return view if self.views else None

    # --- storage ----------------------------------------------------------------------

    def _file(self, session_id: str) -> Path:
        return self.store / f"{session_id}.json"

    def _save(self, session_id: str, record: dict[str, Any]) -> None:
        self._file(session_id).write_text(json.dumps(record))

    def _load(self, session_id: str) -> dict[str, Any]:
        record: dict[str, Any] = json.loads(self._file(session_id).read_text())
        return record

    async def _emit(self, session_id: str, update: dict[str, Any]) -> None:
        record = self._load(session_id)
        record["updates"].append(update)
        self._save(session_id, record)
        await self.wire.notify("session/update", {"sessionId": session_id, "update": update})

    # --- ACP agent methods -------------------------------------------------------------

    async def initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = {
            "protocolVersion": PROTOCOL_VERSION,
            "agentCapabilities": {"loadSession": True, "sessionCapabilities": {"list": {}}},
            "agentInfo": {"name": "fake-agent", "version": "1.0"},
        }
        if self.auth:
            result["authMethods"] = [KEY_METHOD, TERMINAL_METHOD]
        return result

    async def authenticate(self, params: dict[str, Any]) -> dict[str, Any]:
        method_id = params["methodId"]
        key = os.environ.get(API_KEY)
        # Each call is kept, with the process and whether the key was there, for the tests.
        with (self.store / "authenticate.jsonl").open("a") as log:
            entry = {"method": method_id, "pid": os.getpid(), "key": key}
            log.write(json.dumps(entry) + "\n")
        if method_id != KEY_METHOD["id"]:
            raise RpcError.invalid_params({"details": f"no method {method_id}"})
        if not key:
            raise RpcError.auth_required({"details": f"{API_KEY} is not set"})
        if key == "wrong":
            raise RpcError(-32000, "Authentication failed", {"details": "the key is revoked"})
        self.authenticated = True
        return {}

    async def new_session(self, params: dict[str, Any]) -> dict[str, Any]:
        session_id = uuid.uuid4().hex
        self._save(session_id, {"cwd": params["cwd"], "title": None, "updates": []})
        self.modes[session_id] = "ask"
        return {"sessionId": session_id, "modes": self._modes(session_id)}

    def _modes(self, session_id: str) -> dict[str, Any]:
        return {"currentModeId": self.modes.get(session_id, "ask"), "availableModes": MODES}

    async def load_session(self, params: dict[str, Any]) -> dict[str, Any]:
        session_id = params["sessionId"]
        record = self._load(session_id)
        for update in record["updates"]:
            await self.wire.notify("session/update", {"sessionId": session_id, "update": update})
        return {"modes": self._modes(session_id)}

    async def list_sessions(self, params: dict[str, Any]) -> dict[str, Any]:
        sessions = []
        for path in sorted(self.store.glob("*.json"), key=lambda p: -p.stat().st_mtime):
            record = json.loads(path.read_text())
            info = {"sessionId": path.stem, "cwd": record["cwd"], "title": record["title"]}
            sessions.append({k: v for k, v in info.items() if v is not None})
        return {"sessions": sessions}

    async def set_session_mode(self, params: dict[str, Any]) -> dict[str, Any]:
        self.modes[params["sessionId"]] = params["modeId"]
        return {}

    async def cancel(self, params: dict[str, Any]) -> None:
        self.cancelled.add(params["sessionId"])

    async def prompt(self, params: dict[str, Any]) -> dict[str, Any]:
        session_id = params["sessionId"]
        if self.auth and not self.authenticated:
            raise RpcError.auth_required({"details": "sign in with an API key first"})
        blocks = params["prompt"]
        text = "".join(block.get("text", "") for block in blocks if block.get("type") == "text")
        record = self._load(session_id)
        record["title"] = record["title"] or text[:40]
        # Stored for replay only: live, the client shows its own prompt.
        record["updates"].append(_update("user_message_chunk", content=_text(text)))
        self._save(session_id, record)
        if text.strip().endswith("wait"):
            # Runs until cancelled: for the cancel button.
            for _ in range(600):
                if session_id in self.cancelled:
                    self.cancelled.discard(session_id)
                    return {"stopReason": "cancelled"}
                await asyncio.sleep(0.05)
            return {"stopReason": "end_turn"}
        if text.strip().endswith("todos"):
            await self._todos(session_id)
            return {"stopReason": "end_turn"}
        await self._say(session_id, "Reading the file first.")
        await self._read(session_id)
        await self._bash(session_id)
        await self._edit(session_id)
        await self._foreign(session_id)
        await self._unknown_card(session_id)
        await self._say(session_id, "All done.")
        return {"stopReason": "end_turn"}

    # --- the scenario ------------------------------------------------------------------

    async def _say(self, session_id: str, text: str) -> None:
        for piece in (text[: len(text) // 2], text[len(text) // 2 :]):
            await self._emit(session_id, _update("agent_message_chunk", content=_text(piece)))

    async def _todos(self, session_id: str) -> None:
        # As opencode reports its todowrite: the list in rawInput, and no `plan` update.
        todos = [
            {"content": "Read the code", "status": "completed", "priority": "high", "id": "1"},
            {"content": "Fix the bug", "status": "in_progress", "priority": "high", "id": "2"},
            {"content": "Run the tests", "status": "pending", "priority": "medium", "id": "3"},
        ]
        await self._emit(
            session_id,
            _update(
                "tool_call",
                toolCallId="todo-1",
                title="todowrite",
                kind="other",
                status="pending",
                rawInput={"todos": todos},
            ),
        )
        await self._emit(
            session_id,
            _update(
                "tool_call_update",
                toolCallId="todo-1",
                status="completed",
                content=[_content(json.dumps(todos, indent=2))],
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
            _update(
                "tool_call",
                self._view(call_view),
                toolCallId="read-1",
                title="Read demo.py",
                kind="read",
                status="pending",
                locations=[{"path": "demo.py", "line": 3}],
                rawInput={"path": "demo.py", "offset": 3, "limit": 5},
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
            _update(
                "tool_call_update",
                self._view(view),
                toolCallId="read-1",
                status="completed",
                content=[_content(content)],
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
            _update(
                "tool_call",
                self._view(call_view),
                toolCallId="bash-1",
                title="make test",
                kind="execute",
                status="pending",
                rawInput={"command": "make test"},
            ),
        )
        partial = "running 3 tests\n\x1b[32mok\x1b[0m test_one\n"
        await self._emit(
            session_id,
            _update(
                "tool_call_update",
                self._view({"card": "terminal", "output": partial}),
                toolCallId="bash-1",
                status="in_progress",
                content=[_content(f"```console\n{partial}```")],
            ),
        )
        await asyncio.sleep(0.05)
        output = partial + "\x1b[31mFAIL\x1b[0m test_two\n\x1b[1;33mwarning\x1b[0m: slow\n"
        await self._emit(
            session_id,
            _update(
                "tool_call_update",
                self._view({"card": "terminal", "output": output, "exitCode": 2}),
                toolCallId="bash-1",
                status="failed",
                content=[_content(f"```console\n{output}```\nexit code 2")],
            ),
        )

    async def _edit(self, session_id: str) -> None:
        old, new = "a = 1\nb = 2\nc = 3\n", "a = 1\nb = 20\nc = 3\nd = 4\n"
        diff = {"path": "/work/demo/calc.py", "oldText": old, "newText": new}
        call_view = self._view({"card": "diff", "title": "Edit calc.py", "diffs": [diff]})
        start = _update(
            "tool_call",
            call_view,
            toolCallId="edit-1",
            title="Edit calc.py",
            kind="edit",
            status="pending",
            rawInput={"path": "calc.py"},
        )
        await self._emit(session_id, start)
        allowed = self.modes.get(session_id, "ask") != "ask"
        if not allowed:
            asked: dict[str, Any] = {
                "toolCallId": "edit-1",
                "title": "Edit calc.py",
                "kind": "edit",
            }
            if call_view is not None:
                asked["_meta"] = {"tether": {"view": call_view}}
            else:
                # Without views it asks as opencode does: the path and a unified diff.
                asked["rawInput"] = _opencode_edit(old, new)
            answer = await self.wire.request(
                "session/request_permission",
                {
                    "sessionId": session_id,
                    "toolCall": asked,
                    "options": [
                        {"optionId": "allow-once", "name": "Allow once", "kind": "allow_once"},
                        {
                            "optionId": "allow-always",
                            "name": "Always allow",
                            "kind": "allow_always",
                        },
                        {"optionId": "reject-once", "name": "Reject", "kind": "reject_once"},
                    ],
                },
            )
            outcome = answer["outcome"]
            allowed = outcome["outcome"] == "selected" and outcome["optionId"].startswith("allow")
        if allowed:
            done_view = {
                "card": "diff",
                "diffs": [diff],
                "locations": [{"path": "/work/demo/calc.py", "line": 1}],
            }
            await self._emit(
                session_id,
                _update(
                    "tool_call_update",
                    self._view(done_view),
                    toolCallId="edit-1",
                    status="completed",
                    content=[_diff("/work/demo/calc.py", new, old)],
                ),
            )
        else:
            rejected = "The user rejected this edit."
            await self._emit(
                session_id,
                _update(
                    "tool_call_update",
                    self._view({"card": "generic", "content": rejected}),
                    toolCallId="edit-1",
                    status="failed",
                    content=[_content(rejected)],
                ),
            )

    async def _foreign(self, session_id: str) -> None:
        # Standard ACP content only, whatever --views says: how any other agent reports.
        await self._emit(
            session_id,
            _update(
                "tool_call",
                toolCallId="plain-1",
                title="Search for TODO",
                kind="search",
                status="pending",
                rawInput={"pattern": "TODO"},
            ),
        )
        await self._emit(
            session_id,
            _update(
                "tool_call_update",
                toolCallId="plain-1",
                status="completed",
                content=[
                    _content("src/a.py:3: # TODO <b>bold?</b>"),
                    _diff("notes.txt", "one\nTWO\n", "one\ntwo\n"),
                ],
            ),
        )

    async def _unknown_card(self, session_id: str) -> None:
        await self._emit(
            session_id,
            _update(
                "tool_call",
                self._view({"card": "chart", "title": "Plot results"}),
                toolCallId="chart-1",
                title="Plot results",
                kind="other",
                status="pending",
            ),
        )
        await self._emit(
            session_id,
            _update(
                "tool_call_update",
                self._view({"card": "chart", "series": [1, 2, 3]}),
                toolCallId="chart-1",
                status="completed",
                content=[_content("chart fallback text")],
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
    asyncio.run(agent.wire.serve())


if __name__ == "__main__":
    main()
