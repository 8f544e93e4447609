"""Sessions: the append-only event log, the loop over it, and the updates clients render.

store = SessionStore.default()
session = Session.create(store, cwd, model=model, tools=default_tools(), mode="ask")
stop = await session.prompt([TextContent(text="...")], on_update=print)
session.replay()  # the same updates again, derived from the log
"""

from tether.session.errors import (
    CorruptLog,
    PromptFailed,
    SessionBusy,
    SessionError,
    SessionLocked,
    SessionNotFound,
)
from tether.session.events import StopReason
from tether.session.session import CANCELLED, DEFAULT_MAX_STEPS, Mode, Session
from tether.session.store import SessionInfo, SessionStore, data_dir
from tether.session.updates import (
    AgentText,
    TitleChanged,
    ToolCallFinished,
    ToolCallProgress,
    ToolCallStarted,
    TurnEnded,
    TurnFailed,
    Update,
    UserImage,
    UserResource,
    UserText,
)

__all__ = [
    "CANCELLED",
    "DEFAULT_MAX_STEPS",
    "AgentText",
    "CorruptLog",
    "Mode",
    "PromptFailed",
    "Session",
    "SessionBusy",
    "SessionError",
    "SessionInfo",
    "SessionLocked",
    "SessionNotFound",
    "SessionStore",
    "StopReason",
    "TitleChanged",
    "ToolCallFinished",
    "ToolCallProgress",
    "ToolCallStarted",
    "TurnEnded",
    "TurnFailed",
    "Update",
    "UserImage",
    "UserResource",
    "UserText",
    "data_dir",
]
