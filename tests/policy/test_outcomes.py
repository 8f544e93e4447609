"""The permission data flow in the signatures: `authorize` returns how a person settled an
access, a refusal carries it, the call's context keeps it for the result, and what the call's
`PreToolUse` hooks said reaches the gate with the access, for that call alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.policy.support import Asker
from tether.errors import PermissionDenied
from tether.policy import PolicyGate
from tether.tools import CommandAccess, ToolContext, Workspace
from tether.tools.access import HookVerdict


def _run(command: str, call: str = "c1") -> CommandAccess:
    return CommandAccess(command=command, tool_call_id=call)


async def test_authorize_returns_the_answer_or_none_when_no_one_was_asked(tmp_path: Path) -> None:
    gate = PolicyGate(Workspace.at(tmp_path), "ask", Asker("allow_always"))
    assert await gate.authorize(_run("make")) == "allow_always"
    assert await gate.authorize(_run("make")) is None  # covered by the answer: no one asked
    assert await PolicyGate(Workspace.at(tmp_path), "auto").authorize(_run("make")) is None


async def test_a_refusal_says_how_it_was_settled(tmp_path: Path) -> None:
    with pytest.raises(PermissionDenied) as rejected:
        await PolicyGate(Workspace.at(tmp_path), "ask", Asker("reject")).authorize(_run("make"))
    assert rejected.value.outcome == "reject"
    with pytest.raises(PermissionDenied) as nobody:
        await PolicyGate(Workspace.at(tmp_path), "ask").authorize(_run("make"))
    assert nobody.value.outcome == "refused"


async def test_the_call_context_keeps_the_last_outcome(tmp_path: Path) -> None:
    gate = PolicyGate(Workspace.at(tmp_path), "ask", Asker("allow_once", "reject"))
    ctx = ToolContext(workspace=Workspace.at(tmp_path), gate=gate, tool_call_id="c1")
    assert ctx.permission is None
    await ctx.authorize(_run("make"))
    assert ctx.permission == "allow_once"
    with pytest.raises(PermissionDenied):
        await ctx.authorize(_run("make install"))
    assert ctx.permission == "reject"  # the answer that decided the call


async def test_a_hook_verdict_counts_for_its_own_call_alone(tmp_path: Path) -> None:
    asker = Asker("allow_once", "allow_once")
    gate = PolicyGate(Workspace.at(tmp_path), "auto", asker)
    asks = HookVerdict("ask", "the PreToolUse hook asks (`check.sh`)")
    assert await gate.authorize(_run("make", "c1"), asks) == "allow_once"
    assert asker.requests[0].reason == "the PreToolUse hook asks (`check.sh`)"
    assert await gate.authorize(_run("make", "c1")) is None  # the same id, without the hook
    ask_mode = PolicyGate(Workspace.at(tmp_path), "ask", asker)
    assert await ask_mode.authorize(_run("make", "c2"), HookVerdict("allow")) is None
    assert await ask_mode.authorize(_run("make", "c2")) == "allow_once"
    assert len(asker.requests) == 2
