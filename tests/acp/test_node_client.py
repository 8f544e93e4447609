"""`tether acp` driven by the official TypeScript SDK (`@agentclientprotocol/sdk` 2.4.0).

The Node client (`tests/acp/node/client.mjs`) spawns the agent, answers its permission
request (which must carry the whole call), checks the read card, the locations of finished
calls, the config options, the mode switch and the commands advert. The second client
(`tests/acp/node/scenarios.mjs`) reports what an editor's panel would show of stopped
commands, MCP results beyond text, glob's locations, the config options after each switch
and the errors of a bad delete and a server refusing its token. This module installs the
SDK into `tests/acp/node/node_modules` on first use (`npm ci`, from the pinned lock file) and
checks the clients' reports.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests.acp.wire import tether_command
from tests.loopback_http import serving
from tests.mcp.support import PNG, SAMPLE
from tests.npm import npm_package

NODE_DIR = Path(__file__).parent / "node"
SDK_VERSION = "2.4.0"

SCRIPT = {
    "turns": [
        {
            "text": "Reading first.",
            "toolCalls": [{"id": "read-1", "name": "read", "arguments": {"path": "greet.py"}}],
        },
        {
            "toolCalls": [
                {
                    "id": "edit-1",
                    "name": "edit",
                    "arguments": {"path": "greet.py", "old_string": "hello", "new_string": "hi"},
                }
            ]
        },
        {"text": "Done."},
    ]
}


@pytest.fixture(scope="module")
def node() -> str:
    """The `node` binary, with the pinned SDK installed next to the client."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is needed to run the TypeScript SDK client")
    npm_package(NODE_DIR, "@agentclientprotocol/sdk", SDK_VERSION)
    return node


def test_typescript_sdk_client(node: str, tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "greet.py").write_text('def greet():\n    return "hello"\n\n')
    script = tmp_path / "script.json"
    script.write_text(json.dumps(SCRIPT))
    env = {**os.environ, "TETHER_HOME": str(tmp_path / "home")}
    agent = [*tether_command(), "acp", "--model", f"script:{script}", "--mode", "ask"]
    done = subprocess.run(
        [node, str(NODE_DIR / "client.mjs"), str(workspace), *agent],
        cwd=NODE_DIR,
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)

    assert seen["protocolVersion"] == 1
    assert seen["agent"] == "tether"
    assert seen["modes"] == ["ask", "accept-edits", "auto", "plan"]
    assert seen["stopReason"] == "end_turn"
    assert seen["listed"] == [seen["sessionId"]]
    view = seen["readView"]
    assert view["card"] == "read"
    assert view["path"] == str(workspace / "greet.py")
    assert [(line["number"], line["text"]) for line in view["lines"]] == [
        (1, "def greet():"),
        (2, '    return "hello"'),
        (3, ""),
    ]
    assert view["totalLines"] == 3
    assert seen["permission"]["toolCall"]["kind"] == "edit"
    assert seen["permission"]["toolCall"]["title"] == "Edit greet.py"
    greet = str(workspace / "greet.py")
    assert seen["readLocations"] == [{"path": greet, "line": 1}]
    assert seen["editLocations"] == [{"path": greet, "line": 1}]
    assert seen["configOptions"] == ["model", "thinking", "mode", "sandbox"]
    assert (seen["modeAfter"], seen["modeUpdates"]) == ("auto", ["auto"])
    assert seen["commands"][:3] == ["compact", "init", "mode"]
    assert seen["editContent"][0]["newText"].count("hi") == 1
    assert seen["kinds"].count("tool_call") == 2
    assert (workspace / "greet.py").read_text() == 'def greet():\n    return "hi"\n\n'


def _call(call_id: str, name: str, **arguments: object) -> dict[str, object]:
    return {"id": call_id, "name": name, "arguments": arguments}


SCENARIOS = {
    "turns": [
        {
            "toolCalls": [
                # Long enough for the sandboxed shell to print first on a loaded machine: at
                # 500 ms such a shell has been killed before it ran (tests/web's results test).
                _call("timeout-1", "bash", command="echo begun; sleep 30", timeout_ms=2000),
                _call("killed-1", "bash", command="echo dying; kill -KILL $$"),
                _call("exit-1", "bash", command="echo out; exit 3"),
                _call("glob-1", "glob", pattern="**/*.py"),
                _call("image-1", "mcp__sample__picture"),
                _call("doc-1", "mcp__sample__document"),
                _call("stats-1", "mcp__sample__stats"),
            ]
        },
        {"text": "Ran them."},
        {"toolCalls": [_call("cancel-1", "bash", command="echo started; sleep 30")]},
        {"text": "Never asked for: the turn was cancelled."},
    ]
}


class _Unauthorized(BaseHTTPRequestHandler):
    """An MCP endpoint that refuses every request: the token is wrong."""

    def _refuse(self) -> None:
        self.send_response(401, "Unauthorized")
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", "13")
        self.end_headers()
        self.wfile.write(b"bad token\r\n\r\n")

    do_GET = do_POST = do_DELETE = _refuse

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def locked_server() -> Iterator[str]:
    """The URL of a loopback MCP endpoint that answers 401 to everything."""
    with serving(_Unauthorized) as port:
        yield f"http://127.0.0.1:{port}/mcp"


def test_typescript_sdk_client_sees_statuses_content_locations_and_options(
    node: str, tmp_path: Path, locked_server: str
) -> None:
    workspace = tmp_path / "workspace"
    (workspace / "pkg").mkdir(parents=True)
    (workspace / "main.py").write_text("print('main')\n")
    (workspace / "pkg" / "util.py").write_text("X = 1\n")
    (workspace / "notes.txt").write_text("not python\n")
    models = tmp_path / "models"
    models.mkdir()
    script = models / "main.json"
    script.write_text(json.dumps(SCENARIOS))
    other = models / "other.json"
    other.write_text(json.dumps({"turns": [{"text": "other"}]}))
    scenario = {
        "mcpServers": [
            {
                "name": "sample",
                "command": sys.executable,
                "args": [str(SAMPLE), "stdio"],
                "env": [],
            },
            {"type": "http", "name": "locked", "url": locked_server, "headers": []},
        ],
        "otherModel": f"script:{other}",
    }
    env = {**os.environ, "TETHER_HOME": str(tmp_path / "home")}
    agent = [*tether_command(), "acp", "--model", f"script:{script}", "--mode", "auto"]
    done = subprocess.run(
        [node, str(NODE_DIR / "scenarios.mjs"), str(workspace), json.dumps(scenario), *agent],
        cwd=NODE_DIR,
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["exitStatus"] == 0
    assert seen["stops"] == ["end_turn", "cancelled", "end_turn"]
    _stopped_commands_failed(seen["finals"])
    _mcp_content_is_acp_blocks(seen["finals"])
    _glob_sends_locations(seen["finals"], workspace)
    _every_switch_updates_the_options(seen, f"script:{script}", f"script:{other}")
    # Also: a server refusing its token says so, and deleting an unknown session is an error.
    [refused] = [n for n in seen["notices"] if "locked" in n]
    assert "MCP server locked failed to start: the server answered HTTP 401 Unauthorized" in refused
    assert "headers or token may be wrong" in refused
    assert seen["deleted"]["error"]["code"] == -32602
    assert "no-such-session" in seen["deleted"]["error"]["message"]


def _stopped_commands_failed(finals: dict[str, Any]) -> None:
    # 1. A command stopped by its timeout, by a cancel or killed by a signal failed; its
    # terminal card and output are what they were. A non-zero exit code completed.
    for call_id, output, signal in [
        ("timeout-1", "begun\n", "SIGTERM"),
        ("cancel-1", "started\n", "SIGTERM"),
        ("killed-1", "dying\n", "SIGKILL"),
    ]:
        final = finals[call_id]
        assert final["status"] == "failed", call_id
        view = final["_meta"]["tether"]["view"]
        assert (view["card"], view["output"], view["signal"]) == ("terminal", output, signal)
        assert final["rawOutput"] == {"signal": signal}
        assert f"Killed by {signal}" in final["content"][0]["content"]["text"]
    exited = finals["exit-1"]
    assert exited["status"] == "completed"
    assert exited["rawOutput"] == {"exitCode": 3}


def _mcp_content_is_acp_blocks(finals: dict[str, Any]) -> None:
    # 2. An MCP tool's image, embedded resource, link and structured content, as ACP blocks.
    image = finals["image-1"]
    assert image["status"] == "completed"
    assert [item["content"] for item in image["content"]] == [
        {"type": "image", "mimeType": "image/png", "data": base64.b64encode(PNG).decode()}
    ]
    assert image["_meta"]["tether"]["view"] == {
        "card": "generic",
        "title": "picture (sample)",
        "attachments": [{"type": "image", "mimeType": "image/png", "bytes": len(PNG)}],
    }
    doc = [item["content"] for item in finals["doc-1"]["content"]]
    assert doc == [
        {"type": "text", "text": "Here is the README."},
        {
            "type": "resource",
            "resource": {
                "uri": "file:///project/README.md",
                "mimeType": "text/markdown",
                "text": "# Project\n",
            },
        },
        {
            "type": "resource_link",
            "uri": "https://example.invalid/logo.png",
            "name": "logo.png",
            "mimeType": "image/png",
            "size": 2048,
        },
    ]
    assert [a["type"] for a in finals["doc-1"]["_meta"]["tether"]["view"]["attachments"]] == [
        "resource",
        "resource_link",
    ]
    [stats] = [item["content"] for item in finals["stats-1"]["content"]]
    assert stats["type"] == "text"
    assert json.loads(stats["text"]) == {"files": 3, "lines": {"py": 120}}
    assert stats["text"].startswith('{\n  "files": 3')  # pretty, not one line


def _glob_sends_locations(finals: dict[str, Any], workspace: Path) -> None:
    # 3. glob's matches are locations: whole files, no line.
    assert sorted(loc["path"] for loc in finals["glob-1"]["locations"]) == [
        str(workspace / "main.py"),
        str(workspace / "pkg" / "util.py"),
    ]
    assert all("line" not in loc for loc in finals["glob-1"]["locations"])


def _every_switch_updates_the_options(seen: dict[str, Any], first: str, other: str) -> None:
    # 4. Every switch of mode or model, whatever caused it, updates the config options.
    # The thinking option is offered with the others; nothing here changes it from off.
    same = {"thinking": "off", "sandbox": "off"}
    assert seen["modesAfterSetMode"] == ["ask"]
    assert seen["configAfterSetMode"] == [{"model": first, "mode": "ask", **same}]
    assert seen["modesAfterSlashMode"] == ["auto"]
    assert seen["configAfterSlashMode"] == [{"model": first, "mode": "auto", **same}]
    after = {"model": other, "mode": "auto", **same}
    assert seen["configAfterModel"] == [after]
    assert seen["switchedModel"] == other
