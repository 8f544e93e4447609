"""Rules in the policy gate: the matrix of modes, inside/outside, trust and headless runs;
denials that name their rule; "always allow for this project"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.policy.support import Always
from tether.errors import PermissionDenied
from tether.policy import MODES, PolicyGate, PolicyMode
from tether.settings import load_settings
from tether.tools import (
    Access,
    CommandAccess,
    FetchAccess,
    FileAccess,
    McpAccess,
    UnsandboxedAccess,
    Workspace,
)

PROJECT = {
    "permissions": {
        "allow": [
            "edit(src/**)",
            "bash(npm test)",
            "read(../out/**)",
            "web_fetch(domain:docs.python.org)",
            "mcp__notes",
        ],
        "ask": ["edit(src/protected.py)", "bash(git push:*)"],
        "deny": ["read(.env)", "bash(rm:*)", "web_fetch(domain:evil.example)"],
    }
}


@pytest.fixture
def home(isolated_environment: Path) -> Path:
    return isolated_environment


@pytest.fixture
def project(ws: Path) -> Path:
    (ws / ".tether").mkdir()
    (ws / ".tether/settings.json").write_text(json.dumps(PROJECT))
    (ws / "src").mkdir()
    (ws.parent / "out").mkdir()
    return ws


def edit(path: Path, workspace: Path, tool: str = "edit") -> Access:
    inside = path.resolve().is_relative_to(workspace)
    return FileAccess(action="edit", title=f"Edit {path}", path=path, inside=inside, tool=tool)


def read(path: Path, workspace: Path, tool: str = "read") -> Access:
    inside = path.resolve().is_relative_to(workspace)
    return FileAccess(action="read", title=f"Read {path}", path=path, inside=inside, tool=tool)


# case -> (trusted outcome per mode, untrusted outcome per mode), modes in MODES order
# (ask, accept-edits, auto, plan): "pass" without asking, "ask", "deny" (a rule refuses),
# "refused" (no sandbox in auto), or "plan" (plan mode refuses what would change things).
Row = tuple[str, str, str, str]
MATRIX: dict[str, tuple[Row, Row]] = {
    "read .env": (("deny",) * 4, ("deny",) * 4),
    "grep .env": (("deny",) * 4, ("deny",) * 4),
    "edit src/app.py": (("pass",) * 3 + ("plan",), ("ask", "pass", "pass", "plan")),
    "write src/new.py": (("pass",) * 3 + ("plan",), ("ask", "pass", "pass", "plan")),
    "edit src/protected.py": (("ask",) * 3 + ("plan",), ("ask",) * 3 + ("plan",)),
    "edit outside": (("ask", "ask", "pass", "plan"), ("ask", "ask", "pass", "plan")),
    "read outside": (("pass",) * 4, ("ask", "ask", "pass", "ask")),
    "bash npm test": (("pass",) * 4, ("ask", "ask", "pass", "ask")),
    "bash npm test && rm -rf /": (("deny",) * 4, ("deny",) * 4),
    "bash cd src && npm test": (("pass",) * 4, ("ask", "ask", "pass", "ask")),
    "bash npm test $(id)": (("ask", "ask", "pass", "ask"), ("ask", "ask", "pass", "ask")),
    "bash eval $X": (("ask",) * 4, ("ask",) * 4),
    "bash git push origin": (("ask",) * 4, ("ask",) * 4),
    "unsandboxed npm test": (("ask",) * 3 + ("plan",), ("ask",) * 3 + ("plan",)),
    "unsandboxed rm -rf /": (("deny",) * 4, ("deny",) * 4),
    "no sandbox npm test": (("ask", "ask", "refused", "plan"), ("ask", "ask", "refused", "plan")),
    "fetch docs.python.org": (("pass",) * 4, ("ask", "ask", "pass", "ask")),
    "fetch evil.example": (("deny",) * 4, ("deny",) * 4),
    "mcp notes": (("pass",) * 3 + ("plan",), ("ask", "ask", "pass", "plan")),
    "mcp other": (("ask", "ask", "pass", "plan"), ("ask", "ask", "pass", "plan")),
}


def access_of(case: str, ws: Path) -> Access:
    outside = ws.parent / "out" / "f.txt"
    return {
        "read .env": read(ws / ".env", ws),
        "grep .env": read(ws / ".env", ws, tool="grep"),
        "edit src/app.py": edit(ws / "src/app.py", ws),
        "write src/new.py": edit(ws / "src/new.py", ws, tool="write"),
        "edit src/protected.py": edit(ws / "src/protected.py", ws),
        "edit outside": edit(outside, ws),
        "read outside": read(outside, ws),
        "bash npm test": CommandAccess("npm test"),
        "bash npm test && rm -rf /": CommandAccess("npm test && rm -rf /"),
        "bash cd src && npm test": CommandAccess("cd src && npm test"),
        "bash npm test $(id)": CommandAccess("npm test $(id)"),
        "bash eval $X": CommandAccess("eval $X"),
        "bash git push origin": CommandAccess("git push origin"),
        "unsandboxed npm test": UnsandboxedAccess("npm test"),
        "unsandboxed rm -rf /": UnsandboxedAccess("rm -rf /"),
        "no sandbox npm test": CommandAccess("npm test", sandbox_problem="no bwrap"),
        "fetch docs.python.org": FetchAccess("https://docs.python.org/3/", "docs.python.org"),
        "fetch evil.example": FetchAccess("https://evil.example/x", "evil.example"),
        "mcp notes": McpAccess(tool="mcp__notes__write_note", title="write_note"),
        "mcp other": McpAccess(tool="mcp__other__do", title="do"),
    }[case]


CASES = [
    (case, mode, (trusted, headless))
    for case in MATRIX
    for mode in MODES
    for trusted in (True, False)
    for headless in (True, False)
]


@pytest.mark.parametrize(("case", "mode", "who"), CASES)
async def test_policy_matrix(
    project: Path, home: Path, case: str, mode: PolicyMode, who: tuple[bool, bool]
) -> None:
    trusted, headless = who
    expected = MATRIX[case][0 if trusted else 1][MODES.index(mode)]
    settings = load_settings(project, home, trusted=trusted)
    asker = None if headless else Always()
    gate = PolicyGate(Workspace.at(project), mode, asker, settings=settings)
    access = access_of(case, project)
    if expected == "pass" or (expected == "ask" and not headless):
        await gate.authorize(access)
        assert (asker is None or asker.requests == []) == (expected == "pass")
        return
    with pytest.raises(PermissionDenied) as refused:
        await gate.authorize(access)
    message = refused.value.message
    if expected == "deny":
        assert " is denied by the deny rule " in message
        assert message.endswith(f" in {project}/.tether/settings.json")
        assert asker is None or asker.requests == []
    elif expected == "refused":
        assert "sandbox cannot start" in message
    elif expected == "plan":
        assert message.startswith("Plan mode is on: ")
        assert asker is None or asker.requests == []
    else:
        assert "there is no one to ask" in message


async def test_a_denial_names_the_rule_and_its_file(project: Path, home: Path) -> None:
    gate = PolicyGate(Workspace.at(project), "auto", settings=load_settings(project, home))
    with pytest.raises(PermissionDenied) as refused:
        await gate.authorize(CommandAccess("npm test; rm -rf ~"))
    assert refused.value.message == (
        "Permission to run `npm test; rm -rf ~` is denied by the deny rule bash(rm:*) in "
        f"{project}/.tether/settings.json"
    )


async def test_the_question_says_which_rule_asks(project: Path, home: Path) -> None:
    asker = Always()
    settings = load_settings(project, home, trusted=True)
    gate = PolicyGate(Workspace.at(project), "auto", asker, settings=settings)
    await gate.authorize(CommandAccess("git push origin main"))
    assert asker.requests[0].reason == (
        f"the ask rule bash(git push:*) in {project}/.tether/settings.json asks"
    )
    await gate.authorize(CommandAccess("eval $X"))
    assert asker.requests[1].reason == (
        "what eval runs is known only when it runs, so the deny rules cannot be checked on it"
    )
    # Without a bash deny rule, auto mode has nothing to check such a command against.
    (project / ".tether/settings.json").write_text("{}")
    gate = PolicyGate(Workspace.at(project), "auto", asker, settings=load_settings(project, home))
    await gate.authorize(CommandAccess("eval $X"))
    assert len(asker.requests) == 2


async def test_always_allow_for_the_project_writes_the_exact_rule(ws: Path, home: Path) -> None:
    (ws / "src").mkdir()
    asker = Always("allow_project")
    gate = PolicyGate(Workspace.at(ws), "ask", asker, settings=load_settings(ws, home))
    await gate.authorize(CommandAccess("npm test && make lint"))
    await gate.authorize(edit(ws / "src/app.py", ws))
    await gate.authorize(edit(ws / "README.md", ws, tool="write"))
    await gate.authorize(FetchAccess("https://docs.python.org/3", "Docs.Python.org"))
    await gate.authorize(McpAccess(tool="mcp__git__log", title="log"))
    offered = [[(o.decision, o.name) for o in r.options] for r in asker.requests]
    assert offered[0] == [
        ("allow_once", "Allow once"),
        ("allow_always", "Always allow the command `npm test && make lint` for this session"),
        ("allow_project", "Always allow bash(npm test), bash(make lint) for this project"),
        ("reject", "Reject"),
    ]
    local = json.loads((ws / ".tether/settings.local.json").read_text())
    assert local["permissions"]["allow"] == [
        "bash(npm test)",
        "bash(make lint)",
        "edit(src/app.py)",
        "edit(./README.md)",
        "web_fetch(domain:docs.python.org)",
        "mcp__git__log",
    ]
    # A later session passes them without asking.
    again = Always()
    gate = PolicyGate(Workspace.at(ws), "ask", again, settings=load_settings(ws, home))
    await gate.authorize(CommandAccess("make lint"))
    await gate.authorize(edit(ws / "src/app.py", ws))
    await gate.authorize(FetchAccess("https://docs.python.org/2", "docs.python.org"))
    assert again.requests == []
    await gate.authorize(edit(ws / "src/other.py", ws))
    assert len(again.requests) == 1


@pytest.mark.parametrize(
    "access",
    [
        CommandAccess("npm test $(id)"),
        CommandAccess("$CMD"),
        CommandAccess("git push"),
        UnsandboxedAccess("npm test"),
        CommandAccess("npm test", sandbox_problem="no bwrap"),
    ],
)
async def test_project_scope_is_not_offered_when_no_rule_could_allow(
    project: Path, home: Path, access: Access
) -> None:
    asker = Always("allow_once")
    settings = load_settings(project, home, trusted=True)
    await PolicyGate(Workspace.at(project), "ask", asker, settings=settings).authorize(access)
    assert "allow_project" not in [o.decision for o in asker.requests[0].options]


async def test_project_scope_is_not_offered_in_a_workspace_not_trusted(
    project: Path, home: Path
) -> None:
    asker = Always("allow_once")
    settings = load_settings(project, home)
    assert settings.trust.needed
    await PolicyGate(Workspace.at(project), "ask", asker, settings=settings).authorize(
        CommandAccess("make")
    )
    assert "allow_project" not in [o.decision for o in asker.requests[0].options]
