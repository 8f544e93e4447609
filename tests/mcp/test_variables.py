"""`${VAR}` and `${VAR:-default}` in `.mcp.json`, as Claude Code's MCP documentation shows them:
replaced in `command`, `args`, `env`, `url` and `headers`; a server whose variable is unset
and has no default is named and not started, the others are."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.files import write
from tests.settings.support import trust
from tether.errors import McpSpecError
from tether.mcp import HttpServer, StdioServer, describe_spec, gather, read_specs
from tether.mcp.approval import fingerprint
from tether.mcp.servers import McpServers

SAMPLE = Path(__file__).with_name("sample_server.py")

CONFIG = {
    "mcpServers": {
        "api-server": {
            "type": "http",
            "url": "${API_BASE_URL:-https://api.example.com}/mcp",
            "headers": {"Authorization": "Bearer ${API_KEY}"},
        },
        "local": {
            "command": "${TOOLS_DIR}/server",
            "args": ["--port", "${PORT:-8080}", "--mode=${MODE:-}"],
            "env": {"TOKEN": "${TOKEN}", "PLAIN": "$TOKEN stays"},
        },
        "github": {
            "type": "http",
            "url": "https://api.githubcopilot.com/mcp/",
            "headers": {"Authorization": "Bearer ${GITHUB_PAT}"},
        },
    }
}


def test_variables_are_replaced_in_every_documented_field(tmp_path: Path) -> None:
    path = write(tmp_path / ".mcp.json", CONFIG)
    environ = {"API_KEY": "k-123", "TOOLS_DIR": "/opt/t", "TOKEN": "s3cret", "GITHUB_PAT": "p"}
    specs, notices = read_specs(path, environ)
    assert notices == []
    api, local, github = specs
    assert api == HttpServer(
        name="api-server",
        url="https://api.example.com/mcp",
        headers=(("Authorization", "Bearer k-123"),),
    )
    assert local == StdioServer(
        name="local",
        command="/opt/t/server",
        args=("--port", "8080", "--mode="),
        env=(("TOKEN", "s3cret"), ("PLAIN", "$TOKEN stays")),
    )
    assert github.headers == (("Authorization", "Bearer p"),)  # type: ignore[union-attr]
    # People approving a server read what the file wrote, not the values of secrets.
    assert describe_spec(local) == "'${TOOLS_DIR}/server' --port '${PORT:-8080}' '--mode=${MODE:-}'"
    assert describe_spec(api) == "http ${API_BASE_URL:-https://api.example.com}/mcp"
    assert describe_spec(github) == "http https://api.githubcopilot.com/mcp/"
    # What runs is what an approval covers: a changed value is a changed server.
    again, _ = read_specs(path, {**environ, "TOKEN": "other"})
    assert fingerprint(again, tmp_path) != fingerprint(specs, tmp_path)


def test_a_set_variable_wins_over_its_default_and_an_empty_one_takes_it(tmp_path: Path) -> None:
    path = write(tmp_path / ".mcp.json", CONFIG)
    environ = {"API_KEY": "k", "TOOLS_DIR": "/t", "TOKEN": "t", "GITHUB_PAT": "p"}
    specs, _ = read_specs(path, {**environ, "API_BASE_URL": "http://127.0.0.1:9", "PORT": ""})
    assert specs[0].url == "http://127.0.0.1:9/mcp"  # type: ignore[union-attr]
    assert specs[1].args == ("--port", "8080", "--mode=")  # type: ignore[union-attr]


def test_an_unset_variable_without_default_is_named_and_its_server_left_out(
    tmp_path: Path,
) -> None:
    path = write(tmp_path / ".mcp.json", CONFIG)
    specs, notices = read_specs(path, {"API_KEY": "k"})
    assert [s.name for s in specs] == ["api-server"]
    assert notices == [
        f"MCP server local ({path}) was not started: the variables are not set and have no "
        "default: ${TOOLS_DIR}, ${TOKEN}",
        f"MCP server github ({path}) was not started: the variable is not set and has no "
        "default: ${GITHUB_PAT}",
    ]


def test_a_variable_that_makes_no_url_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path / ".mcp.json", {"mcpServers": {"x": {"type": "sse", "url": "${U}"}}})
    with pytest.raises(McpSpecError, match=r"x: `url` '\$\{U\}' is not an http:// or https://"):
        read_specs(path, {"U": "file:///etc/passwd"})


async def test_a_server_started_from_variables(
    ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMPLE_PYTHON", sys.executable)
    monkeypatch.setenv("SAMPLE_DIR", str(SAMPLE.parent))
    monkeypatch.delenv("MISSING_SERVER", raising=False)
    write(
        ws / ".mcp.json",
        {
            "mcpServers": {
                "sample": {
                    "command": "${SAMPLE_PYTHON}",
                    "args": ["${SAMPLE_DIR}/sample_server.py", "${TRANSPORT:-stdio}"],
                },
                "absent": {"command": "${MISSING_SERVER}"},
            }
        },
    )
    sources = gather(ws, tmp_path / "home")
    assert [s.name for s in sources.project] == ["sample"]
    assert sources.notices == [
        f"MCP server absent ({ws / '.mcp.json'}) was not started: the variable is not set and "
        "has no default: ${MISSING_SERVER}"
    ]
    servers = await McpServers.start(sources.project, ws)
    try:
        assert servers.notices == []
        assert "mcp__sample__add" in {tool.name for tool in servers.tools()}
    finally:
        await servers.close()


def test_the_settings_env_is_seen_once_the_workspace_is_trusted(
    ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tether.settings import load_settings
    from tether.settings.effective import tool_env

    monkeypatch.delenv("TOOLS_DIR", raising=False)
    home = tmp_path / "home"
    (ws / ".claude").mkdir()
    (ws / ".claude/settings.json").write_text(json.dumps({"env": {"TOOLS_DIR": "/opt/t"}}))
    write(ws / ".mcp.json", {"mcpServers": {"local": {"command": "${TOOLS_DIR}/server"}}})
    untrusted = gather(ws, home, env=tool_env(load_settings(ws, home)))
    assert untrusted.project == []
    assert "${TOOLS_DIR}" in untrusted.notices[0]
    trust(ws, home)
    trusted = gather(ws, home, env=tool_env(load_settings(ws, home)))
    assert trusted.project == [StdioServer(name="local", command="/opt/t/server")]
