"""MCP servers through the `mcp` SDK: a sample server (stdio, streamable HTTP, SSE) written
with the SDK, and the real `mcp-server-git` over stdio on a temporary repository."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.gitrepo import git
from tests.mcp.support import PNG, SAMPLE
from tests.processes import process_gone
from tether.content import ImageContent, TextContent
from tether.errors import ToolError
from tether.mcp import HttpServer, SseServer, StdioServer
from tether.mcp.presenter import McpArgs
from tether.mcp.servers import McpServers
from tether.mcp.tool import McpTool
from tether.tools.card_context import CardContext
from tether.tools.context import ToolContext
from tether.tools.invocation import invoke
from tether.tools.workspace import Workspace
from tether.views import GenericResultView, ImageAttachment, LinkAttachment, ResourceAttachment


def stdio_spec(name: str = "sample") -> StdioServer:
    """The sample server over stdio."""
    return StdioServer(name=name, command=sys.executable, args=(str(SAMPLE), "stdio"))


def _tools(servers: McpServers) -> dict[str, McpTool]:
    return {tool.name: tool for tool in servers.tools()}


async def _call(tool: McpTool, cwd: Path, **arguments: object) -> list[object]:
    result = await invoke(tool, McpArgs(**arguments), ToolContext(workspace=Workspace.at(cwd)))
    if result.is_error:
        raise ToolError(result.text())
    return list(result.content)


@pytest.fixture
async def sample(tmp_path: Path) -> AsyncIterator[McpServers]:
    servers = await McpServers.start([stdio_spec()], tmp_path)
    try:
        yield servers
    finally:
        await servers.close()


async def test_stdio_tools_cards_and_results(sample: McpServers, tmp_path: Path) -> None:
    tools = _tools(sample)
    assert sorted(tools) == [
        "mcp__sample__add",
        "mcp__sample__crash",
        "mcp__sample__document",
        "mcp__sample__fail",
        "mcp__sample__picture",
        "mcp__sample__pid",
        "mcp__sample__stats",
        "mcp__sample__write_note",
    ]
    add = tools["mcp__sample__add"]
    assert add.parameters_schema()["properties"].keys() == {"a", "b"}
    assert add.description == "Add two integers."
    card = add.present_call(McpArgs(a=2, b=3), CardContext())
    assert (card.title, card.kind, card.raw_input) == (
        "Add numbers (sample)",
        "read",
        {"a": 2, "b": 3},
    )
    assert add.read_only
    note = tools["mcp__sample__write_note"]
    assert note.present_call(McpArgs(text="x"), CardContext()).kind == "fetch"
    assert not note.read_only
    assert (
        tools["mcp__sample__fail"].present_call(McpArgs(reason="x"), CardContext()).kind == "other"
    )

    assert await _call(add, tmp_path, a=2, b=3) == [TextContent(text="5")]
    assert await _call(note, tmp_path, text="hello") == [TextContent(text="noted: hello")]
    assert (tmp_path / "notes.txt").read_text() == "hello\n"  # ran in the session's cwd
    [image] = await _call(tools["mcp__sample__picture"], tmp_path)
    assert isinstance(image, ImageContent) and image.mime_type == "image/png"
    with pytest.raises(ToolError, match=r"mcp__sample__fail failed: .*refusing: no"):
        await _call(tools["mcp__sample__fail"], tmp_path, reason="no")

    # Beyond text: the model sees text and images, the card lists images and resources.
    context = ToolContext(workspace=Workspace.at(tmp_path))
    picture = await invoke(tools["mcp__sample__picture"], McpArgs(), context)
    card = tools["mcp__sample__picture"].present_result(McpArgs(), picture, CardContext())
    assert card == GenericResultView(
        attachments=(ImageAttachment(mime_type="image/png", bytes=len(PNG)),)
    )
    document = await invoke(tools["mcp__sample__document"], McpArgs(), context)
    assert document.text().startswith('Here is the README.\n<resource uri="file:///project/')
    card = tools["mcp__sample__document"].present_result(McpArgs(), document, CardContext())
    assert card == GenericResultView(
        content="Here is the README.",
        attachments=(
            ResourceAttachment(
                uri="file:///project/README.md",
                mime_type="text/markdown",
                bytes=10,
                text="# Project\n",
            ),
            LinkAttachment(
                uri="https://example.invalid/logo.png",
                name="logo.png",
                mime_type="image/png",
                size=2048,
            ),
        ),
    )
    stats = await invoke(tools["mcp__sample__stats"], McpArgs(), context)
    assert stats.text() == '{\n  "files": 3,\n  "lines": {\n    "py": 120\n  }\n}'
    # A text-only answer keeps the plain generic card (nothing stored beside it).
    assert stats.meta is None
    assert tools["mcp__sample__stats"].present_result(McpArgs(), stats, CardContext()) is None


async def test_a_server_that_dies_mid_call_is_named_with_its_stderr(
    sample: McpServers, tmp_path: Path
) -> None:
    tools = _tools(sample)
    with pytest.raises(ToolError) as failed:
        await _call(tools["mcp__sample__crash"], tmp_path)
    message = str(failed.value)
    assert "MCP server sample" in message
    assert "crashing on purpose" in message
    # The session goes on: the next call says the server is gone rather than hanging.
    with pytest.raises(ToolError, match="MCP server sample"):
        await _call(tools["mcp__sample__add"], tmp_path, a=1, b=1)


async def test_a_server_that_fails_to_start_is_a_notice(tmp_path: Path) -> None:
    broken = StdioServer(
        name="broken",
        command=sys.executable,
        args=("-c", "import sys; sys.stderr.write('bad config: missing token\\n'); sys.exit(2)"),
    )
    missing = StdioServer(name="missing", command=str(tmp_path / "nope"))
    servers = await McpServers.start([broken, missing, stdio_spec()], tmp_path)
    try:
        assert [c.name for c in servers.connections] == ["sample"]
        broken_notice, missing_notice = servers.notices
        assert broken_notice.startswith("MCP server broken failed to start")
        assert "bad config: missing token" in broken_notice
        assert missing_notice.startswith("MCP server missing failed to start")
    finally:
        await servers.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def http_server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[int]:
    """The sample server over HTTP (`request.param`: http or sse) on a loopback port."""
    port = _free_port()
    log = (tmp_path / "server.log").open("w")
    process = subprocess.Popen(
        [sys.executable, str(SAMPLE), request.param, str(port)], stderr=log, stdout=log
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert process.poll() is None, (tmp_path / "server.log").read_text()
            time.sleep(0.05)
        else:
            raise AssertionError("the sample HTTP server did not listen within 30 s")
        yield port
    finally:
        process.terminate()
        process.wait(10)
        log.close()


@pytest.mark.parametrize("http_server", ["http"], indirect=True)
async def test_streamable_http(http_server: int, tmp_path: Path) -> None:
    spec = HttpServer(name="web", url=f"http://127.0.0.1:{http_server}/mcp")
    servers = await McpServers.start([spec], tmp_path)
    try:
        assert servers.notices == []
        tools = _tools(servers)
        assert await _call(tools["mcp__web__add"], tmp_path, a=20, b=22) == [TextContent(text="42")]
    finally:
        await servers.close()


@pytest.mark.parametrize("http_server", ["sse"], indirect=True)
async def test_sse(http_server: int, tmp_path: Path) -> None:
    spec = SseServer(name="old", url=f"http://127.0.0.1:{http_server}/sse")
    servers = await McpServers.start([spec], tmp_path)
    try:
        assert servers.notices == []
        tools = _tools(servers)
        assert await _call(tools["mcp__old__add"], tmp_path, a=1, b=2) == [TextContent(text="3")]
    finally:
        await servers.close()


async def test_the_real_mcp_server_git(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", "-b", "main", cwd=repo)
    (repo / "a.txt").write_text("one\n")
    git("add", "a.txt", cwd=repo)
    git("commit", "-q", "-m", "first commit", cwd=repo)
    (repo / "a.txt").write_text("two\n")
    spec = StdioServer(
        name="git", command=sys.executable, args=("-m", "mcp_server_git", "--repository", str(repo))
    )
    servers = await McpServers.start([spec], repo)
    try:
        assert servers.notices == []
        tools = _tools(servers)
        assert {"mcp__git__git_status", "mcp__git__git_log", "mcp__git__git_diff_unstaged"} <= set(
            tools
        )
        [status] = await _call(tools["mcp__git__git_status"], repo, repo_path=str(repo))
        assert isinstance(status, TextContent) and "a.txt" in status.text
        [log] = await _call(tools["mcp__git__git_log"], repo, repo_path=str(repo))
        assert isinstance(log, TextContent) and "first commit" in log.text
        [diff] = await _call(tools["mcp__git__git_diff_unstaged"], repo, repo_path=str(repo))
        assert isinstance(diff, TextContent) and "+two" in diff.text
    finally:
        await servers.close()


async def test_servers_stop_with_close(tmp_path: Path) -> None:
    servers = await McpServers.start([stdio_spec()], tmp_path)
    [text] = await _call(_tools(servers)["mcp__sample__pid"], tmp_path)
    assert isinstance(text, TextContent)
    await servers.close()
    assert servers.connections == []
    assert process_gone(int(text.text))
