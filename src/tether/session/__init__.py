"""Sessions: the append-only event log, the loop over it, and the updates clients render.

`log/` is the log (its events, the file, the store), `context/` what the model is sent,
`rewind/` rewind, undo, redo and fork; the loop, the call runner and replay stand here.

store = SessionStore.default()
session = Session.create(store, cwd, SessionConfig(model=model, tools=default_tools()))
stop = await session.prompt([TextContent(text="...")], on_update=print)
session.replay()  # the same updates again, derived from the log
"""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
    from tether.session.config import SessionConfig
    from tether.session.limits import DEFAULT_MAX_STEPS
    from tether.session.log.events import TurnStop
    from tether.session.log.store import SessionStore, StoredSession, data_dir
    from tether.session.loop import CANCELLED
    from tether.session.notices import CheckpointSaved, FilesRestored
    from tether.session.rewind.conflicts import Conflict
    from tether.session.rewind.plan import PromptChanges, RestorePlan
    from tether.session.session import Session
    from tether.session.updates import (
        AgentText,
        ClientUpdate,
        ContextCompacted,
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

__all__ = [
    "CANCELLED",
    "DEFAULT_MAX_STEPS",
    "AgentText",
    "CheckpointSaved",
    "ClientUpdate",
    "Conflict",
    "ContextCompacted",
    "FilesRestored",
    "JobChanged",
    "PromptChanges",
    "RestorePlan",
    "Session",
    "SessionConfig",
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

__getattr__ = lazy_names(
    __name__,
    {
        "DEFAULT_MAX_STEPS": "tether.session.limits",
        "SessionConfig": "tether.session.config",
        "Conflict": "tether.session.rewind.conflicts",
        "PromptChanges": "tether.session.rewind.plan",
        "RestorePlan": "tether.session.rewind.plan",
        "TurnStop": "tether.session.log.events",
        "CANCELLED": "tether.session.loop",
        "Session": "tether.session.session",
        "SessionStore": "tether.session.log.store",
        "StoredSession": "tether.session.log.store",
        "data_dir": "tether.session.log.store",
        "AgentText": "tether.session.updates",
        "ClientUpdate": "tether.session.updates",
        "ContextCompacted": "tether.session.updates",
        "CheckpointSaved": "tether.session.notices",
        "FilesRestored": "tether.session.notices",
        "TitleChanged": "tether.session.updates",
        "ToolCallFinished": "tether.session.updates",
        "ToolCallPartial": "tether.session.updates",
        "JobChanged": "tether.session.updates",
        "ToolCallStarted": "tether.session.updates",
        "TurnEnded": "tether.session.updates",
        "TurnFailed": "tether.session.updates",
        "UsageChanged": "tether.session.updates",
        "UserImage": "tether.session.updates",
        "UserResource": "tether.session.updates",
        "UserText": "tether.session.updates",
    },
)
