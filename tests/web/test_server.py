"""`tether web` over real loopback HTTP and WebSocket clients: the door and the protocol."""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import shlex
import socket
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.cli.in_process import tether_in_process
from tests.web.in_process import web_in_process
from tests.web.refusing_agent import REFUSING_AGENT
from tests.web.served import WebServer, fake_agent_command
from tether.web.server import bind

RECV_TIMEOUT_S = 15
POLL_S = 0.05


def _get(
    server: WebServer, path: str, headers: dict[str, str] | None = None
) -> http.client.HTTPResponse:
    parts = urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


def _body(server: WebServer, path: str) -> bytes:
    parts = urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        conn.request("GET", path)
        return conn.getresponse().read()
    finally:
        conn.close()


def test_binds_loopback_and_prints_a_tokened_url(fake_web: WebServer) -> None:
    parts = urlsplit(fake_web.url)
    assert parts.hostname == "127.0.0.1"
    assert parts.port is not None and parts.port > 0
    assert len(fake_web.token) >= 32


@pytest.mark.parametrize(
    "path", ["/", "/static/app.js", "/static/app.css", "/highlight.css", "/ws"]
)
def test_requests_without_the_token_are_refused(fake_web: WebServer, path: str) -> None:
    assert _get(fake_web, path).status == 403
    assert _get(fake_web, f"{path}?token=wrong-{fake_web.token}").status == 403


def test_the_token_opens_the_page_and_its_cookie_the_assets(fake_web: WebServer) -> None:
    page = _get(fake_web, f"/?token={fake_web.token}")
    assert page.status == 200
    assert page.getheader("referrer-policy") == "no-referrer"
    assert "script-src 'self'" in (page.getheader("content-security-policy") or "")
    cookie = (page.getheader("set-cookie") or "").split(";")[0]
    assert cookie.endswith(fake_web.token)
    assert "HttpOnly" in (page.getheader("set-cookie") or "")
    for path in ("/static/app.js", "/static/cards/index.js", "/highlight.css"):
        assert _get(fake_web, path, {"Cookie": cookie}).status == 200
    assert _get(fake_web, "/static/app.js", {"Cookie": cookie}).getheader("content-type") == (
        "text/javascript; charset=utf-8"
    )
    # Only the page's own files: nothing else under the package, nothing above it.
    for path in ("/static/nope.js", "/static/../app.py", "/static/%2e%2e/app.py", "/static/"):
        assert _get(fake_web, path, {"Cookie": cookie}).status == 404, path
    # Every module and stylesheet the page will import is announced up front, once.
    html = _body(fake_web, f"/?token={fake_web.token}").decode()
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/([^"]+)">', html)
    assert "cards/terminal.js" in preloaded and "app.js" in preloaded
    assert len(preloaded) == len(set(preloaded))
    assert '<link rel="preload" as="style" href="/static/cards/diff.css">' in html
    assert _get(fake_web, "/static/app.js", {"Cookie": "tether_1=" + fake_web.token}).status == 403


def test_other_local_cookies_do_not_hide_the_token_cookie(fake_web: WebServer) -> None:
    # Cookies are per host, not per port: other apps on 127.0.0.1 add theirs, often in
    # forms a strict RFC parser gives up on (JSON, spaces), and ahead of ours.
    cookie = f"tether_{urlsplit(fake_web.url).port}={fake_web.token}"
    for other in ('prefs={"theme": "dark", "size": 2}', "note=hello world", 'x="unclosed'):
        response = _get(fake_web, "/static/app.js", {"Cookie": f"{other}; {cookie}"})
        assert response.status == 200, other


def test_a_foreign_host_header_is_refused(fake_web: WebServer) -> None:
    # A DNS-rebinding page reaches loopback under its own name.
    port = urlsplit(fake_web.url).port
    response = _get(fake_web, f"/?token={fake_web.token}", {"Host": f"evil.example:{port}"})
    assert response.status == 403


def test_the_highlight_stylesheet_has_pygments_token_classes(fake_web: WebServer) -> None:
    parts = urlsplit(fake_web.url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    conn.request("GET", f"/highlight.css?token={fake_web.token}")
    css = conn.getresponse().read().decode()
    conn.close()
    assert ".hl .k {" in css and ".hl .s2 {" in css
    assert "prefers-color-scheme: dark" in css


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "http://127.0.0.1:1", "null", "https://127.0.0.1"]
)
def test_a_cross_origin_websocket_is_refused(fake_web: WebServer, origin: str) -> None:
    with pytest.raises(InvalidStatus) as refused:
        connect(fake_web.ws_url, origin=origin, open_timeout=10)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403


def test_a_websocket_without_origin_or_token_is_refused(fake_web: WebServer) -> None:
    with pytest.raises(InvalidStatus) as no_origin:
        connect(fake_web.ws_url, open_timeout=10)
    assert no_origin.value.response.status_code == 403
    without_token = fake_web.ws_url.split("?")[0]
    with pytest.raises(InvalidStatus) as no_token:
        connect(without_token, origin=fake_web.origin, open_timeout=10)  # type: ignore[arg-type]
    assert no_token.value.response.status_code == 403


def _recv(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of type `kind`, skipping others (bounded by the receive timeout)."""
    for _ in range(500):
        message: dict[str, Any] = json.loads(ws.recv(timeout=RECV_TIMEOUT_S))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def _send(ws: ClientConnection, **message: Any) -> None:
    ws.send(json.dumps(message))


def test_the_protocol_relays_a_prompt_with_enriched_cards(fake_web: WebServer) -> None:
    with connect(fake_web.ws_url, origin=fake_web.origin, open_timeout=10) as ws:  # type: ignore[arg-type]
        ready = _recv(ws, "ready")
        assert ready["agentName"] == "fake-agent"
        assert ready["canLoad"] is True and ready["canList"] is True

        _send(ws, type="newSession")
        opened = _recv(ws, "opened")
        session_id = opened["sessionId"]
        # An agent with only modes gets one menu of them, switched through `session/set_mode`.
        [mode] = opened["menus"]
        assert (mode["source"], mode["current"]) == ("modes", "ask")
        assert [c["value"] for c in mode["choices"]] == ["ask", "accept-edits", "auto"]

        _send(ws, type="prompt", sessionId=session_id, text="go")
        updates: list[dict[str, Any]] = []
        while True:
            message = json.loads(ws.recv(timeout=RECV_TIMEOUT_S))
            if message["type"] == "update":
                updates.append(message["update"])
            elif message["type"] == "permission":
                assert message["toolCall"]["toolCallId"] == "edit-1"
                assert [o["kind"] for o in message["options"]] == [
                    "allow_once",
                    "allow_always",
                    "reject_once",
                ]
                # The letters that answer while the question has focus come from the server.
                assert [o.get("key") for o in message["options"]] == ["y", "a", "n"]
                _send(ws, type="answer", requestId=message["requestId"], optionId="allow-once")
            elif message["type"] == "permissionClosed":
                assert message["optionId"] == "allow-once"
            elif message["type"] == "promptEnd":
                assert message["stopReason"] == "end_turn"
                break

    by_id = {(u.get("toolCallId"), u.get("status")): u for u in updates}
    read = by_id[("read-1", "completed")]["_meta"]["tether"]["view"]
    assert [line["number"] for line in read["lines"]] == [3, 4, 5, 6, 7]
    assert read["tokens"][0][0] == ["k", "def"]  # highlighted on the server
    assert "".join(t for _, t in read["tokens"][2]) == read["lines"][2]["text"]

    edit = by_id[("edit-1", "completed")]["_meta"]["tether"]["view"]
    rows = [(r["op"], r["old"], r["new"], r["text"]) for r in edit["diffs"][0]["hunks"][0]["lines"]]
    assert ("-", 2, None, "b = 2") in rows and ("+", None, 4, "d = 4") in rows

    plain = by_id[("plain-1", "completed")]
    assert "_meta" not in plain
    assert plain["content"][1]["hunks"][0]["lines"][1] == {
        "op": "-",
        "old": 2,
        "new": None,
        "text": "two",
    }

    # A card no client knows is dropped, so the page falls back to standard content.
    chart = by_id[("chart-1", "completed")]
    assert "view" not in chart["_meta"]["tether"]
    assert chart["content"][0]["content"]["text"] == "chart fallback text"


def test_bad_messages_get_an_error_and_the_socket_stays(fake_web: WebServer) -> None:
    with connect(fake_web.ws_url, origin=fake_web.origin, open_timeout=10) as ws:  # type: ignore[arg-type]
        _recv(ws, "ready")
        ws.send("not json")
        assert "bad message" in _recv(ws, "error")["message"]
        _send(ws, type="prompt", sessionId="x")
        assert "text" in _recv(ws, "error")["message"]
        _send(ws, type="loadSession", sessionId="does-not-exist")
        assert "opening the session failed" in _recv(ws, "error")["message"]
        _send(ws, type="listSessions")
        assert isinstance(_recv(ws, "sessions")["sessions"], list)


def test_a_binary_frame_gets_an_error_and_the_socket_stays(fake_web: WebServer) -> None:
    with connect(fake_web.ws_url, origin=fake_web.origin, open_timeout=10) as ws:  # type: ignore[arg-type]
        _recv(ws, "ready")
        ws.send(b"\x00\x01binary")
        assert "binary" in _recv(ws, "error")["message"]
        _send(ws, type="listSessions")
        assert isinstance(_recv(ws, "sessions")["sessions"], list)


def test_agents_are_capped_and_the_next_page_is_told_why(tmp_path: Path) -> None:
    agent = fake_agent_command(tmp_path / "store")
    with web_in_process(agent, _workspace(tmp_path), extra=["--max-agents", "2"]) as server:
        url, origin = server.ws_url, server.origin
        with ExitStack() as pages:
            first = pages.enter_context(connect(url, origin=origin, open_timeout=10))  # type: ignore[arg-type]
            second = pages.enter_context(connect(url, origin=origin, open_timeout=10))  # type: ignore[arg-type]
            _recv(first, "ready")
            _recv(second, "ready")
            with connect(url, origin=origin, open_timeout=10) as third:  # type: ignore[arg-type]
                message = _recv(third, "error")["message"]
                assert "at most 2 agents" in message and "--max-agents" in message
                with pytest.raises(ConnectionClosed) as closed:
                    third.recv(timeout=RECV_TIMEOUT_S)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
            first.close()
            # Once the first page's agent has stopped, a new page gets one (polled, bounded).
            deadline = time.monotonic() + RECV_TIMEOUT_S
            while True:
                with connect(url, origin=origin, open_timeout=10) as again:  # type: ignore[arg-type]
                    reply = json.loads(again.recv(timeout=RECV_TIMEOUT_S))
                if reply["type"] == "ready":
                    break
                assert reply["type"] == "error" and time.monotonic() < deadline, reply
                # Each refused page costs the server a socket: look again soon, not at once
                # (the agent that is stopping needs the CPU more than this loop does).
                time.sleep(POLL_S)


@pytest.mark.parametrize("value", ["0", "-3", "x"])
def test_max_agents_must_be_a_positive_number(tmp_path: Path, value: str) -> None:
    args = ["web", "--no-open", "--cwd", str(tmp_path), "--max-agents", value]
    done = tether_in_process(tmp_path / "home", *args)
    assert done.returncode == 2
    assert "--max-agents" in done.stderr


def test_an_agent_that_cannot_start_or_exits_is_reported(tmp_path: Path) -> None:
    missing = shlex.join([str(tmp_path / "no-such-agent")])
    quits = shlex.join([sys.executable, "-c", "import sys; sys.exit(7)"])
    expected = {missing: "cannot start the agent", quits: "the agent exited (code 7)"}
    for agent, message in expected.items():
        with web_in_process(agent, _workspace(tmp_path)) as server:
            ws_url, origin = server.ws_url, server.origin
            with connect(ws_url, origin=origin, open_timeout=10) as ws:  # type: ignore[arg-type]
                assert message in _recv(ws, "error")["message"]
                # The server closes the page's socket once its agent is gone.
                with pytest.raises(ConnectionClosed):
                    ws.recv(timeout=RECV_TIMEOUT_S)


_DEAF_AGENT = """
import json, os, sys, time
os.close(0)
# A request the client answers: the answer goes to a pipe nobody reads, which breaks it.
request = {"method": "fs/read_text_file", "params": {"sessionId": "s", "path": "/x"}}
print(json.dumps({"jsonrpc": "2.0", "id": 99, **request}), flush=True)
time.sleep(1)
sys.exit(7)
"""


def test_an_agent_that_exits_after_its_pipe_broke_is_reported_once(tmp_path: Path) -> None:
    # The broken pipe surfaces again as the connection closes: it is not a failed start.
    script = tmp_path / "deaf_agent.py"
    script.write_text(_DEAF_AGENT)
    agent = shlex.join([sys.executable, str(script)])
    with (
        web_in_process(agent, _workspace(tmp_path)) as server,
        connect(server.ws_url, origin=server.origin, open_timeout=10) as ws,  # type: ignore[arg-type]
    ):
        first = json.loads(ws.recv(timeout=RECV_TIMEOUT_S))
        assert first == {"type": "error", "message": "the agent exited (code 7)"}
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=RECV_TIMEOUT_S)


_ODD_AGENT = """
import json, sys
answers = {
    "initialize": {"protocolVersion": 1, "agentCapabilities": {}},
    "session/new": {"sessionId": "s1"},
    "session/prompt": {"stopReason": "not-a-stop-reason"},
}
for line in sys.stdin:
    request = json.loads(line)
    if "id" in request:
        result = answers.get(request["method"], {})
        print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}), flush=True)
"""


def test_an_answer_the_protocol_rejects_ends_the_prompt_with_an_error(tmp_path: Path) -> None:
    # Any ACP agent may be run; one that answers out of spec must not leave the page waiting.
    script = tmp_path / "odd_agent.py"
    script.write_text(_ODD_AGENT)
    agent = shlex.join([sys.executable, str(script)])
    with (
        web_in_process(agent, _workspace(tmp_path)) as server,
        connect(server.ws_url, origin=server.origin, open_timeout=10) as ws,  # type: ignore[arg-type]
    ):
        _recv(ws, "ready")
        _send(ws, type="newSession")
        assert _recv(ws, "opened")["sessionId"] == "s1"
        _send(ws, type="prompt", sessionId="s1", text="hi")
        # Said once, in the prompt's end (the page shows it with a Retry button).
        end = _recv(ws, "promptEnd")
        assert end["stopReason"] == "error"
        # The page says "The prompt failed:" itself; the error is the why, said once.
        assert end["error"].startswith("the agent's answer does not follow ACP (")
        assert "failed" not in end["error"]


def test_an_agents_error_reaches_the_page_with_its_message_and_data_once(tmp_path: Path) -> None:
    agent = shlex.join([sys.executable, str(REFUSING_AGENT)])
    with (
        web_in_process(agent, _workspace(tmp_path)) as server,
        connect(server.ws_url, origin=server.origin, open_timeout=10) as ws,  # type: ignore[arg-type]
    ):
        _recv(ws, "ready")
        _send(ws, type="newSession")
        assert _recv(ws, "opened")["sessionId"] == "s1"
        _send(ws, type="prompt", sessionId="s1", text="hi")
        end = _recv(ws, "promptEnd")
        assert end["stopReason"] == "error"
        assert end["error"] == (
            'Authentication required ({"authMethods": ["api-key"], "hint": "set GEMINI_API_KEY"})'
        )


def test_connections_it_accepts_send_small_writes_at_once() -> None:
    # Nagle's algorithm off (TCP_NODELAY) on every accepted connection: with it on, a
    # response's body waited for the ACK of its headers, 40 ms for each file on a kept-alive
    # connection. asyncio turns it off only for a socket that names its protocol TCP.
    async def main() -> int:
        accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def on_connection(
            _reader: asyncio.StreamReader, writer: asyncio.StreamWriter
        ) -> None:
            sock = writer.get_extra_info("socket")
            accepted.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        listening = bind("127.0.0.1", 0)
        server = await asyncio.start_server(on_connection, sock=listening)
        async with server:
            port = listening.getsockname()[1]
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            nodelay = await asyncio.wait_for(accepted, RECV_TIMEOUT_S)
            writer.close()
            return nodelay

    assert asyncio.run(main()) != 0


def _workspace(tmp_path: Path) -> Path:
    """A workspace inside the test's folder, so the server's home beside it is the test's own."""
    path = tmp_path / "workspace"
    path.mkdir(exist_ok=True)
    return path
