"""Agents over ACP: an agent's permission question, asked beside its parent's `task` call.

A child session's calls are not tool calls of the editor's thread: the task card stands for
them (its progress updates carry the child's current step). So when a child needs a person,
the request points at the parent's `task` call, the one the client knows, and says what the
child would do: its title names the agent and the step (`DelegatedAccess.title`), its content and
locations are the child's call's (the diff, the command), and `_meta.tether.delegated`
carries the agent's name and the child's call card. Clients that show a request's title
and content show the right thing; the updates that follow give the call its title back.
"""

from __future__ import annotations

from pathlib import Path

from acp import text_block, tool_content
from acp.schema import ToolCallUpdate, ToolKind

from tether.acp.content import card_content, console_text
from tether.acp.mapping import call_locations, tether_meta, tool_kind
from tether.acp.paths import absolute_call
from tether.policy import DelegatedAccess, PermissionQuestion
from tether.views import GenericCallView, TerminalCallView, ToolCallView

__all__ = ["delegated_call"]


def delegated_call(question: PermissionQuestion, cwd: Path, kind: ToolKind) -> ToolCallUpdate:
    """The `toolCall` of a request about a child's access: the parent's call, the child's card.

    `kind` is what the access is (a read, an edit), when the child's card does not say.
    """
    subject = question.subject
    assert isinstance(subject, DelegatedAccess)
    delegated: dict[str, object] = {"agent": subject.agent}
    content = []
    locations = None
    if subject.view is not None:
        view = absolute_call(subject.view, cwd)
        delegated["view"] = tether_meta(view)["tether"]["view"]
        kind = tool_kind(view) if _says_kind(view) else kind
        content = card_content(view, cwd)
        if isinstance(view, TerminalCallView):
            # What would run, first: a command's card has no output before it runs.
            content.insert(0, tool_content(text_block(console_text(view.title, ""))))
        locations = call_locations(view)
    return ToolCallUpdate(
        tool_call_id=subject.tool_call_id,
        title=question.title,
        kind=kind,
        content=content or None,
        locations=locations,
        field_meta={"tether": {"reason": question.reason, "delegated": delegated}},
    )


def _says_kind(view: ToolCallView) -> bool:
    return not isinstance(view, GenericCallView) or view.kind is not None
