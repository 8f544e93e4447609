"""The policy gate: what each mode lets through, what it asks, and what it remembers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.policy.support import Asker
from tether.errors import PermissionDenied
from tether.policy import (
    MODES,
    PermissionAnswer,
    PermissionQuestion,
    PolicyGate,
    PolicyMode,
    RejectWithMessage,
    is_mode,
    said_instead,
)
from tether.policy import gate as policy_gate
from tether.tools import (
    Access,
    CommandAccess,
    FetchAccess,
    FileAccess,
    McpAccess,
    NamedAccess,
    SearchAccess,
    UnsandboxedAccess,
    Workspace,
)
from tether.tools.access import PermissionDecision


class BrokenAsker:
    """A client that went away."""

    async def ask(self, request: PermissionQuestion) -> PermissionDecision:
        """Fail."""
        raise ConnectionError("client disconnected")


@pytest.fixture
def workspace(ws: Path) -> Workspace:
    """A workspace with one root (`ws`) and a directory beside it."""
    (ws.parent / "out").mkdir()
    return Workspace.at(ws)


def read(path: Path, inside: bool = True) -> Access:
    return FileAccess(action="read", title=f"Read {path}", path=path, inside=inside)


def edit(path: Path, inside: bool = True) -> Access:
    return FileAccess(action="edit", title=f"Edit {path}", path=path, inside=inside)


def run(command: str) -> Access:
    return CommandAccess(command=command)


def note_tool(tool: str = "mcp__notes__write_note", title: str = "write_note (notes)") -> Access:
    return McpAccess(tool=tool, title=title)


# (access kind, mode) -> passes without asking
TABLE: dict[tuple[str, PolicyMode], bool] = {
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
    ("mcp-read-only", "ask"): True,
    ("mcp-read-only", "accept-edits"): True,
    ("mcp-read-only", "auto"): True,
    ("fetch", "ask"): False,
    ("fetch", "accept-edits"): False,
    ("fetch", "auto"): True,
    ("unsandboxed", "ask"): False,
    ("unsandboxed", "accept-edits"): False,
    ("unsandboxed", "auto"): False,
}


def access_of(kind: str, workspace: Workspace) -> Access:
    inside, outside = workspace.cwd / "f.txt", workspace.cwd.parent / "out" / "f.txt"
    return {
        "read-in": read(inside),
        "edit-in": edit(inside),
        "read-out": read(outside, inside=False),
        "edit-out": edit(outside, inside=False),
        "execute": run("ls"),
        "mcp": note_tool(),
        "mcp-read-only": McpAccess(tool="mcp__notes__list", title="list (notes)", read_only=True),
        "fetch": FetchAccess(url="https://example.com/a", host="example.com"),
        "unsandboxed": UnsandboxedAccess(command="ls"),
    }[kind]


@pytest.mark.parametrize(("kind", "mode"), list(TABLE))
async def test_mode_table(workspace: Workspace, kind: str, mode: PolicyMode) -> None:
    asker = Asker("allow_once")
    await PolicyGate(workspace, mode, asker).authorize(access_of(kind, workspace))
    assert (asker.requests == []) == TABLE[kind, mode]


@pytest.mark.parametrize(("kind", "mode"), [k for k, passes in TABLE.items() if not passes])
async def test_headless_rejects_whatever_would_ask(
    workspace: Workspace, kind: str, mode: PolicyMode
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
    assert [r.subject for r in asker.requests] == [run("pytest -q"), run("pytest -q; rm -rf ~")]
    assert [r.title for r in asker.requests] == ["pytest -q", "pytest -q; rm -rf ~"]


async def test_request_carries_the_access_options_and_reason(workspace: Workspace) -> None:
    asker = Asker("allow_once", "allow_once", "allow_once")
    gate = PolicyGate(workspace, asker=asker)
    access = FileAccess(
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
    assert first.subject is access
    assert first.title == "Edit a.py"
    assert first.reason == "edits need approval in ask mode"
    assert [(o.decision, o.name) for o in first.options] == [
        ("allow_once", "Allow once"),
        ("allow_always", "Always allow edits of a.py for this session"),
        ("reject", "Reject"),
    ]
    assert asker.requests[1].options[1].name == "Always allow the command `ls` for this session"
    outside = workspace.cwd.parent / "out"
    assert asker.requests[2].options[1].name == f"Always allow reading {outside} for this session"
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
        async def ask(self, request: PermissionQuestion) -> PermissionDecision:
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
    assert MODES == ("ask", "accept-edits", "auto", "plan")
    assert is_mode("accept-edits")
    assert not is_mode("bypass")
    assert not is_mode(None)


async def test_always_allowing_an_mcp_tool_covers_that_tool_only(workspace: Workspace) -> None:
    asker = Asker("allow_always", "allow_once")
    gate = PolicyGate(workspace, "ask", asker)
    note = note_tool()
    other = note_tool("mcp__notes__delete", "delete (notes)")
    await gate.authorize(note)
    await gate.authorize(note)
    await gate.authorize(other)
    assert [r.subject for r in asker.requests] == [note, other]
    assert [r.title for r in asker.requests] == ["write_note (notes)", "delete (notes)"]
    assert asker.requests[0].reason == (
        "MCP tools that are not read-only need approval unless the mode is auto"
    )
    with pytest.raises(PermissionDenied, match=r"Permission to use write_note \(notes\)"):
        await PolicyGate(workspace, "accept-edits").authorize(note)


def documented_table() -> dict[tuple[str, str], str]:
    """The policy module's table: (access row, mode) -> `yes`, `ask` or `no`."""
    doc = policy_gate.__doc__ or ""
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in doc.splitlines()
        if line.startswith("| ") and "---" not in line
    ]
    (_, *modes), *body = rows
    return {(row[0], mode): cell for row in body for mode, cell in zip(modes, row[1:], strict=True)}


def documented_accesses(row: str, workspace: Workspace) -> list[Access]:
    inside, outside = workspace.cwd / "f.txt", workspace.cwd.parent / "out" / "f.txt"
    return {
        "read inside the workspace (`FileAccess`)": [read(inside)],
        "edit inside the workspace (`FileAccess`)": [edit(inside)],
        "read outside (`FileAccess`)": [read(outside, inside=False)],
        "edit outside (`FileAccess`)": [edit(outside, inside=False)],
        "execute (`CommandAccess`)": [run("ls")],
        "fetch (`FetchAccess`)": [access_of("fetch", workspace)],
        "web search (`SearchAccess`)": [SearchAccess(query="httpx 1.0", provider="Exa")],
        "mcp, not read-only (`McpAccess`)": [access_of("mcp", workspace)],
        "mcp, read-only (`McpAccess`)": [access_of("mcp-read-only", workspace)],
        "an agent or a skill by name (`NamedAccess`)": [
            NamedAccess("task", "explore"),
            NamedAccess("skill", "deploy"),
        ],
        "unsandboxed (`UnsandboxedAccess`)": [access_of("unsandboxed", workspace)],
        "edit of a protected path (`FileAccess`)": [edit(workspace.cwd / ".git" / "config")],
        "execute, redirecting into a protected path": [
            run("printf x > .git/hooks/pre-commit"),
            run("cd src && echo x >> ../.tether/settings.json"),
        ],
        "execute, no sandbox (`CommandAccess`)": [
            CommandAccess(command="ls", sandbox_problem="bwrap is missing")
        ],
    }[row]


async def test_the_module_table_says_what_the_gate_does(workspace: Workspace) -> None:
    table = documented_table()
    assert {mode for _, mode in table} == set(MODES)
    for (row, mode), documented in table.items():
        assert is_mode(mode)
        for access in documented_accesses(row, workspace):
            asker = Asker("allow_once")
            try:
                await PolicyGate(workspace, mode, asker).authorize(access)
                outcome = "ask" if asker.requests else "yes"
            except PermissionDenied:
                outcome = "no"
            assert (row, mode, outcome) == (row, mode, documented)


async def test_a_command_outside_the_sandbox_asks_apart_from_the_same_command(
    workspace: Workspace,
) -> None:
    asker = Asker("allow_always", "allow_once")
    gate = PolicyGate(workspace, "auto", asker)
    escape = UnsandboxedAccess(command="make", tool_call_id="c1")
    await gate.authorize(escape)
    await gate.authorize(escape)  # remembered
    gate.mode = "ask"
    await gate.authorize(run("make"))  # the sandboxed command is another question
    assert [r.subject for r in asker.requests] == [escape, run("make")]
    assert asker.requests[0].title == "make"
    assert asker.requests[0].reason == "commands outside the sandbox always need approval"
    assert asker.requests[0].options[1].name == (
        "Always allow the command `make` outside the sandbox for this session"
    )
    with pytest.raises(PermissionDenied) as refused:
        await PolicyGate(workspace, "auto").authorize(escape)
    assert refused.value.message == (
        "Permission to run `make` outside the sandbox needs approval (commands outside the "
        "sandbox always need approval), but there is no one to ask in this session; run with "
        "--sandbox off to run commands without the sandbox"
    )


async def test_auto_refuses_a_command_whose_sandbox_cannot_start(workspace: Workspace) -> None:
    gate = PolicyGate(workspace, "auto", Asker())
    command = CommandAccess(command="ls", sandbox_problem="no user namespaces", tool_call_id="c2")
    with pytest.raises(PermissionDenied) as refused:
        await gate.authorize(command)
    assert refused.value.message == (
        "The sandbox cannot start (no user namespaces), and auto mode does not run commands "
        "unsandboxed; pass --sandbox off explicitly to run them without it"
    )
    assert refused.value.outcome == "refused"


async def test_always_allowing_a_fetch_covers_its_host_in_any_case(workspace: Workspace) -> None:
    asker = Asker("allow_always")
    gate = PolicyGate(workspace, "ask", asker)
    await gate.authorize(FetchAccess(url="https://Example.com/a", host="Example.com"))
    await gate.authorize(FetchAccess(url="https://example.com/b", host="example.com"))
    [request] = asker.requests
    assert request.title == "Fetch https://Example.com/a"
    assert request.options[1].name == "Always allow fetching from Example.com for this session"
    with pytest.raises(PermissionDenied) as refused:
        await PolicyGate(workspace, "ask", Asker("reject")).authorize(
            FetchAccess(url="https://x.org/", host="x.org")
        )
    assert refused.value.message == "Permission to fetch https://x.org/ was rejected"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        (".git/hooks/pre-commit", ".git is protected: git runs its hooks"),
        (".git/config", ".git is protected: git runs its hooks and the commands its config"),
        ("sub/.git/hooks/post-checkout", ".git is protected"),
        (".mcp.json", ".mcp.json is protected: tether starts the MCP servers it names"),
        (".tether/settings.json", ".tether is protected: tether runs the settings"),
        (".claude/settings.local.json", ".claude is protected"),
        (".vscode/tasks.json", ".vscode is protected: VS Code runs the tasks in it"),
        (".GIT/hooks/x", ".git is protected"),
    ],
)
@pytest.mark.parametrize("mode", [m for m in MODES if m != "plan"])  # plan refuses all edits
async def test_editing_what_runs_outside_later_always_asks(
    workspace: Workspace, mode: PolicyMode, name: str, why: str
) -> None:
    asker = Asker("allow_once")
    target = workspace.cwd / name
    await PolicyGate(workspace, mode, asker).authorize(edit(target))
    [request] = asker.requests
    assert request.reason is not None and request.reason.startswith(why)
    # Reading them is as any read inside.
    await PolicyGate(workspace, mode, asker).authorize(read(target))
    assert len(asker.requests) == 1
    with pytest.raises(PermissionDenied) as refused:
        await PolicyGate(workspace, mode).authorize(edit(target))
    assert why in str(refused.value)
    assert "a person must approve it in every mode" in str(refused.value)


async def test_tethers_own_directory_is_protected(
    workspace: Workspace, isolated_environment: Path
) -> None:
    asker = Asker("allow_always")
    gate = PolicyGate(workspace, "auto", asker)
    target = isolated_environment / "mcp.json"
    await gate.authorize(edit(target, inside=False))
    await gate.authorize(edit(target, inside=False))  # "always" covers it for the session
    [request] = asker.requests
    assert request.reason == "tether's own settings, approvals and sessions are protected"
    await gate.authorize(edit(workspace.cwd / "src" / "git.py"))
    assert len(asker.requests) == 1


async def test_a_rejection_can_carry_what_to_do_instead(workspace: Workspace) -> None:
    class Redirecting:
        async def ask(self, request: PermissionQuestion) -> PermissionAnswer:
            return RejectWithMessage("  use pytest -x instead ")

    gate = PolicyGate(workspace, "ask", Redirecting())
    with pytest.raises(PermissionDenied) as refused:
        await gate.authorize(run("make test"))
    assert refused.value.message == (
        "Permission to run `make test` was rejected. "
        "The person says to do this instead: use pytest -x instead"
    )
    assert said_instead(refused.value.message) == "use pytest -x instead"
    assert said_instead("Permission to run `ls` was rejected") is None
    assert refused.value.outcome == "reject"  # logged as any rejection


async def test_allow_rules_do_not_cover_protected_paths(
    ws: Path, isolated_environment: Path
) -> None:
    from tether.settings import load_settings

    (isolated_environment / "settings.json").write_text(
        '{"permissions": {"allow": ["edit(**)", "edit(.git/**)"]}}'
    )
    settings = load_settings(ws, isolated_environment, trusted=True)
    asker = Asker("allow_once")
    gate = PolicyGate(Workspace.at(ws), "ask", asker, settings=settings)
    await gate.authorize(edit(ws / "src" / "a.py"))  # the rule lets an ordinary edit pass
    assert asker.requests == []
    await gate.authorize(edit(ws / ".git" / "hooks" / "pre-push"))
    [request] = asker.requests
    assert request.reason is not None and request.reason.startswith(".git is protected")
    assert [o.decision for o in request.options] == ["allow_once", "allow_always", "reject"]


@pytest.mark.parametrize(
    "command",
    [
        "printf '#!/bin/sh\\nid\\n' > .git/hooks/pre-commit; npm test",
        "npm test > .mcp.json",
        "npm test 2> .vscode/tasks.json",
        "npm test &>> .claude/settings.json",
        "npm test >| .tether/settings.local.json",
        "cd src && npm test > ../.git/config",
        "npm test > sub/.GIT/hooks/post-checkout",
    ],
)
@pytest.mark.parametrize("mode", MODES)
async def test_a_command_writing_a_protected_path_always_asks(
    ws: Path, isolated_environment: Path, mode: PolicyMode, command: str
) -> None:
    from tether.settings import load_settings

    (ws / "src").mkdir(exist_ok=True)
    (isolated_environment / "settings.json").write_text(
        '{"permissions": {"allow": ["bash(npm test)", "Bash(cd:*)"]}}'
    )
    settings = load_settings(ws, isolated_environment, trusted=True)
    asker = Asker("allow_once")
    gate = PolicyGate(Workspace.at(ws), mode, asker, settings=settings)
    await gate.authorize(run("npm test > out.log 2>&1"))  # the rule lets the plain one pass
    assert asker.requests == []
    await gate.authorize(run(command))
    [request] = asker.requests
    assert request.reason is not None and request.reason.startswith("it writes to ")
    assert "is protected" in request.reason
    assert [o.decision for o in request.options] == ["allow_once", "allow_always", "reject"]
    with pytest.raises(PermissionDenied, match="a person must approve it in every mode"):
        await PolicyGate(Workspace.at(ws), mode, settings=settings).authorize(run(command))


async def test_a_command_writing_tethers_own_directory_asks(
    workspace: Workspace, isolated_environment: Path
) -> None:
    asker = Asker("allow_once")
    target = isolated_environment / "settings.json"
    await PolicyGate(workspace, "auto", asker).authorize(run(f"echo {{}} > {target}"))
    [request] = asker.requests
    assert request.reason is not None
    assert "tether's own settings, approvals and sessions are protected" in request.reason
