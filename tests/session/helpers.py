"""Small real tools and models for driving the loop in tests."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any, ClassVar, Self

from pydantic import BaseModel

from tether.content import ContentBlock, TextContent
from tether.models.base import Completed, ModelEvent, ModelRequest, TextDelta
from tether.models.messages import AssistantMessage
from tether.models.script import ScriptModel
from tether.session import ClientUpdate, Session, SessionConfig, SessionStore, ToolCallFinished
from tether.tools import Tool, ToolContext, ToolRegistry, ToolResult
from tether.tools.card_context import CardContext
from tether.views import GenericCallView, GenericResultView, ToolCallView, ToolResultView


class EchoArgs(BaseModel):
    """Arguments of `echo`."""

    text: str


class EchoTool(Tool[EchoArgs, str]):
    """Returns its text; its result card carries a title so cards are not generic fallbacks."""

    name: ClassVar[str] = "echo"
    description: ClassVar[str] = "Echo text back."
    args_model: ClassVar[type[BaseModel]] = EchoArgs

    async def execute(self, args: EchoArgs, ctx: ToolContext) -> str:
        return args.text

    def render(self, args: EchoArgs, value: str) -> list[ContentBlock]:
        return [TextContent(text=value)]

    def presentation_meta(self, args: EchoArgs, value: str) -> Any:
        return {"length": len(value)}

    def present_call(self, args: EchoArgs, context: CardContext) -> ToolCallView:
        return GenericCallView(title=f"echo {args.text}", kind="other")

    def present_result(
        self, args: EchoArgs, result: ToolResult, context: CardContext
    ) -> ToolResultView | None:
        return GenericResultView(title=f"echoed {args.text}", content=result.text())


class SleepArgs(BaseModel):
    """Arguments of `sleep`."""

    key: str
    seconds: float


class SleepTool(Tool[SleepArgs, str]):
    """Sleeps, reports progress, and logs when each call starts and ends (same key: serial)."""

    name: ClassVar[str] = "sleep"
    description: ClassVar[str] = "Sleep a while."
    args_model: ClassVar[type[BaseModel]] = SleepArgs

    def __init__(self) -> None:
        self.trace: list[str] = []

    async def execute(self, args: SleepArgs, ctx: ToolContext) -> str:
        self.trace.append(f"start {ctx.tool_call_id}")
        ctx.report(GenericResultView(content=f"sleeping {args.seconds}s"))
        await asyncio.sleep(args.seconds)
        self.trace.append(f"end {ctx.tool_call_id}")
        return f"slept {args.seconds}"

    def render(self, args: SleepArgs, value: str) -> list[ContentBlock]:
        return [TextContent(text=value)]

    def present_call(self, args: SleepArgs, context: CardContext) -> ToolCallView:
        return GenericCallView(title=f"sleep {args.seconds}", kind="other")

    def serial_key(self, args: SleepArgs) -> str | None:
        return args.key


def call(call_id: str, name: str, arguments: Any) -> dict[str, Any]:
    """One scripted tool call."""
    return {"id": call_id, "name": name, "arguments": arguments}


def script(*turns: dict[str, Any]) -> ScriptModel:
    """A script model from turns."""
    return ScriptModel.from_json(json.dumps({"turns": list(turns)}))


def text(value: str) -> list[ContentBlock]:
    """A text prompt."""
    return [TextContent(text=value)]


class SlowModel:
    """Streams one delta, then waits far longer than any test (to be cancelled)."""

    name = "slow"

    def __init__(self) -> None:
        self.closed = asyncio.Event()
        self.streaming = asyncio.Event()

    async def aclose(self) -> None:
        """Nothing to close."""

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        try:
            yield TextDelta("thinking")
            self.streaming.set()
            await asyncio.sleep(3600)
            yield Completed(AssistantMessage(text="never"))
        finally:
            self.closed.set()


def new_session(
    home: Path,
    cwd: Path,
    model: Any,
    tools: Sequence[Tool[Any, Any]] | ToolRegistry = (),
    **kwargs: Any,
) -> Session:
    """A session in auto mode unless told otherwise."""
    registry = tools if isinstance(tools, ToolRegistry) else ToolRegistry(tools)
    kwargs.setdefault("mode", "auto")
    return Session.create(
        SessionStore(home), cwd, SessionConfig(model=model, tools=registry, **kwargs)
    )


class Recorder:
    """Collects updates."""

    def __init__(self) -> None:
        self.updates: list[ClientUpdate] = []

    def __call__(self, update: ClientUpdate) -> None:
        self.updates.append(update)

    def without_progress(self) -> list[ClientUpdate]:
        """Everything but the live-only progress updates."""
        return [u for u in self.updates if u.kind != "tool_call_progress"]

    def finished(self) -> dict[str, ToolCallFinished]:
        """Each finished tool call's `ToolCallFinished`, by call id."""
        return {u.tool_call_id: u for u in self.updates if isinstance(u, ToolCallFinished)}


class Sessions:
    """The sessions one test opens in one store, every one closed when the test ends."""

    def __init__(self, home: Path) -> None:
        self.store = SessionStore(home)
        self._closing = contextlib.ExitStack()

    def create(self, cwd: Path, config: SessionConfig) -> Session:
        """A new session in `cwd`."""
        return self.add(Session.create(self.store, cwd, config))

    def load(self, session_id: str, config: SessionConfig) -> Session:
        """An existing session, to continue it."""
        return self.add(Session.load(self.store, session_id, config))

    def new(
        self,
        cwd: Path,
        model: Any,
        tools: Sequence[Tool[Any, Any]] | ToolRegistry = (),
        **kwargs: Any,
    ) -> Session:
        """A new session as `new_session` makes it."""
        return self.add(new_session(self.store.root, cwd, model, tools, **kwargs))

    def add(self, session: Session) -> Session:
        """A session opened some other way, to be closed with the rest."""
        self._closing.callback(session.close)
        return session

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        # Every session is closed even when closing one fails; closing twice does nothing.
        self._closing.close()


def log_lines(session: Session, home: Path) -> list[dict[str, Any]]:
    """The session's log file, parsed line by line."""
    path = home / "sessions" / f"{session.id}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]
