"""A second ACP agent for the web client's tests, that follows the current protocol: its
settings are session config options only (no `modes`). Like `fake_agent.py` it writes ACP's
JSON lines itself (`jsonrpc_lines.py`) rather than import the SDK.

It offers `mode` (build, plan) and `model` (choices in two groups) as selects, an effort
select with a category of its own, and a boolean option (which the page does not show). It
switches from the client (`session/set_config_option`) and by itself, telling the client
with `config_option_update`. It never sends `session_info_update`: a session's title is only
in the session list. Prompts it understands:

- `plan please`: switches itself to plan mode;
- `flip` / `flop`: switches the mode, saying so with `config_option_update` then
  `current_mode_update` (flip) or the other way round (flop);
- `settings?`: answers with the mode and model it holds;
- `ask me`: asks permission for a tool call whose raw input is empty;
- anything else is echoed.

Sessions are stored as JSON under `--store` so another process can list and load them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import uuid
from pathlib import Path
from typing import Any

try:
    from tests.web.jsonrpc_lines import RpcError, Wire
except ModuleNotFoundError:  # run as a script (the agent of a page): its own folder is first
    from jsonrpc_lines import RpcError, Wire  # type: ignore[no-redef]

PROTOCOL_VERSION = 1
AGENT_TITLE = "Config Agent"
MODES = {"build": "Build", "plan": "Plan"}
MODELS = {
    "Local": {"small": "Small (local)", "large": "Large (local)"},
    "Hosted": {"hosted-fast": "Hosted fast", "broken": "Broken (refused)"},
}
EFFORTS = {"low": "Low", "high": "High"}
DEFAULTS = {"mode": "build", "model": "small", "effort": "low", "verbose": False}


def _select(
    option_id: str, name: str, category: str, current: str, choices: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "id": option_id,
        "name": name,
        "category": category,
        "type": "select",
        "currentValue": current,
        "options": choices,
    }


def _flat(table: dict[str, str]) -> list[dict[str, Any]]:
    return [{"value": value, "name": name} for value, name in table.items()]


def config_options(values: dict[str, Any]) -> list[dict[str, Any]]:
    """The session's options, the effort first: the client orders them, not the agent."""
    groups = [
        {"group": group.lower(), "name": group, "options": _flat(table)}
        for group, table in MODELS.items()
    ]
    return [
        _select("effort", "Effort", "thought_level", values["effort"], _flat(EFFORTS)),
        _select("model", "Model", "model", values["model"], groups),
        _select("mode", "Mode", "mode", values["mode"], _flat(MODES)),
        {"id": "verbose", "name": "Verbose", "type": "boolean", "currentValue": values["verbose"]},
    ]


def _choices(option_id: str) -> set[str]:
    if option_id == "model":
        return {value for table in MODELS.values() for value in table if value != "broken"}
    return set({"mode": MODES, "effort": EFFORTS}.get(option_id, {}))


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


class ConfigAgent:
    """Plays the prompts above; settings live per session in memory and in the store."""

    def __init__(self, store: Path) -> None:
        self.store = store
        self.wire = Wire(
            {
                "initialize": self.initialize,
                "session/new": self.new_session,
                "session/load": self.load_session,
                "session/list": self.list_sessions,
                "session/set_config_option": self.set_config_option,
                "session/prompt": self.prompt,
            },
            {"session/cancel": self.cancel},
        )

    def _file(self, session_id: str) -> Path:
        return self.store / f"{session_id}.json"

    def _load(self, session_id: str) -> dict[str, Any]:
        record: dict[str, Any] = json.loads(self._file(session_id).read_text())
        return record

    def _save(self, session_id: str, record: dict[str, Any]) -> None:
        self._file(session_id).write_text(json.dumps(record))

    async def _update(self, session_id: str, update: dict[str, Any], *, keep: bool = True) -> None:
        if keep:
            record = self._load(session_id)
            record["updates"].append(update)
            self._save(session_id, record)
        await self.wire.notify("session/update", {"sessionId": session_id, "update": update})

    async def _say(self, session_id: str, text: str) -> None:
        chunk = {"sessionUpdate": "agent_message_chunk", "content": _text(text)}
        await self._update(session_id, chunk)

    async def _set(self, session_id: str, option_id: str, value: Any) -> dict[str, Any]:
        record = self._load(session_id)
        record["values"][option_id] = value
        self._save(session_id, record)
        values: dict[str, Any] = record["values"]
        return values

    # --- ACP agent methods -------------------------------------------------------------

    async def initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        return {
            "protocolVersion": PROTOCOL_VERSION,
            "agentCapabilities": {"loadSession": True, "sessionCapabilities": {"list": {}}},
            "agentInfo": {"name": "config-agent", "title": AGENT_TITLE, "version": "0.3"},
        }

    async def new_session(self, params: dict[str, Any]) -> dict[str, Any]:
        session_id = uuid.uuid4().hex
        record = {"cwd": params["cwd"], "title": None, "values": dict(DEFAULTS), "updates": []}
        self._save(session_id, record)
        return {"sessionId": session_id, "configOptions": config_options(record["values"])}

    async def load_session(self, params: dict[str, Any]) -> dict[str, Any]:
        session_id = params["sessionId"]
        record = self._load(session_id)
        for update in record["updates"]:
            await self.wire.notify("session/update", {"sessionId": session_id, "update": update})
        return {"configOptions": config_options(record["values"])}

    async def list_sessions(self, params: dict[str, Any]) -> dict[str, Any]:
        sessions = []
        for path in sorted(self.store.glob("*.json"), key=lambda p: -p.stat().st_mtime):
            record = json.loads(path.read_text())
            info = {"sessionId": path.stem, "cwd": record["cwd"], "title": record["title"]}
            sessions.append({k: v for k, v in info.items() if v is not None})
        return {"sessions": sessions}

    async def set_config_option(self, params: dict[str, Any]) -> dict[str, Any]:
        config_id, value = params["configId"], params["value"]
        if not isinstance(value, str) or value not in _choices(config_id):
            raise RpcError.invalid_params({"configId": config_id, "value": value})
        values = await self._set(params["sessionId"], config_id, value)
        return {"configOptions": config_options(values)}

    async def cancel(self, params: dict[str, Any]) -> None:
        return None

    async def prompt(self, params: dict[str, Any]) -> dict[str, Any]:
        session_id = params["sessionId"]
        blocks = params["prompt"]
        text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text").strip()
        record = self._load(session_id)
        record["title"] = record["title"] or text[:40]
        # Stored for replay only: live, the client shows its own prompt.
        record["updates"].append({"sessionUpdate": "user_message_chunk", "content": _text(text)})
        self._save(session_id, record)
        if text == "plan please":
            values = await self._set(session_id, "mode", "plan")
            await self._options_changed(session_id, values)
            await self._say(session_id, "Switched to plan mode.")
        elif text in ("flip", "flop"):
            mode = "plan" if text == "flip" else "build"
            values = await self._set(session_id, "mode", mode)
            first_options = text == "flip"
            if first_options:
                await self._options_changed(session_id, values)
            await self._update(
                session_id,
                {"sessionUpdate": "current_mode_update", "currentModeId": mode},
                keep=False,
            )
            if not first_options:
                await self._options_changed(session_id, values)
            await self._say(session_id, f"Now in {mode} mode.")
        elif text == "settings?":
            values = record["values"]
            await self._say(session_id, f"Mode {values['mode']}, model {values['model']}.")
        elif text == "ask me":
            await self._ask(session_id)
        else:
            await self._say(session_id, f"You said: {text}")
        return {"stopReason": "end_turn"}

    async def _options_changed(self, session_id: str, values: dict[str, Any]) -> None:
        update = {"sessionUpdate": "config_option_update", "configOptions": config_options(values)}
        await self._update(session_id, update, keep=False)

    async def _ask(self, session_id: str) -> None:
        call = {"toolCallId": "touch-1", "title": "Touch the marker file", "kind": "edit"}
        start = {"sessionUpdate": "tool_call", **call, "status": "pending", "rawInput": {}}
        await self._update(session_id, start)
        answer = await self.wire.request(
            "session/request_permission",
            {
                "sessionId": session_id,
                "toolCall": {**call, "rawInput": {}},
                "options": [
                    {"optionId": "yes", "name": "Allow", "kind": "allow_once"},
                    {"optionId": "no", "name": "Reject", "kind": "reject_once"},
                ],
            },
        )
        outcome = answer["outcome"]
        allowed = outcome["outcome"] == "selected" and outcome["optionId"] == "yes"
        done = {
            "sessionUpdate": "tool_call_update",
            "toolCallId": "touch-1",
            "status": "completed" if allowed else "failed",
            "content": [
                {"type": "content", "content": _text("touched" if allowed else "not touched")}
            ],
        }
        await self._update(session_id, done)
        await self._say(session_id, "Done." if allowed else "Left alone.")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--store", type=Path, required=True)
    args = parser.parse_args()
    args.store.mkdir(parents=True, exist_ok=True)
    asyncio.run(ConfigAgent(args.store).wire.serve())


if __name__ == "__main__":
    main()
