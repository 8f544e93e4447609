"""The loop of one prompt: the model's steps and their tool calls, the hooks around them, and
the turn's end in the log (a cancelled, failed or interrupted turn ends there too)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import assert_never

from tether.content import TextContent
from tether.errors import ContextOverflow, ModelError, PromptFailed
from tether.models.base import Completed, Model, TextDelta, ThinkingDelta
from tether.models.messages import FinishReason, ThinkingLevel
from tether.models.thinking import raised
from tether.session._gc import gc_for_sessions
from tether.session.calls import close_stream, unique_ids
from tether.session.context.compaction import compact_command, summary_point
from tether.session.context.window import Context
from tether.session.hooked import SessionHooks
from tether.session.log.eventlog import E, EventLog
from tether.session.log.events import (
    AssistantChunk,
    AssistantMessageEvent,
    AssistantThinking,
    SessionTitle,
    ThinkingPart,
    ToolCallEvent,
    ToolCallRecord,
    ToolResultEvent,
    TurnEnd,
    TurnStart,
    TurnStop,
    UserMessageEvent,
)
from tether.session.log.title import title_from
from tether.session.replay import user_updates
from tether.session.rewind.checkpointing import Checkpoints
from tether.session.runner import CallRunner
from tether.session.thoughts import ThoughtClock
from tether.session.turn import Turn
from tether.session.updates import AgentText, ClientUpdate, TitleChanged, TurnEnded, TurnFailed

__all__ = ["CANCELLED", "INTERRUPTED", "OnUpdate", "PromptLoop", "guarded", "ignore"]

log = logging.getLogger(__name__)

OnUpdate = Callable[[ClientUpdate], None]

CANCELLED = "Cancelled by the user"
INTERRUPTED = "Interrupted: tether stopped before this call finished"


class PromptLoop:
    """Runs a session's prompts over its log: ask the model, run its calls, repeat, end."""

    def __init__(
        self,
        log_: EventLog,
        *,
        model: Callable[[], Model],
        max_steps: Callable[[], int],
        context: Context,
        calls: CallRunner,
        checkpoints: Checkpoints,
        hooks: SessionHooks,
        thinking: Callable[[], ThinkingLevel] | None = None,
    ) -> None:
        self._log = log_
        self._thinking = thinking
        self._level: ThinkingLevel = "off"
        """How hard the running prompt asks the model to think."""
        self._model = model
        self._max_steps = max_steps
        self._context = context
        self._calls = calls
        self._checkpoints = checkpoints
        self._hooks = hooks
        self._resumed = any(isinstance(e, TurnStart) for e in log_.events)

    async def run(self, said: UserMessageEvent, emit: OnUpdate, turn: Turn) -> TurnStop:
        """Run the prompt `said` to its end; a model failure is recorded, then raised as
        `PromptFailed`."""
        gc_for_sessions()
        self._append(TurnStart())
        prompt = self._append(said)
        words = " ".join(b.text for b in said.content if isinstance(b, TextContent))
        self._level = raised(self._thinking() if self._thinking else "off", words)
        for update in user_updates(prompt):
            emit(update)
        self._checkpoints.begin(self._prompt_count())
        focus = compact_command(said.content)
        # A prompt a hook may block does not title the session before the hook has run.
        screened = focus is None and self._hooks.screens_prompts
        if focus is None and not screened:
            self._title_from(said, emit)
        try:
            turn.check()
            resumed, self._resumed = self._resumed, True
            if not await self._hooks.opening(
                said.content, emit, resumed=resumed, command=focus is not None
            ):
                stop: TurnStop = "end_turn"  # a hook blocked the prompt; its notice says why
            else:
                if screened:
                    self._title_from(said, emit)
                if focus is None:
                    stop = await self._steps(emit, turn)
                else:
                    stop = await self._compact_now(prompt.seq, focus, emit)
            await self._hooks.settle()
        except asyncio.CancelledError:
            await self._settle_checkpoints()
            self._end(TurnEnd(stop_reason="cancelled"), emit)
            if not turn.cancel_requested:
                raise  # the caller itself was cancelled: recorded, and passed on
            return "cancelled"
        except ModelError as exc:
            await self._settle_checkpoints()
            self._end(TurnEnd(stop_reason="error", error=str(exc)), emit)
            raise PromptFailed(str(exc)) from exc
        except BaseException as exc:
            await self._settle_checkpoints()
            message = f"internal error: {type(exc).__name__}: {exc}"
            self._end(TurnEnd(stop_reason="error", error=message), emit)
            raise
        await self._settle_checkpoints()
        self._end(TurnEnd(stop_reason=stop), emit)
        return stop

    def close_interrupted(self) -> None:
        """End the log's last turn if a stopped process left it open: its calls without a
        result get one saying they were interrupted."""
        events = self._log.events
        starts = [i for i, e in enumerate(events) if isinstance(e, TurnStart)]
        if not starts or any(isinstance(e, TurnEnd) for e in events[starts[-1] :]):
            return
        answered = {e.tool_call_id for e in events[starts[-1] :] if isinstance(e, ToolResultEvent)}
        for event in events[starts[-1] :]:
            if isinstance(event, ToolCallEvent) and event.tool_call_id not in answered:
                self._calls.adopt(event)
        self._end(TurnEnd(stop_reason="cancelled"), ignore, unfinished=INTERRUPTED)

    async def _settle_checkpoints(self) -> None:
        try:
            await self._checkpoints.settle()
        except asyncio.CancelledError:
            # Cancelled again while saving: the save lands later, or the next one sees it.
            log.warning("a checkpoint was interrupted")

    def _title_from(self, said: UserMessageEvent, emit: OnUpdate) -> None:
        titled = any(isinstance(e, SessionTitle) for e in self._log.events)
        if not titled and (title := title_from(said.content)):
            emit(TitleChanged(title=self._append(SessionTitle(title=title)).title))

    async def _compact_now(self, command_seq: int, focus: str, emit: OnUpdate) -> TurnStop:
        # The summary covers the conversation before the command, and the command itself.
        earlier = [e for e in self._log.events if e.seq < command_seq]
        if summary_point(earlier, everything=True) is None:
            raise ModelError("nothing to compact yet: the conversation is empty")
        if await self._hooks.pre_compact("manual", focus or None, emit):
            return "end_turn"  # a PreCompact hook blocked it; its notice says why
        if not await self._context.summarise(
            command_seq, focus or None, emit, asked=command_seq - 1
        ):
            raise ModelError("the model gave an empty summary; nothing was compacted")
        return "end_turn"

    async def _steps(self, emit: OnUpdate, turn: Turn) -> TurnStop:
        continued = 0  # times in a row a Stop hook made the model go on
        for step in range(1, self._max_steps() + 1):
            if self._hooks.stopped is not None:
                return "end_turn"  # a hook stopped the turn; its notice says why
            try:
                reply = await self._ask_model(emit)
            except ContextOverflow as exc:
                # The estimate fell short of the provider's count: compact hard, retry once.
                log.warning("context overflow, compacting: %s", exc)
                await self._context.compact(emit, forced=True)
                reply = await self._ask_model(emit, compact=False)
            if not reply.tool_calls:
                stop = _stop_reason(reply.stop_reason)
                if stop == "end_turn" and await self._hooks.stop(continued, emit):
                    continued += 1
                    continue
                return stop
            await self._checkpoints.before_step(step, reply.tool_calls)
            await self._calls.run(reply.tool_calls, emit, turn.cancelled)
            await self._checkpoints.after_step()
        return "max_turn_requests"

    async def _ask_model(self, emit: OnUpdate, *, compact: bool = True) -> AssistantMessageEvent:
        request = replace(await self._context.ready(emit, compact=compact), thinking=self._level)
        model = self._model()
        stream = model.stream(request)
        thought = ThoughtClock()
        try:
            async for event in stream:
                match event:
                    case ThinkingDelta(text=text):
                        if text:
                            before = self._log.events[-1] if self._log.events else None
                            emit(thought.chunk(self._append(AssistantThinking(text=text)), before))
                    case TextDelta(text=text):
                        if text:
                            _close(thought, emit)
                            emit(AgentText(text=self._append(AssistantChunk(text=text)).text))
                    case Completed(message=reply, usage=usage):
                        _close(thought, emit)
                        ids = unique_ids([c.id for c in reply.tool_calls], self._log.call_ids)
                        calls = tuple(
                            ToolCallRecord(id=call_id, name=c.name, arguments=c.arguments)
                            for call_id, c in zip(ids, reply.tool_calls, strict=True)
                        )
                        logged = self._append(
                            AssistantMessageEvent(
                                text=reply.text,
                                tool_calls=calls,
                                stop_reason=reply.stop_reason,
                                thinking=tuple(
                                    ThinkingPart(
                                        text=t.text,
                                        signature=t.signature,
                                        redacted=t.redacted,
                                        source=t.source,
                                        item_id=t.item_id,
                                    )
                                    for t in reply.thinking
                                )
                                or None,
                            )
                        )
                        self._context.reported(request, reply, usage, emit)
                        return logged
                    case _:
                        assert_never(event)
        finally:
            _close(thought, emit)  # cancelled or failed mid-thought: the replay closes it too
            await close_stream(stream)
        raise ModelError(f"the model {model.name} ended its stream without a message")

    def _end(self, end: TurnEnd, emit: OnUpdate, unfinished: str = CANCELLED) -> None:
        # Every call gets a result, so the history stays valid for the next request.
        self._calls.finish_pending(unfinished, emit)
        notice = self._checkpoints.notice()
        if notice is not None:
            emit(notice)
        self._hooks.drop_background()
        self._append(end)
        self._log.sync()
        if end.stop_reason == "error":
            emit(TurnFailed(message=end.error or "the model failed"))
        else:
            emit(TurnEnded(stop_reason=end.stop_reason))

    def _prompt_count(self) -> int:
        return sum(isinstance(e, TurnStart) for e in self._log.events)

    def _append(self, event: E) -> E:
        return self._log.append(event)


def _close(thought: ThoughtClock, emit: OnUpdate) -> None:
    """Say how long the model thought, when a thought was running."""
    finished = thought.close()
    if finished is not None:
        emit(finished)


def ignore(_update: ClientUpdate) -> None:
    """Drop an update (no one is listening)."""
    return None


def guarded(on_update: OnUpdate) -> OnUpdate:
    """`on_update`, with its failures logged rather than raised."""

    # A client that fails to render must not leave the log half-written.
    def emit(update: ClientUpdate) -> None:
        try:
            on_update(update)
        except Exception:
            log.exception("an update handler failed on %s", update.kind)

    return emit


def _stop_reason(reason: FinishReason) -> TurnStop:
    match reason:
        case "max_tokens" | "refusal":
            return reason
        case "end_turn" | "tool_use":
            return "end_turn"
