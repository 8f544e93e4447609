"""Each command imports what it uses, when it uses it: per command, what it must not load.

Each case runs `tether.cli.main` in a fresh interpreter and lists the modules that ran
(a module deferred until its first use, as the HTTP/2 stack is, counts only once it ran).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.models.sse_server import SSEServer, sse_reply

_DRIVER = """
import json, sys
from tether.cli import main
from tether.lazy import is_loaded
try:
    status = main(sys.argv[2:])
except SystemExit as exc:
    status = exc.code
with open(sys.argv[1], "w") as out:
    json.dump(sorted(name for name in list(sys.modules) if is_loaded(name)), out)
"""

ACP_SDK = ("acp",)
PROVIDERS = ("openai", "anthropic")
HTTP2 = ("h2.connection", "h2.events", "hpack", "hyperframe")
TERMINAL_INPUT = ("prompt_toolkit",)
WEB = ("starlette", "uvicorn", "websockets", "tether.web")
MCP = ("mcp", "mcp_types")
PARSER = ("tree_sitter", "tree_sitter_bash")
VALIDATION = ("pydantic", "pydantic_core")
CARDS = ("rich", "pygments", "markdown_it")
SESSIONS = ("tether.session.session", "tether.tools", "tether.models", "tether.policy")

NEVER_OUTSIDE_ACP = ACP_SDK + TERMINAL_INPUT + WEB + HTTP2 + ("numpy", "ray")
"""What no command but `tether acp` and `tether web` loads (and they load no terminal input)."""


def _loaded(
    tmp_path: Path, *argv: str, stdin: str = "", cwd: Path | None = None, env: dict[str, str]
) -> set[str]:
    out = tmp_path / "loaded.json"
    subprocess.run(
        [sys.executable, "-c", _DRIVER, str(out), *argv],
        input=stdin.encode(),
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )
    assert out.exists(), f"tether {' '.join(argv)} did not run to its end"
    return set(json.loads(out.read_text()))


def _found(loaded: set[str], forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        name for name in loaded if any(name == f or name.startswith(f + ".") for f in forbidden)
    )


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """A home of its own, and no key that could reach a provider."""
    clean = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return {**clean, "TETHER_HOME": str(tmp_path / "home")}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A small workspace with one file."""
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "a.py").write_text("x = 1\n")
    return folder


def test_version_loads_nothing_and_help_no_sdk(tmp_path: Path, env: dict[str, str]) -> None:
    heavy = NEVER_OUTSIDE_ACP + PROVIDERS + MCP + PARSER + VALIDATION + CARDS + SESSIONS
    assert _found(_loaded(tmp_path, "--version", env=env), heavy) == []
    # The help lists the interactive session's options: their defaults load, no SDK does.
    helped = _loaded(tmp_path, "--help", env=env)
    assert _found(helped, NEVER_OUTSIDE_ACP + PROVIDERS + MCP + PARSER) == []


def test_sessions_and_show_load_only_what_they_print(
    tmp_path: Path, env: dict[str, str], workspace: Path
) -> None:
    script = tmp_path / "hello.json"
    script.write_text(json.dumps({"turns": [{"text": "Hello."}]}))
    ran = _loaded(tmp_path, "run", "--model", f"script:{script}", "hi", cwd=workspace, env=env)
    # A scripted model makes no request: no provider's SDK.
    assert _found(ran, NEVER_OUTSIDE_ACP + PROVIDERS + MCP + PARSER) == []
    listed = _loaded(tmp_path, "sessions", env=env)
    assert "rich" in listed
    assert _found(listed, NEVER_OUTSIDE_ACP + PROVIDERS + MCP + PARSER + VALIDATION) == []
    assert _found(listed, SESSIONS) == []
    [log] = (tmp_path / "home" / "sessions").glob("*.jsonl")
    shown = _loaded(tmp_path, "show", log.stem, env=env)
    assert _found(shown, NEVER_OUTSIDE_ACP + PROVIDERS + MCP + PARSER) == []
    rules = _loaded(tmp_path, "permissions", cwd=workspace, env=env)
    assert _found(rules, NEVER_OUTSIDE_ACP + PROVIDERS + MCP + ("pygments", "markdown_it")) == []


async def test_run_loads_its_provider_at_the_request_and_no_http2(
    tmp_path: Path, env: dict[str, str], workspace: Path
) -> None:
    async with SSEServer() as server:
        server.queue(sse_reply("openai_text.sse"))
        argv = ["run", "--model", "openai:gpt-test", "--base-url", f"{server.url}/v1", "hi"]
        loaded = await asyncio.to_thread(_loaded, tmp_path, *argv, cwd=workspace, env=env)
        assert len(server.requests) == 1
    assert "openai" in loaded  # the request was made with the provider's SDK
    assert _found(loaded, (*NEVER_OUTSIDE_ACP, "anthropic", *MCP, *PARSER)) == []


def test_acp_loads_the_sdk_and_no_provider_web_or_terminal_input(
    tmp_path: Path, env: dict[str, str], workspace: Path
) -> None:
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "session/new",
            "params": {"cwd": str(workspace), "mcpServers": []},
        },
    ]
    stdin = "".join(json.dumps(r) + "\n" for r in requests)
    loaded = _loaded(
        tmp_path, "acp", stdin=stdin, env={**env, "DEEPSEEK_API_KEY": "test-no-request"}
    )
    assert "acp.schema" in loaded
    forbidden = TERMINAL_INPUT + WEB + HTTP2 + PROVIDERS + MCP + PARSER
    assert _found(loaded, (*forbidden, "numpy", "ray", "httpx", "html_to_markdown")) == []
