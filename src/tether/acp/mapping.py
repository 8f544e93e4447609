"""Session updates as ACP `session/update`s: the same function live and on `session/load`.

Shapes (camelCase on the wire):

- `AgentText` → `agent_message_chunk` with a text block.
- `UserText` / `UserImage` → `user_message_chunk` (sent on load only: a live client already
  has its own prompt).
- `ToolCallStarted` → `tool_call`: `status: "pending"`, the card's title and kind
  (terminal → `execute`, diff → `edit`, generic → its own kind), absolute `locations`,
  `rawInput`, diff items as `content` for a proposed change, and
  `_meta: {"tether": {"view": <call card>}}`.
- `ToolCallProgress` → `tool_call_update` `in_progress` with the partial result card's
  content (bash: the output so far) and `_meta.tether.view` = that partial card.
- `ToolCallFinished` → `tool_call_update` `completed` / `failed` with the result card's
  content, `_meta.tether.view` = the result card, and for a terminal card `rawOutput`
  `{exitCode}` or `{signal}`; a search card's content is the model's text, and its first
  matches are the update's `locations` (absolute path and line) for editors to follow.
- `TitleChanged` → `session_info_update` with the title.
- `TurnEnded` / `TurnFailed` → nothing: the `session/prompt` answer says how the turn ended.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, assert_never

from acp import (
    start_tool_call,
    text_block,
    update_agent_message_text,
    update_tool_call,
    update_user_message,
)
from acp.helpers import SessionUpdate
from acp.schema import (
    ImageContentBlock,
    SessionInfoUpdate,
    ToolCallLocation,
    ToolCallProgress,
    ToolCallStart,
    ToolCallStatus,
    ToolKind,
)

from tether.acp.content import absolute, card_content
from tether.session import (
    AgentText,
    TitleChanged,
    ToolCallFinished,
    ToolCallStarted,
    TurnEnded,
    TurnFailed,
    Update,
    UserImage,
    UserText,
)
from tether.session import ToolCallProgress as Progress
from tether.views import (
    DiffCallView,
    GenericCallView,
    Location,
    SearchMatchesResultView,
    TerminalCallView,
    TerminalResultView,
    ToolCallView,
    ToolResultView,
    dump_view,
)

__all__ = ["MAX_MATCH_LOCATIONS", "acp_update", "tether_meta", "tool_kind"]

MAX_MATCH_LOCATIONS = 20
"""Matches of a search result sent as locations: enough to follow, not the whole list."""


def acp_update(update: Update, cwd: Path) -> SessionUpdate | None:
    """The ACP session update for one tether update, or `None` when it has no counterpart."""
    match update:
        case AgentText(text=text):
            return update_agent_message_text(text)
        case UserText(text=text):
            return update_user_message(text_block(text))
        case UserImage(data=data, mime_type=mime_type):
            return update_user_message(
                ImageContentBlock(type="image", data=data, mime_type=mime_type)
            )
        case ToolCallStarted():
            return _started(update, cwd)
        case Progress(tool_call_id=call_id, view=view):
            return _updated(call_id, "in_progress", view, cwd)
        case ToolCallFinished(tool_call_id=call_id, status=status, view=view, result=result):
            return _updated(call_id, status, view, cwd, result.text())
        case TitleChanged(title=title):
            return SessionInfoUpdate(session_update="session_info_update", title=title)
        case TurnEnded() | TurnFailed():
            return None
        case _:
            assert_never(update)


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


def tether_meta(view: ToolCallView | ToolResultView) -> dict[str, Any]:
    """The `_meta` that carries a card to clients that know them."""
    return {"tether": {"view": dump_view(view)}}


def _started(update: ToolCallStarted, cwd: Path) -> ToolCallStart:
    view = update.view
    start = start_tool_call(
        update.tool_call_id,
        view.title,
        kind=tool_kind(view),
        status="pending",
        content=card_content(view, cwd) or None,
        locations=_locations(view, cwd),
        raw_input=update.raw_input,
    )
    start.field_meta = tether_meta(view)
    return start


def _updated(
    call_id: str,
    status: ToolCallStatus,
    view: ToolResultView,
    cwd: Path,
    model_text: str | None = None,
) -> ToolCallProgress:
    progress = update_tool_call(
        call_id,
        status=status,
        content=card_content(view, cwd, model_text),
        locations=_result_locations(view, cwd),
        raw_output=_raw_output(view) if status != "in_progress" else None,
    )
    progress.field_meta = tether_meta(view)
    return progress


def _locations(view: ToolCallView, cwd: Path) -> list[ToolCallLocation] | None:
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
    return [ToolCallLocation(path=absolute(p.path, cwd), line=p.line) for p in places]


def _result_locations(view: ToolResultView, cwd: Path) -> list[ToolCallLocation] | None:
    # Only search results point somewhere new; other cards' places were sent with the call.
    if not isinstance(view, SearchMatchesResultView) or not view.files:
        return None
    places = [
        ToolCallLocation(path=absolute(f.path, cwd), line=m.line_number)
        for f in view.files
        for m in f.matches
    ]
    return places[:MAX_MATCH_LOCATIONS]


def _raw_output(view: ToolResultView) -> dict[str, Any] | None:
    # Only a terminal's ending is worth repeating: other cards carry all of it in `content`.
    if isinstance(view, TerminalResultView):
        if view.signal is not None:
            return {"signal": view.signal}
        if view.exit_code is not None:
            return {"exitCode": view.exit_code}
    return None
