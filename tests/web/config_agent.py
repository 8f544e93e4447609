"""A second ACP agent for the web client's tests, on the Python ACP SDK, that follows the
current protocol: its settings are session config options only (no `modes`).

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

from acp import PROTOCOL_VERSION, RequestError, run_agent, text_block, tool_content
from acp.interfaces import Client
from acp.schema import (
    AgentCapabilities,
    AgentMessageChunk,
    AllowedOutcome,
    ConfigOptionUpdate,
    CurrentModeUpdate,
    Implementation,
    InitializeResponse,
    ListSessionsResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PermissionOption,
    PromptResponse,
    SessionCapabilities,
    SessionConfigOptionBoolean,
    SessionConfigOptionSelect,
    SessionConfigSelectGroup,
    SessionConfigSelectOption,
    SessionInfo,
    SessionListCapabilities,
    SessionNotification,
    SetSessionConfigOptionResponse,
    ToolCallProgress,
    ToolCallStart,
    ToolCallUpdate,
    UserMessageChunk,
)

AGENT_TITLE = "Config Agent"
MODES = {"build": "Build", "plan": "Plan"}
MODELS = {
    "Local": {"small": "Small (local)", "large": "Large (local)"},
    "Hosted": {"hosted-fast": "Hosted fast", "broken": "Broken (refused)"},
}
EFFORTS = {"low": "Low", "high": "High"}
DEFAULTS = {"mode": "build", "model": "small", "effort": "low", "verbose": False}


def _select(
    option_id: str, name: str, category: Any, current: str, choices: Any
) -> SessionConfigOptionSelect:
    return SessionConfigOptionSelect(
        id=option_id,
        name=name,
        category=category,
        type="select",
        current_value=current,
        options=choices,
    )


def config_options(values: dict[str, Any]) -> list[Any]:
    """The session's options, the effort first: the client orders them, not the agent."""
    flat = lambda table: [  # noqa: E731
        SessionConfigSelectOption(value=v, name=n) for v, n in table.items()
    ]
    return [
        _select("effort", "Effort", "thought_level", values["effort"], flat(EFFORTS)),
        _select(
            "model",
            "Model",
            "model",
            values["model"],
            [
                SessionConfigSelectGroup(group=group.lower(), name=group, options=flat(table))
                for group, table in MODELS.items()
            ],
        ),
        _select("mode", "Mode", "mode", values["mode"], flat(MODES)),
        SessionConfigOptionBoolean(
            id="verbose", name="Verbose", type="boolean", current_value=values["verbose"]
        ),
    ]


def _choices(option_id: str) -> set[str]:
    if option_id == "model":
        return {value for table in MODELS.values() for value in table if value != "broken"}
    return set({"mode": MODES, "effort": EFFORTS}.get(option_id, {}))


class ConfigAgent:
    """Plays the prompts above; settings live per session in memory and in the store."""

    def __init__(self, store: Path) -> None:
        self.store = store
        self.conn: Client | None = None

    def on_connect(self, conn: Client) -> None:
        self.conn = conn

    def _file(self, session_id: str) -> Path:
        return self.store / f"{session_id}.json"

    def _load(self, session_id: str) -> dict[str, Any]:
        record: dict[str, Any] = json.loads(self._file(session_id).read_text())
        return record

    def _save(self, session_id: str, record: dict[str, Any]) -> None:
        self._file(session_id).write_text(json.dumps(record))

    async def _update(self, session_id: str, update: Any, *, keep: bool = True) -> None:
        assert self.conn is not None
        if keep:
            record = self._load(session_id)
            dumped = update.model_dump(mode="json", by_alias=True, exclude_none=True)
            record["updates"].append(dumped)
            self._save(session_id, record)
        await self.conn.session_update(session_id=session_id, update=update)

    async def _say(self, session_id: str, text: str) -> None:
        chunk = AgentMessageChunk(session_update="agent_message_chunk", content=text_block(text))
        await self._update(session_id, chunk)

    async def _set(self, session_id: str, option_id: str, value: Any) -> dict[str, Any]:
        record = self._load(session_id)
        record["values"][option_id] = value
        self._save(session_id, record)
        values: dict[str, Any] = record["values"]
        return values

    # --- ACP agent methods -------------------------------------------------------------

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                session_capabilities=SessionCapabilities(list=SessionListCapabilities()),
            ),
            agent_info=Implementation(name="config-agent", title=AGENT_TITLE, version="0.3"),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        session_id = uuid.uuid4().hex
        record = {"cwd": cwd, "title": None, "values": dict(DEFAULTS), "updates": []}
        self._save(session_id, record)
        return NewSessionResponse(
            session_id=session_id, config_options=config_options(record["values"])
        )

    async def load_session(self, cwd: str, session_id: str, **kwargs: Any) -> LoadSessionResponse:
        assert self.conn is not None
        record = self._load(session_id)
        for raw in record["updates"]:
            note = SessionNotification.model_validate({"sessionId": session_id, "update": raw})
            await self.conn.session_update(session_id=session_id, update=note.update)
        return LoadSessionResponse(config_options=config_options(record["values"]))

    async def list_sessions(self, cwd: str | None = None, **kwargs: Any) -> ListSessionsResponse:
        sessions = []
        for path in sorted(self.store.glob("*.json"), key=lambda p: -p.stat().st_mtime):
            record = json.loads(path.read_text())
            sessions.append(
                SessionInfo(session_id=path.stem, cwd=record["cwd"], title=record["title"])
            )
        return ListSessionsResponse(sessions=sessions)

    async def set_config_option(
        self, config_id: str, session_id: str, value: str | bool, **kwargs: Any
    ) -> SetSessionConfigOptionResponse:
        if not isinstance(value, str) or value not in _choices(config_id):
            raise RequestError.invalid_params({"configId": config_id, "value": value})
        values = await self._set(session_id, config_id, value)
        return SetSessionConfigOptionResponse(config_options=config_options(values))

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        return None

    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> PromptResponse:
        text = "".join(getattr(block, "text", "") for block in prompt).strip()
        record = self._load(session_id)
        record["title"] = record["title"] or text[:40]
        # Stored for replay only: live, the client shows its own prompt.
        chunk = UserMessageChunk(session_update="user_message_chunk", content=text_block(text))
        record["updates"].append(chunk.model_dump(mode="json", by_alias=True, exclude_none=True))
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
                CurrentModeUpdate(session_update="current_mode_update", current_mode_id=mode),
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
        return PromptResponse(stop_reason="end_turn")

    async def _options_changed(self, session_id: str, values: dict[str, Any]) -> None:
        update = ConfigOptionUpdate(
            session_update="config_option_update", config_options=config_options(values)
        )
        await self._update(session_id, update, keep=False)

    async def _ask(self, session_id: str) -> None:
        assert self.conn is not None
        start = ToolCallStart(
            session_update="tool_call",
            tool_call_id="touch-1",
            title="Touch the marker file",
            kind="edit",
            status="pending",
            raw_input={},
        )
        await self._update(session_id, start)
        answer = await self.conn.request_permission(
            session_id=session_id,
            tool_call=ToolCallUpdate(
                tool_call_id="touch-1", title="Touch the marker file", kind="edit", raw_input={}
            ),
            options=[
                PermissionOption(option_id="yes", name="Allow", kind="allow_once"),
                PermissionOption(option_id="no", name="Reject", kind="reject_once"),
            ],
        )
        allowed = isinstance(answer.outcome, AllowedOutcome) and answer.outcome.option_id == "yes"
        await self._update(
            session_id,
            ToolCallProgress(
                session_update="tool_call_update",
                tool_call_id="touch-1",
                status="completed" if allowed else "failed",
                content=[tool_content(text_block("touched" if allowed else "not touched"))],
            ),
        )
        await self._say(session_id, "Done." if allowed else "Left alone.")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--store", type=Path, required=True)
    args = parser.parse_args()
    args.store.mkdir(parents=True, exist_ok=True)
    asyncio.run(run_agent(ConfigAgent(args.store)))


if __name__ == "__main__":
    main()
