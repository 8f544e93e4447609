"""Sessions: the append-only event log, the loop over it, and the updates clients render.

store = SessionStore.default()
session = Session.create(store, cwd, SessionConfig(model=model, tools=default_tools()))
stop = await session.prompt([TextContent(text="...")], on_update=print)
session.replay()  # the same updates again, derived from the log
"""

from tether.session.config import DEFAULT_MAX_STEPS, SessionConfig
from tether.session.errors import (
    CorruptLog,
    PromptFailed,
    SessionBusy,
    SessionError,
    SessionLocked,
    SessionNotFound,
)
from tether.session.events import TurnStop
from tether.session.rewind import Conflict, PromptChanges, RestorePlan, RewindError
from tether.session.session import CANCELLED, Session
from tether.session.store import SessionStore, StoredSession, data_dir
from tether.session.updates import (
    AgentText,
    CheckpointSaved,
    ClientUpdate,
    ContextCompacted,
    FilesRestored,
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

__all__ = [
    "CANCELLED",
    "DEFAULT_MAX_STEPS",
    "AgentText",
    "CheckpointSaved",
    "ClientUpdate",
    "Conflict",
    "ContextCompacted",
    "CorruptLog",
    "FilesRestored",
    "PromptChanges",
    "PromptFailed",
    "RestorePlan",
    "RewindError",
    "Session",
    "SessionBusy",
    "SessionConfig",
    "SessionError",
    "SessionLocked",
    "SessionNotFound",
    "SessionStore",
    "StoredSession",
    "TitleChanged",
    "ToolCallFinished",
    "ToolCallPartial",
    "ToolCallStarted",
    "TurnEnded",
    "TurnFailed",
    "TurnStop",
    "UsageChanged",
    "UserImage",
    "UserResource",
    "UserText",
    "data_dir",
]
