"""Asking a person: the request, the choices offered and the answer."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Protocol

from tether.policy.instead import INSTEAD, said_instead
from tether.tools.access import Access, PermissionDecision
from tether.views import ToolCallView

__all__ = [
    "DECISION_KEYS",
    "INSTEAD",
    "DelegatedAccess",
    "PermissionAnswer",
    "PermissionAsker",
    "PermissionChoice",
    "PermissionQuestion",
    "PlanApproval",
    "RejectWithMessage",
    "ServerStart",
    "Subject",
    "WorkspaceTrust",
    "said_instead",
]

DECISION_KEYS: dict[PermissionDecision, str] = {
    "allow_once": "yes once",
    "allow_always": "always",
    "allow_project": "project",
    "reject": "no",
}
"""What a person types for each decision where answers are typed: its first letter or its
first word (`y`, `yes`; `a`, `always`; `p`, `project`; `n`, `no`); the whole is the prompt's
wording (`[y]es once`)."""


@dataclass(frozen=True)
class RejectWithMessage:
    """A rejection with what the person wants done instead; the model reads it with the refusal."""

    message: str


PermissionAnswer = PermissionDecision | RejectWithMessage
"""What an asker may answer: a decision, or a rejection that carries the person's words."""


@dataclass(frozen=True)
class PermissionChoice:
    """One button: the decision it stands for and its label (an ACP `PermissionOption`)."""

    decision: PermissionDecision
    name: str


@dataclass(frozen=True)
class ServerStart:
    """Starting the MCP servers of a project's `.mcp.json`: asked by a run, not by a tool call."""

    names: tuple[str, ...]
    tool_call_id: ClassVar[str] = ""
    """No call asks, so there is no card to show the question beside."""

    @property
    def title(self) -> str:
        """What is asked about."""
        return f"start the MCP servers of .mcp.json ({', '.join(self.names)})"


@dataclass(frozen=True)
class WorkspaceTrust:
    """Trusting a workspace, so that what its own settings grant (`withheld`) applies."""

    root: Path
    withheld: tuple[str, ...]
    tool_call_id: ClassVar[str] = "workspace-trust"
    """No call asks; clients get this id for the request."""

    @property
    def title(self) -> str:
        """What is asked about."""
        shown = ", ".join(self.withheld[:3])
        more = f" and {len(self.withheld) - 3} more" if len(self.withheld) > 3 else ""
        return f"the settings of {self.root} to take effect ({shown}{more})"


@dataclass(frozen=True)
class DelegatedAccess:
    """An access a child session's call needs, asked through its parent's asker.

    The question is the child's own (its gate decided to ask, in its parent's mode); it is
    shown beside the parent's `task` call, whose card the person sees, and names the agent.
    """

    agent: str
    access: Access
    tool_call_id: str
    """The parent's `task` call that started the child."""
    view: ToolCallView | None = None
    """The child's call card: what would happen (a diff, a command) if it is allowed."""

    @property
    def title(self) -> str:
        """The agent's name, then what its call does (`Read /etc/hosts`)."""
        return f"{self.agent} › {self.access.title}"


@dataclass(frozen=True)
class PlanApproval:
    """Approving the model's plan, which leaves plan mode (`exit_plan_mode`): the person
    picks the mode to work in, or keeps planning and says what to change."""

    plan: str
    tool_call_id: str

    @property
    def title(self) -> str:
        """What is asked about."""
        return "this plan, leaving plan mode to carry it out"


Subject = Access | ServerStart | DelegatedAccess | WorkspaceTrust | PlanApproval
"""What a person is asked about: a tool's access (through the gate), a child's, a server
start, trusting a workspace, or a plan."""


@dataclass(frozen=True)
class PermissionQuestion:
    """What needs a person's answer, with the options to offer in order."""

    subject: Subject
    options: tuple[PermissionChoice, ...]
    reason: str
    """Why the mode asks, e.g. `outside the workspace` or `the mode is ask`."""
    allowable: bool = False
    """Whether an allow rule could have settled it (only the mode asks): what a
    `PermissionRequest` hook's `allow` may answer for the person."""

    @property
    def title(self) -> str:
        """What is asked about, as a tool call title (`Edit PATH`, the command...)."""
        return self.subject.title


class PermissionAsker(Protocol):
    """Whoever answers permission requests: `tether run`'s prompt (`cli.asker`), the
    interactive picker (`cli.interactive.asker`), an ACP client (`acp.permissions`), and the
    wrappers that ask through another (a child's through its parent, `session.child_asker`;
    the `Notification` and `PermissionRequest` hooks first, `session.asking`)."""

    async def ask(self, request: PermissionQuestion, /) -> PermissionAnswer:
        """The person's decision; cancelling the call cancels the tool that asked."""
        ...
