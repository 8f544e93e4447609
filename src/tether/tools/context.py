"""What a running tool gets from the session."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tether.errors import PermissionDenied
from tether.tools.access import Access, AllowAll, Gate, HookVerdict, PermissionOutcome
from tether.tools.answer import Answerer
from tether.tools.delegate import Delegate
from tether.tools.observations import FileObservations
from tether.tools.workspace import Workspace

if TYPE_CHECKING:
    import asyncio

    # The jobs run commands as `bash` does, whose package needs this module first.
    from tether.tools.bash.jobs import Jobs
    from tether.views import ToolResultView

__all__ = ["DEFAULT_READ_BYTE_CAP", "ToolContext"]

DEFAULT_READ_BYTE_CAP = 51_200


def _ignore(_view: ToolResultView) -> None:
    return None


def _new_event() -> asyncio.Event:
    # asyncio loads with the first context made (a call about to run), not with the tool
    # classes: replaying a log's cards (`tether show`) names them and runs none.
    import asyncio

    return asyncio.Event()


@dataclass
class ToolContext:
    """The workspace, policy, observations and live channels one tool call sees."""

    workspace: Workspace
    gate: Gate = field(default_factory=AllowAll)
    observations: FileObservations = field(default_factory=FileObservations)
    cancelled: asyncio.Event = field(default_factory=_new_event)
    report: Callable[[ToolResultView], None] = _ignore
    """Live progress (a partial result view, e.g. a terminal card's output so far); never stored."""
    read_byte_cap: int = DEFAULT_READ_BYTE_CAP
    tool_call_id: str = ""
    shown: list[Path] = field(default_factory=list)
    """Files whose content the call put before the model (resolved paths); the session
    follows a successful result with the instructions (`AGENTS.md`) of their directories."""
    delegate: Delegate | None = None
    """Runs child sessions (the `task` tool's); `None` where no agent may be started."""
    answerer: Answerer | None = None
    """Answers `web_fetch`'s questions from a page; `None` where no model may be asked."""
    jobs: Jobs | None = None
    """The session's background commands; `None` where none may run."""
    hook: HookVerdict | None = None
    """What the call's `PreToolUse` hooks said of it, for the gate to count."""
    permission: PermissionOutcome | None = None
    """How the call's last question was settled (`None`: no one was asked); the session
    stores it with the call's result."""

    async def authorize(self, access: Access) -> None:
        """Return when the gate lets `access` go ahead; raise `PermissionDenied` saying why
        not. How a person settled it is kept in `permission`."""
        try:
            outcome = await self.gate.authorize(access, self.hook)
        except PermissionDenied as refused:
            if refused.outcome is not None:
                self.permission = refused.outcome
            raise
        if outcome is not None:
            # A call may ask more than once; the last answer is the one that decided it.
            self.permission = outcome
