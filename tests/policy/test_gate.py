"""The policy gate: what each mode lets through, what it asks, and what it remembers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tether.policy import (
    MODES,
    Mode,
    PermissionDecision,
    PermissionRequest,
    PolicyGate,
    is_mode,
)
from tether.tools import Access, PermissionDenied, Workspace


class Asker:
    """A person who answers from a list and remembers what was asked."""

    def __init__(self, *answers: PermissionDecision) -> None:
        self.answers = list(answers)
        self.requests: list[PermissionRequest] = []

    async def ask(self, request: PermissionRequest) -> PermissionDecision:
        """The next answer."""
        self.requests.append(request)
        return self.answers.pop(0)


class BrokenAsker:
    """A client that went away."""

    async def ask(self, request: PermissionRequest) -> PermissionDecision:
        """Fail."""
        raise ConnectionError("client disconnected")


@pytest.fixture
def workspace(ws: Path) -> Workspace:
    """A workspace with one root (`ws`) and a directory beside it."""
    (ws.parent / "out").mkdir()
    return Workspace.at(ws)


def read(path: Path, inside: bool = True) -> Access:
    return Access(action="read", title=f"Read {path}", path=path, inside=inside)


def edit(path: Path, inside: bool = True) -> Access:
    return Access(action="edit", title=f"Edit {path}", path=path, inside=inside)


def run(command: str) -> Access:
    return Access(action="execute", title=command, command=command)


# (access kind, mode) -> passes without asking
TABLE: dict[tuple[str, Mode], bool] = {
    ("read-in", "ask"): True,
    ("read-in", "accept-edits"): True,
    ("read-in", "auto"): True,
    ("edit-in", "ask"): False,
    ("edit-in", "accept-edits"): True,
    ("edit-in", "auto"): True,
    ("read-out", "ask"): False,
    ("read-out", "accept-edits"): False,
    ("read-out", "auto"): True,
    ("edit-out", "ask"): False,
    ("edit-out", "accept-edits"): False,
    ("edit-out", "auto"): True,
    ("execute", "ask"): False,
    ("execute", "accept-edits"): False,
    ("execute", "auto"): True,
    ("mcp", "ask"): False,
    ("mcp", "accept-edits"): False,
    ("mcp", "auto"): True,
}


def access_of(kind: str, workspace: Workspace) -> Access:
    inside, outside = workspace.cwd / "f.txt", workspace.cwd.parent / "out" / "f.txt"
    return {
        "read-in": read(inside),
        "edit-in": edit(inside),
        "read-out": read(outside, inside=False),
        "edit-out": edit(outside, inside=False),
        "execute": run("ls"),
        "mcp": Access(action="mcp", title="write_note (notes)", command="mcp__notes__write_note"),
    }[kind]


@pytest.mark.parametrize(("kind", "mode"), list(TABLE))
async def test_mode_table(workspace: Workspace, kind: str, mode: Mode) -> None:
    asker = Asker("allow_once")
    await PolicyGate(workspace, mode, asker).authorize(access_of(kind, workspace))
    assert (asker.requests == []) == TABLE[kind, mode]


@pytest.mark.parametrize(("kind", "mode"), [k for k, passes in TABLE.items() if not passes])
async def test_headless_rejects_whatever_would_ask(
    workspace: Workspace, kind: str, mode: Mode
) -> None:
    with pytest.raises(PermissionDenied, match="there is no one to ask"):
        await PolicyGate(workspace, mode).authorize(access_of(kind, workspace))


async def test_headless_messages_say_how_to_allow(workspace: Workspace) -> None:
    gate = PolicyGate(workspace)
    target = workspace.cwd / "a.py"
    with pytest.raises(PermissionDenied) as edit_refused:
        await gate.authorize(edit(target))
    assert edit_refused.value.message == (
        f"Permission to edit {target} needs approval (edits need approval in ask mode), but "
        "there is no one to ask in this session; run with --mode accept-edits or --mode auto "
        "to allow edits"
    )
    with pytest.raises(PermissionDenied) as run_refused:
        await gate.authorize(run("make test"))
    assert run_refused.value.message == (
        "Permission to run `make test` needs approval (commands need approval unless the mode "
        "is auto), but there is no one to ask in this session; run with --mode auto to allow it"
    )


async def test_rejection_says_what_was_rejected(workspace: Workspace) -> None:
    gate = PolicyGate(workspace, asker=Asker("reject", "reject", "reject"))
    outside = workspace.cwd.parent / "out" / "x"
    cases = [
        (edit(workspace.cwd / "a"), f"Permission to edit {workspace.cwd / 'a'} was rejected"),
        (run("rm -rf build"), "Permission to run `rm -rf build` was rejected"),
        (read(outside, inside=False), f"Permission to read {outside} was rejected"),
    ]
    for access, message in cases:
        with pytest.raises(PermissionDenied) as refused:
            await gate.authorize(access)
        assert refused.value.message == message


async def test_allow_once_asks_again(workspace: Workspace) -> None:
    asker = Asker("allow_once", "allow_once")
    gate = PolicyGate(workspace, asker=asker)
    await gate.authorize(edit(workspace.cwd / "a"))
    await gate.authorize(edit(workspace.cwd / "a"))
    assert len(asker.requests) == 2


async def test_allow_always_is_per_action_and_path(workspace: Workspace) -> None:
    asker = Asker("allow_always", "allow_once", "allow_once")
    gate = PolicyGate(workspace, asker=asker)
    outside = workspace.cwd.parent / "out" / "x"
    await gate.authorize(edit(outside, inside=False))
    await gate.authorize(edit(outside, inside=False))  # remembered
    assert len(asker.requests) == 1
    await gate.authorize(read(outside, inside=False))  # another action on the same path
    await gate.authorize(edit(workspace.cwd / "other"))  # another path
    assert len(asker.requests) == 3


async def test_allow_always_is_per_exact_command(workspace: Workspace) -> None:
    asker = Asker("allow_always", "reject")
    gate = PolicyGate(workspace, asker=asker)
    await gate.authorize(run("pytest -q"))
    await gate.authorize(run("pytest -q"))
    with pytest.raises(PermissionDenied):
        await gate.authorize(run("pytest -q; rm -rf ~"))
    assert [r.access.command for r in asker.requests] == ["pytest -q", "pytest -q; rm -rf ~"]


async def test_request_carries_the_access_options_and_reason(workspace: Workspace) -> None:
    asker = Asker("allow_once", "allow_once", "allow_once")
    gate = PolicyGate(workspace, asker=asker)
    access = Access(
        action="edit",
        title="Edit a.py",
        path=workspace.cwd / "a.py",
        inside=True,
        tool_call_id="c7",
    )
    await gate.authorize(access)
    await gate.authorize(run("ls"))
    await gate.authorize(read(workspace.cwd.parent / "out", inside=False))
    first = asker.requests[0]
    assert first.access is access
    assert first.title == "Edit a.py"
    assert first.reason == "edits need approval in ask mode"
    assert [(o.decision, o.name) for o in first.options] == [
        ("allow_once", "Allow once"),
        ("allow_always", "Always allow edits to this file in this session"),
        ("reject", "Reject"),
    ]
    assert asker.requests[1].options[1].name == "Always allow this exact command in this session"
    assert asker.requests[2].options[1].name == "Always allow reading this file in this session"
    assert asker.requests[2].reason == "it is outside the workspace"


async def test_a_path_outside_counts_even_if_the_access_says_inside(workspace: Workspace) -> None:
    asker = Asker("allow_once")
    gate = PolicyGate(workspace, "accept-edits", asker)
    await gate.authorize(edit(workspace.cwd.parent / "out" / "x", inside=True))
    assert asker.requests[0].reason == "it is outside the workspace"


async def test_extra_roots_are_inside(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    gate = PolicyGate(Workspace.at(tmp_path / "a", tmp_path / "b"), "accept-edits")
    await gate.authorize(edit((tmp_path / "b" / "f").resolve()))


async def test_accesses_without_a_path_or_command_use_their_title(workspace: Workspace) -> None:
    asker = Asker("allow_always")
    gate = PolicyGate(workspace, asker=asker)
    await gate.authorize(Access(action="execute", title="make"))
    await gate.authorize(Access(action="execute", title="make"))
    assert len(asker.requests) == 1
    with pytest.raises(PermissionDenied, match="Permission to edit notes was rejected"):
        await PolicyGate(workspace, asker=Asker("reject")).authorize(
            Access(action="edit", title="notes")
        )
    with pytest.raises(PermissionDenied, match="outside"):
        await PolicyGate(workspace).authorize(Access(action="read", title="x", inside=False))


async def test_long_commands_are_shortened_in_messages(workspace: Workspace) -> None:
    command = "echo " + "x" * 300
    with pytest.raises(PermissionDenied) as refused:
        await PolicyGate(workspace, asker=Asker("reject")).authorize(run(command))
    assert refused.value.message == f"Permission to run `{command[:200]}...` was rejected"


async def test_an_asker_that_fails_is_a_refusal(workspace: Workspace) -> None:
    gate = PolicyGate(workspace, asker=BrokenAsker())
    with pytest.raises(PermissionDenied) as refused:
        await gate.authorize(run("ls"))
    assert refused.value.message == (
        "Permission to run `ls` could not be asked for: client disconnected"
    )


async def test_an_askers_own_refusal_passes_through(workspace: Workspace) -> None:
    class Cancelling:
        async def ask(self, request: PermissionRequest) -> PermissionDecision:
            raise PermissionDenied("The permission request was cancelled")

    with pytest.raises(PermissionDenied) as refused:
        await PolicyGate(workspace, asker=Cancelling()).authorize(run("ls"))
    assert refused.value.message == "The permission request was cancelled"


async def test_an_unknown_answer_is_a_rejection(workspace: Workspace) -> None:
    gate = PolicyGate(workspace, asker=Asker("maybe"))  # type: ignore[arg-type]
    with pytest.raises(PermissionDenied, match="was rejected"):
        await gate.authorize(run("ls"))


async def test_mode_can_change_mid_session(workspace: Workspace) -> None:
    gate = PolicyGate(workspace)
    assert gate.mode == "ask"
    with pytest.raises(PermissionDenied):
        await gate.authorize(edit(workspace.cwd / "a"))
    gate.mode = "accept-edits"
    await gate.authorize(edit(workspace.cwd / "a"))
    gate.mode = "auto"
    await gate.authorize(run("ls"))
    with pytest.raises(ValueError, match="unknown mode 'yolo'"):
        gate.mode = "yolo"  # type: ignore[assignment]
    assert gate.mode == "auto"


def test_modes() -> None:
    assert MODES == ("ask", "accept-edits", "auto")
    assert is_mode("accept-edits")
    assert not is_mode("bypass")
    assert not is_mode(None)


async def test_always_allowing_an_mcp_tool_covers_that_tool_only(workspace: Workspace) -> None:
    asker = Asker("allow_always", "allow_once")
    gate = PolicyGate(workspace, "ask", asker)
    note = Access(action="mcp", title="write_note (notes)", command="mcp__notes__write_note")
    other = Access(action="mcp", title="delete (notes)", command="mcp__notes__delete")
    await gate.authorize(note)
    await gate.authorize(note)
    await gate.authorize(other)
    assert [r.access.command for r in asker.requests] == [
        "mcp__notes__write_note",
        "mcp__notes__delete",
    ]
    assert asker.requests[0].reason == (
        "MCP tools that are not read-only need approval unless the mode is auto"
    )
    with pytest.raises(PermissionDenied, match=r"Permission to use write_note \(notes\)"):
        await PolicyGate(workspace, "accept-edits").authorize(note)
