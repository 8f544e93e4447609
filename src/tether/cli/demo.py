"""`tether demo`: the scripted model fixes a bug in a sample workspace, offline."""

from __future__ import annotations

import argparse
import shutil
import tempfile
from importlib import resources
from pathlib import Path

from tether.cli.printer import Printer
from tether.cli.prompting import run_prompt
from tether.cli.safe_output import consoles
from tether.cli.status import StatusLine
from tether.models.script import ScriptModel
from tether.session import Session, SessionConfig, SessionStore
from tether.tools.defaults import default_tools

__all__ = ["PROMPT", "configure", "run"]

PROMPT = "Fix the first issue in notes/issues.md and check that the greeter works."


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of `tether demo`."""
    parser.add_argument(
        "--dir", type=Path, help="where to put the sample workspace (new or empty; default: temp)"
    )


def run(args: argparse.Namespace) -> int:
    """Copy the workspace, run the script in `auto` mode, print every card."""
    out, err = consoles()
    demo = resources.files("tether.demo")
    if args.dir is None:
        workspace = Path(tempfile.mkdtemp(prefix="tether-demo-"))
    else:
        workspace = args.dir
        if workspace.exists() and (not workspace.is_dir() or any(workspace.iterdir())):
            err.print(f"tether: error: {workspace} exists and is not empty", markup=False)
            return 1
    with resources.as_file(demo / "workspace") as source:
        shutil.copytree(source, workspace, dirs_exist_ok=True)
    model = ScriptModel.from_json((demo / "script.json").read_text(encoding="utf-8"), "demo")
    err.print(f"demo workspace: {workspace}", style="dim", markup=False)
    config = SessionConfig(model=model, tools=default_tools(), mode="auto")
    session = Session.create(SessionStore.default(), workspace, config)
    try:
        status = run_prompt(session, PROMPT, Printer(out, err, status=StatusLine(err)))
    finally:
        session.close()
    out.print()
    out.print(f"Replay it from its log:  tether show {session.id}", markup=False)
    out.print("List sessions:           tether sessions", markup=False)
    return status
