"""`tether acp` driven by the official TypeScript SDK (`@agentclientprotocol/sdk` 2.4.0).

The Node client (`tests/acp/node/client.mjs`) spawns the agent, answers its permission
request (which must carry the whole call), checks the read card, the locations of finished
calls, the config options, the mode switch and the commands advert; this test installs the
SDK into `tests/acp/node/node_modules` on first use (`npm ci`, from the pinned lock file) and
checks the client's report.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.acp.wire import tether_command
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
    assert seen["modes"] == ["ask", "accept-edits", "auto"]
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
    assert seen["configOptions"] == ["model", "mode", "sandbox"]
    assert (seen["modeAfter"], seen["modeUpdates"]) == ("auto", ["auto"])
    assert seen["commands"][:3] == ["compact", "init", "mode"]
    assert seen["editContent"][0]["newText"].count("hi") == 1
    assert seen["kinds"].count("tool_call") == 2
    assert (workspace / "greet.py").read_text() == 'def greet():\n    return "hi"\n\n'
