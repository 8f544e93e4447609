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
    UnusableCwd,
)
from tether.session.events import TurnStop
from tether.session.session import CANCELLED, Session
from tether.session.store import SessionStore, StoredSession, data_dir
from tether.session.updates import (
    AgentText,
    ClientUpdate,
    ContextCompacted,
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
    "ClientUpdate",
    "ContextCompacted",
    "CorruptLog",
    "PromptFailed",
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
    "UnusableCwd",
    "UsageChanged",
    "UserImage",
    "UserResource",
    "UserText",
    "data_dir",
]
