"""A script a sandboxed command wrote never runs outside the sandbox unasked, whatever the
shape of the hook command that runs it.

Each shape is a PostToolUse hook in the person's own settings and a model (auto mode) whose
sandboxed `bash` call plants a payload where that command will run it. The payload writes a
marker outside the workspace, which only an unsandboxed run can. A hook runs in the sandbox
by default (no marker); with `"sandbox": false` a headless session refuses it (no marker,
and the hook's error names what changed) and a person who approves it sees it run (the
marker: the shape really runs what was planted).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pytest

from tests.hooks.scripts import group
from tests.policy.support import Always
from tests.sandbox.users import NOBODY, SYSTEM_PYTHON, workspace_for
from tests.session.helpers import Recorder, Sessions, call, log_lines, script, text
from tether.sandbox.bwrap import find_bwrap
from tether.session import SessionConfig
from tether.settings import load_settings
from tether.settings.effective import sandbox_policy
from tether.tools.bash import BashTool
from tether.tools.defaults import default_tools
from tether.tools.registry import ToolRegistry

pytestmark = pytest.mark.skipif(not find_bwrap().works, reason="bubblewrap cannot start here")

BENIGN_SH = "#!/bin/sh\ntrue\n"


@dataclass(frozen=True)
class Shape:
    """A hook command, the workspace it starts in, and how a sandboxed command plants in it."""

    name: str
    command: str
    plant: str
    """The model's bash command; `$P` stands for the payload folder."""
    files: dict[str, str] = field(default_factory=dict)
    executable: tuple[str, ...] = ()
    links: dict[str, str] = field(default_factory=dict)


SHAPES = [
    Shape(
        "missing folder", "./h/p/p.sh", "mkdir -p h/p && cp $P/p.sh h/p/p.sh && chmod +x h/p/p.sh"
    ),
    Shape("bash script", "bash x.sh", "cp $P/p.sh x.sh", {"x.sh": BENIGN_SH}),
    Shape("sh script", "sh x.sh", "cp $P/p.sh x.sh", {"x.sh": BENIGN_SH}),
    Shape("python script", "python3 x.py", "cp $P/p.py x.py", {"x.py": "pass\n"}),
    Shape(
        "project dir",
        '"$CLAUDE_PROJECT_DIR"/x.sh',
        "cp $P/p.sh x.sh",
        {"x.sh": BENIGN_SH},
        ("x.sh",),
    ),
    Shape("cd", "cd d && ./x.sh", "cp $P/p.sh d/x.sh", {"d/x.sh": BENIGN_SH}, ("d/x.sh",)),
    Shape("sh -c", "sh -c './x.sh'", "cp $P/p.sh x.sh", {"x.sh": BENIGN_SH}, ("x.sh",)),
    Shape(
        "python -m",
        "python3 -m pkg.mod",
        "cp $P/p.py pkg/mod.py",
        {"pkg/__init__.py": "", "pkg/mod.py": "pass\n"},
    ),
    Shape("bash -o", "bash -o errexit x.sh", "cp $P/p.sh x.sh", {"x.sh": BENIGN_SH}),
    Shape(
        "perl -I",
        "perl -I d x.pl",
        "cp $P/p.pm d/Lib.pm",
        {"x.pl": "use Lib;\n", "d/Lib.pm": "package Lib; 1;\n"},
    ),
    Shape("cat | bash", "cat x.sh | bash", "cp $P/p.sh x.sh", {"x.sh": BENIGN_SH}),
    Shape("bash < file", "bash < x.sh", "cp $P/p.sh x.sh", {"x.sh": BENIGN_SH}),
    Shape("env -u", "env -u V ./x.sh", "cp $P/p.sh x.sh", {"x.sh": BENIGN_SH}, ("x.sh",)),
    Shape(
        "timeout -s",
        "timeout -s KILL 5 ./x.sh",
        "cp $P/p.sh x.sh",
        {"x.sh": BENIGN_SH},
        ("x.sh",),
    ),
    Shape(
        "venv link replaced",
        ".venv/bin/python x.py",
        "rm .venv/bin/python && cp $P/p.sh .venv/bin/python && chmod +x .venv/bin/python",
        {"x.py": "pass\n", ".venv/pyvenv.cfg": "home = /usr/bin\n"},
        links={".venv/bin/python": SYSTEM_PYTHON},
    ),
    Shape("missing script", "./x.sh", "cp $P/p.sh x.sh && chmod +x x.sh"),
    Shape("assignment", "FOO=1 ./x.sh", "cp $P/p.sh x.sh", {"x.sh": BENIGN_SH}, ("x.sh",)),
    Shape("exec", "exec ./x.sh", "cp $P/p.sh x.sh", {"x.sh": BENIGN_SH}, ("x.sh",)),
    Shape("source", ". ./x.sh", "cp $P/p.sh x.sh", {"x.sh": BENIGN_SH}),
    Shape("python sibling", "python3 x.py", "cp $P/p.py json.py", {"x.py": "import json\n"}),
    Shape(
        "node require",
        "node x.js",
        "cp $P/p.js lib.js",
        {"x.js": "require('./lib');\n", "lib.js": "\n"},
    ),
]

PROTECTED = frozenset(
    {"bash script", "sh script", "python script", "project dir", "assignment", "exec", "source"}
)
"""Shapes whose script the sandbox already binds read-only (`tether.settings.hookfiles`)."""

Variant = Literal["sandboxed", "headless", "approved"]


def payloads(folder: Path, marker: Path) -> Path:
    """Payloads in every language the shapes run, each writing `marker`."""
    folder.mkdir()
    (folder / "p.sh").write_text(f"#!/bin/sh\necho pwned > {marker}\n")
    (folder / "p.py").write_text(f"open({str(marker)!r}, 'w').write('pwned')\n")
    (folder / "p.pm").write_text(f"package Lib; open(my $f, '>', '{marker}'); print $f 'x'; 1;\n")
    (folder / "p.js").write_text(f"require('fs').writeFileSync({json.dumps(str(marker))}, 'x');\n")
    for path in folder.iterdir():
        path.chmod(0o755)
    return folder


def prepared(ws: Path, shape: Shape, user: str) -> None:
    for name, body in shape.files.items():
        (ws / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / name).write_text(body)
    for name in shape.executable:
        (ws / name).chmod(0o755)
    for name, target in shape.links.items():
        (ws / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / name).symlink_to(target)
    if user == "nobody":
        for path in [ws, *ws.rglob("*")]:
            os.chown(path, NOBODY, NOBODY, follow_symlinks=False)


@pytest.mark.parametrize("variant", ["sandboxed", "headless", "approved"])
@pytest.mark.parametrize("shape", SHAPES, ids=[s.name for s in SHAPES])
async def test_a_planted_script_never_runs_unsandboxed_unasked(
    tmp_path: Path, outside: Path, user: str, shape: Shape, variant: Variant
) -> None:
    ws = workspace_for(outside, user)
    marker = outside / "marker"
    folder = payloads(outside / "payloads", marker)
    prepared(ws, shape, user)
    hook: dict[str, Any] = group(shape.command, sandbox=False if variant != "sandboxed" else None)
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(
        json.dumps(
            {
                # A PATH where `python3` is the system's, which `nobody` may run too.
                "env": {"PATH": "/usr/local/bin:/usr/bin:/bin"},
                "hooks": {"PostToolUse": [{"matcher": "Bash", **hook}]},
            }
        )
    )
    settings = load_settings(ws, home)
    plant = shape.plant.replace("$P", str(folder))
    model = script({"toolCalls": [call("c1", "bash", {"command": plant})]}, {"text": "done"})
    approver = Always()
    config = SessionConfig(
        model=model,
        settings=settings,
        tools=ToolRegistry([BashTool(sandbox=sandbox_policy(settings))]),
        mode="auto",
        asker=approver if variant == "approved" else None,
    )
    with Sessions(tmp_path / "data") as sessions:
        session = sessions.create(ws, config)
        assert await session.prompt(text("go"), Recorder()) == "end_turn"
        lines = log_lines(session, tmp_path / "data")
    [result] = [line for line in lines if line["type"] == "tool/result"]
    assert not result.get("isError")
    # A script a hook already ran is bound read-only in the sandbox: there the plant fails.
    planted = result["meta"]["exitCode"] == 0
    assert planted == (shape.name not in PROTECTED), result["meta"]["output"]
    [ran] = [line for line in lines if line["type"] == "hook/run"]
    match variant:
        case "sandboxed":
            assert not marker.exists()  # it ran, confined: the marker was out of its reach
            assert "not run" not in ran.get("error", "")
        case "headless":
            assert not marker.exists()
            if planted:
                assert ran["error"].startswith("not run: it runs outside the sandbox"), ran
                assert "there is no one to ask" in ran["error"]
            else:
                assert "error" not in ran and ran["exitCode"] == 0  # as the person left it
        case "approved":
            if planted:
                [question] = approver.requests
                assert question.title == shape.command
                assert "changed after a tool call of this session" in question.reason
                assert marker.exists()  # asked, allowed: what was planted is what ran
            else:
                assert approver.requests == [] and not marker.exists()


async def test_a_script_the_write_tool_changed_is_not_run_unasked(
    tmp_path: Path, outside: Path
) -> None:
    ws = outside / "ws"
    ws.mkdir()
    (ws / "d").mkdir()  # and no script in it yet
    marker = outside / "marker"
    home = tmp_path / "home"
    home.mkdir()
    hook = group("cd d && sh x.sh", sandbox=False)
    (home / "settings.json").write_text(
        json.dumps({"hooks": {"PostToolUse": [{"matcher": "Write", **hook}]}})
    )
    settings = load_settings(ws, home)
    payload = f"#!/bin/sh\necho pwned > {marker}\n"
    model = script(
        {"toolCalls": [call("c1", "write", {"path": "d/x.sh", "content": payload})]},
        {"text": "done"},
    )
    config = SessionConfig(
        model=model, settings=settings, tools=default_tools(sandbox_policy(settings)), mode="auto"
    )
    with Sessions(tmp_path / "data") as sessions:
        session = sessions.create(ws, config)
        assert await session.prompt(text("go"), Recorder()) == "end_turn"
        lines = log_lines(session, tmp_path / "data")
    [result] = [line for line in lines if line["type"] == "tool/result"]
    assert (ws / "d/x.sh").read_text() == payload, result  # the tool wrote it (auto mode)
    [ran] = [line for line in lines if line["type"] == "hook/run"]
    assert ran["error"].startswith("not run: it runs outside the sandbox"), ran
    assert f"{ws / 'd/x.sh'}: appeared" in ran["error"]
    assert not marker.exists()


async def test_a_session_continued_later_still_asks_about_what_its_calls_planted(
    tmp_path: Path, outside: Path
) -> None:
    ws = outside / "ws"
    (ws / "d").mkdir(parents=True)
    marker = outside / "marker"
    folder = payloads(outside / "payloads", marker)
    home = tmp_path / "home"
    home.mkdir()
    hook = group("cd d && ./x.sh", sandbox=False)
    (home / "settings.json").write_text(
        json.dumps({"hooks": {"PostToolUse": [{"matcher": "Bash", **hook}]}})
    )
    settings = load_settings(ws, home)
    plant = f"cp {folder}/p.sh d/x.sh && chmod +x d/x.sh"

    def config(command: str) -> SessionConfig:
        model = script({"toolCalls": [call("c1", "bash", {"command": command})]}, {"text": "ok"})
        tools = ToolRegistry([BashTool(sandbox=sandbox_policy(settings))])
        return SessionConfig(model=model, settings=settings, tools=tools, mode="auto")

    with Sessions(tmp_path / "data") as sessions:
        first = sessions.create(ws, config(plant))
        assert await first.prompt(text("go"), Recorder()) == "end_turn"
        session_id = first.id
        first.close()
        # Continued as a new process would: its guard is read back from beside the log.
        later = sessions.load(session_id, config("true"))
        assert await later.prompt(text("again"), Recorder()) == "end_turn"
        lines = log_lines(later, tmp_path / "data")
    runs = [line for line in lines if line["type"] == "hook/run"]
    assert len(runs) == 2
    assert all(run["error"].startswith("not run: it runs outside the sandbox") for run in runs)
    assert f"{ws / 'd/x.sh'}: appeared" in runs[1]["error"]
    assert not marker.exists()
    guards = tmp_path / "data" / "sessions" / "guards" / f"{session_id}.json"
    assert json.loads(guards.read_text())["armed"] is True
    sessions.store.delete(session_id)
    assert not guards.exists()
