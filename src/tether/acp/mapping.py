"""Session updates as ACP `session/update`s: the same function live and on `session/load`.

Shapes (camelCase on the wire):

- `AgentText` → `agent_message_chunk` with a text block.
- `AgentThought` → `agent_thought_chunk` with a text block (the model's reasoning).
- `ThoughtFinished` → an empty `agent_thought_chunk` whose `_meta.tether.thought` is
  `{durationMs}`: where a thought ended and how long it took (live and on load alike).
- `UserText` / `UserImage` / `UserResource` → `user_message_chunk` (sent on load only: a
  live client already has its own prompt).
- `ToolCallStarted` → `tool_call`: `status: "pending"`, the card's title and kind
  (terminal → `execute`, diff → `edit`, generic → its own kind), absolute `locations`,
  `rawInput`, diff items as `content` for a proposed change, and
  `_meta: {"tether": {"view": <call card>}}`.
- `ToolCallPartial` → `tool_call_update` `in_progress` with the partial result card's
  content (bash: the tail of the output so far) and `_meta.tether.view` = that partial card.
- `JobChanged` → `tool_call_update` of the background command's call, without a status (the
  call finished when the job started): its terminal card's content and the card in
  `_meta.tether.view`, with `_meta.tether.job` = `{id, ended}`.
- `ToolCallFinished` → `tool_call_update` `completed` / `failed` (the call's status: an
  error, or a command cancelled, timed out or killed by a signal) with the result card's
  content (a generic card's image attachments with the result's images), its `locations`
  (a read's first line, the first line of each hunk of a change, a search's first matches,
  a path search's first files), `_meta.tether.view` = the result card, and for a terminal card
  `rawOutput` `{exitCode}` or `{signal}`; a search card's content is the model's own text;
  when the policy asked a person (or refused with no one to ask), `_meta.tether.permission`
  is the outcome (`allow_once`, `allow_always`, `reject`, `refused`).
- `TitleChanged` → `session_info_update` with the title.
- `TurnEnded` / `TurnFailed` → a `session_info_update` whose `_meta.tether.turnEnd` is
  `{stopReason, error?}`, live (just before the `session/prompt` answer) and on load, so a
  replaying client sees where each prompt ended and why, as it did live.
- `UsageChanged` → `usage_update` with `used` and `size` (after each model response),
  `cost` (`{amount, currency: "USD"}`, what the session's responses cost so far, left out
  while a price is unknown), and `_meta.tether.compactAt`, the share of the window past
  which the session compacts.
- `CheckpointSaved` / `FilesRestored` → `agent_message_chunk` with the notice as text (as
  for every notice: a paragraph of its own, after a blank line) and
  `_meta.tether.notice` = `{kind: "checkpoint", prompt, files, skipped, partial}` /
  `{kind: "restore", action, prompt, restored, kept}`.
- `CommandAnswered` → `agent_message_chunk` with tether's answer to a command; a fork's with
  `_meta.tether.notice` = `{kind: "fork", sessionId, prompt}`.
- `TrustSettled` → `agent_message_chunk` with the answer as text and `_meta.tether.notice` =
  `{kind: "trust", root, decision}` (`allow_always`, `allow_once`, `reject`).
- `ContextCompacted` → `agent_message_chunk` with the notice as text and
  `_meta.tether.notice` = `{kind: "compaction", method, beforeTokens, afterTokens}`.
- `HookRan` → `agent_message_chunk` with the notice as text and `_meta.tether.notice` =
  `{kind: "hook", event, command, durationMs, exitCode?, decision?, message?, failed,
  addedContext, toolCallId?}`.

Every card in `_meta` names paths absolutely, as `locations` do, and a result card carries
the title of its call (given as `title`), so a call has one title from start to end.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any, assert_never

from acp import (
    start_tool_call,
    text_block,
    update_agent_message_text,
    update_agent_thought_text,
    update_tool_call,
    update_user_message,
)
from acp.helpers import SessionUpdate
from acp.schema import (
    AgentMessageChunk,
    AgentThoughtChunk,
    ConfigOptionUpdate,
    Cost,
    ImageContentBlock,
    SessionInfoUpdate,
    ToolCallLocation,
    ToolCallProgress,
    ToolCallStart,
    ToolCallStatus,
    ToolKind,
    UsageUpdate,
)

from tether.acp.content import card_content
from tether.acp.paths import absolute_call, absolute_result, result_locations
from tether.acp.prompt import acp_resource
from tether.content import ImageContent
from tether.session import (
    AgentText,
    CheckpointSaved,
    ClientUpdate,
    ContextCompacted,
    FilesRestored,
    JobChanged,
    TitleChanged,
    ToolCallFinished,
    ToolCallPartial,
    ToolCallStarted,
    TurnEnded,
    TurnFailed,
    UsageChanged,
    UserImage,
    UserResource,
    UserText,
)
from tether.session.notices import CommandAnswered, HookRan, TrustSettled
from tether.session.updates import AgentThought, ThoughtFinished
from tether.tools.result import ToolResult
from tether.views import (
    DiffCallView,
    GenericCallView,
    Location,
    TaskResultView,
    TerminalCallView,
    TerminalResultView,
    ToolCallView,
    ToolResultView,
    dump_view,
)

__all__ = ["NOTICE_BREAK", "AcpUpdate", "acp_update", "call_locations", "tether_meta", "tool_kind"]

NOTICE_BREAK = "\n\n"
"""What every notice's text starts with, so it begins a paragraph after any text before it."""

AcpUpdate = SessionUpdate | UsageUpdate | ConfigOptionUpdate
"""A `session/update` tether sends."""


def acp_update(update: ClientUpdate, cwd: Path, title: str | None = None) -> AcpUpdate | None:
    """The ACP session update for one tether update, or `None` when it has no counterpart.

    `title` is the title of the call a progress or finished update belongs to.
    """
    match update:
        case AgentText(text=text):
            return update_agent_message_text(text)
        case AgentThought(text=text):
            return update_agent_thought_text(text)
        case ThoughtFinished(duration_ms=ms):
            return AgentThoughtChunk(
                session_update="agent_thought_chunk",
                content=text_block(""),
                field_meta={"tether": {"thought": {"durationMs": ms}}},
            )
        case UserText(text=text):
            return update_user_message(text_block(text))
        case UserImage(data=data, mime_type=mime_type):
            return update_user_message(
                ImageContentBlock(type="image", data=data, mime_type=mime_type)
            )
        case UserResource(block=block):
            return update_user_message(acp_resource(block))
        case ToolCallStarted():
            return _started(update, cwd)
        case ToolCallPartial(tool_call_id=call_id, view=view):
            return _updated(call_id, "in_progress", view, cwd, title)
        case ToolCallFinished(tool_call_id=call_id, status=status, view=view, result=result):
            images = [b for b in result.content if isinstance(b, ImageContent)]
            final = _updated(
                call_id, status, view, cwd, title, model_text=result.text(), images=images
            )
            if update.permission is not None and final.field_meta is not None:
                final.field_meta["tether"]["permission"] = update.permission
            if (started := _started_job(result)) is not None and final.field_meta is not None:
                final.field_meta["tether"]["job"] = {"id": started, "ended": False}
            return final
        case JobChanged(tool_call_id=call_id, view=view):
            # The call stays as it finished; its card (content and view) follows the job.
            card = update_tool_call(call_id, content=card_content(view, cwd))
            card.field_meta = tether_meta(view, job={"id": update.job_id, "ended": update.ended})
            return card
        case TitleChanged(title=title):
            return SessionInfoUpdate(session_update="session_info_update", title=title)
        case TurnEnded(stop_reason=reason):
            return _turn_end({"stopReason": reason})
        case TurnFailed(message=message):
            return _turn_end({"stopReason": "error", "error": message})
        case UsageChanged(used=used, size=size, compact_at=compact_at, cost_usd=cost):
            usage = UsageUpdate(session_update="usage_update", used=used, size=size)
            if cost is not None:
                usage.cost = Cost(amount=cost, currency="USD")
            if compact_at is not None:
                # Where the agent compacts, so a client can warn before it does.
                usage.field_meta = {"tether": {"compactAt": compact_at}}
            return usage
        case ContextCompacted():
            notice = {
                "kind": "compaction",
                "method": update.method,
                "beforeTokens": update.before_tokens,
                "afterTokens": update.after_tokens,
            }
            return _notice(update.text, notice)
        case CheckpointSaved():
            return _notice(
                update.text,
                {
                    "kind": "checkpoint",
                    "prompt": update.prompt,
                    "files": list(update.files),
                    "skipped": list(update.skipped),
                    "partial": update.partial,
                },
            )
        case FilesRestored():
            return _notice(
                update.text,
                {
                    "kind": "restore",
                    "action": update.action,
                    "prompt": update.prompt,
                    "restored": list(update.restored),
                    "kept": list(update.kept),
                },
            )
        case HookRan():
            return _notice(update.text, _hook_notice(update))
        case CommandAnswered():
            text, fork = update.text, update.fork
            if fork is None:
                return update_agent_message_text(text)
            forked = {"kind": "fork", "sessionId": fork, "prompt": update.prompt}
            return _notice(text.rstrip("\n"), forked)
        case TrustSettled():
            trust = {"kind": "trust", "root": update.root, "decision": update.decision}
            return _notice(update.text, trust)
        case _:
            assert_never(update)


def _notice(text: str, notice: dict[str, Any]) -> AgentMessageChunk:
    """A notice for people as agent text, with what it says in `_meta.tether.notice`."""
    # A paragraph of its own: the model's last words rarely end in a newline, and a client
    # that joins agent chunks would run the notice into them (`...triples.checkpoint: ...`).
    return AgentMessageChunk(
        session_update="agent_message_chunk",
        content=text_block(NOTICE_BREAK + text + "\n"),
        field_meta={"tether": {"notice": notice}},
    )


def _hook_notice(update: HookRan) -> dict[str, Any]:
    notice: dict[str, Any] = {
        "kind": "hook",
        "event": update.event,
        "command": update.command,
        "durationMs": update.duration_ms,
        "failed": update.failed,
        "addedContext": update.added_context,
    }
    optional = {
        "exitCode": update.exit_code,
        "decision": update.decision,
        "message": update.message,
        "toolCallId": update.tool_call_id,
    }
    notice.update({key: value for key, value in optional.items() if value is not None})
    return notice


def tool_kind(view: ToolCallView) -> ToolKind:
    """ACP's tool kind for a call card."""
    match view:
        case TerminalCallView():
            return "execute"
        case DiffCallView():
            return "edit"
        case GenericCallView(kind=kind):
            return kind or "other"
        case _:
            assert_never(view)


def _started_job(result: ToolResult) -> str | None:
    """The background command a result started and left running (`shell-1`), if any."""
    meta = result.meta
    if result.is_error or not isinstance(meta, dict) or not isinstance(meta.get("background"), str):
        return None
    if meta.get("exitCode") is not None or meta.get("signal") is not None:
        return None
    return str(meta["background"])


def tether_meta(view: ToolCallView | ToolResultView, **extra: Any) -> dict[str, Any]:
    """The `_meta` that carries a card (and any `extra` tether fields) to clients that know them."""
    return {"tether": {"view": dump_view(view), **extra}}


def _started(update: ToolCallStarted, cwd: Path) -> ToolCallStart:
    view = absolute_call(update.view, cwd)
    start = start_tool_call(
        update.tool_call_id,
        view.title,
        kind=tool_kind(view),
        status="pending",
        content=card_content(view, cwd) or None,
        locations=call_locations(view),
        raw_input=update.raw_input,
    )
    start.field_meta = tether_meta(view)
    return start


def _updated(
    call_id: str,
    status: ToolCallStatus,
    view: ToolResultView,
    cwd: Path,
    title: str | None,
    *,
    model_text: str | None = None,
    images: Sequence[ImageContent] = (),
) -> ToolCallProgress:
    view = absolute_result(view, cwd)
    if title is not None:
        view = dataclasses.replace(view, title=title)
    done = status != "in_progress"
    places = result_locations(view, cwd) if done else None
    progress = update_tool_call(
        call_id,
        status=status,
        content=card_content(view, cwd, model_text, images),
        locations=[ToolCallLocation(path=p.path, line=p.line) for p in places] if places else None,
        raw_output=_raw_output(view) if done else None,
    )
    progress.field_meta = tether_meta(view)
    if isinstance(view, TaskResultView) and title is not None:
        # An agent's permission request showed its own title on this call: give it back.
        progress.title = title
    return progress


def _turn_end(end: dict[str, str]) -> SessionInfoUpdate:
    info = SessionInfoUpdate(session_update="session_info_update")
    info.field_meta = {"tether": {"turnEnd": end}}
    return info


def call_locations(view: ToolCallView) -> list[ToolCallLocation] | None:
    """Where a call card points the editor (a diff's files, a generic card's places)."""
    match view:
        case TerminalCallView():
            return None
        case DiffCallView(locations=None, diffs=diffs):
            places: tuple[Location, ...] = tuple(Location(path=d.path) for d in diffs)
        case DiffCallView(locations=given) | GenericCallView(locations=given):
            if given is None:
                return None
            places = given
        case _:
            assert_never(view)
    return [ToolCallLocation(path=p.path, line=p.line) for p in places]


def _raw_output(view: ToolResultView) -> dict[str, Any] | None:
    # Only a terminal's ending is worth repeating: other cards carry all of it in `content`.
    if isinstance(view, TerminalResultView):
        if view.signal is not None:
            return {"signal": view.signal}
        if view.exit_code is not None:
            return {"exitCode": view.exit_code}
    return None
