"""`tether acp` starts without the heavy libraries it does not need until later."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

LAZY = (
    "openai",
    "anthropic",
    "numpy",
    "starlette",
    "uvicorn",
    "websockets",
    "tether.web",
    "httpx",
    "html_to_markdown",
)
"""Imported only when a model makes a request, a large file is counted, a page is fetched
or `tether web` runs."""


def test_initialize_and_session_new_import_no_sdk_numpy_or_web_stack(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "session/new",
            "params": {"cwd": str(workspace), "mcpServers": []},
        },
    ]
    env = {
        **os.environ,
        "TETHER_HOME": str(tmp_path / "home"),
        "DEEPSEEK_API_KEY": "test-no-request",
    }
    # -X importtime names every module the process imported, up to its exit.
    agent = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "tether", "acp"],
        input="".join(json.dumps(request) + "\n" for request in requests).encode(),
        capture_output=True,
        env=env,
        timeout=60,
        check=True,
    )
    answered = {json.loads(line).get("id") for line in agent.stdout.splitlines()}
    assert {1, 2} <= answered
    imported = {
        line.rsplit("|", 1)[1].strip()
        for line in agent.stderr.decode().splitlines()
        if line.startswith("import time:") and "|" in line
    }
    assert "acp.schema" in imported
    early = sorted(
        name
        for name in imported
        if any(name == lazy or name.startswith(lazy + ".") for lazy in LAZY)
    )
    assert early == []
