"""`tether acp`'s start: a plain `initialize` answered before the SDK loads, as the SDK would.

The answer given early (`tether.acp.handover`) is held equal, byte for byte, to the one
the SDK's own path gives when the same request comes later on the same connection, for
several client versions and capability sets; and anything else first (a bad line, another
method, params the SDK refuses) is answered as it is when it comes later.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import acp
import pytest

from tests.acp.support import script_spec
from tests.acp.wire import tether_command
from tether.acp.agent import TetherAgent
from tether.acp.capabilities import PROTOCOL_VERSION
from tether.acp.server import serve
from tether.session import SessionStore
from tether.surface.launch import Launch

READ_LIMIT = 4096
"""The in-memory reader's line limit (the real one, 50 MB, is too large to cross here)."""


class _Recording(TetherAgent):
    """The agent, keeping what each `initialize` it served was called with."""

    def __init__(self, home: Path) -> None:
        super().__init__(store=SessionStore(home), launch=Launch(default_model="script:none"))
        self.calls: list[dict[str, Any]] = []

    async def initialize(
        self, protocol_version: int, client_capabilities: Any = None, **kwargs: Any
    ) -> Any:
        """Keep the call, then answer as tether does."""
        self.calls.append(
            {"protocol_version": protocol_version, "capabilities": client_capabilities, **kwargs}
        )
        return await super().initialize(protocol_version, client_capabilities, **kwargs)


class _Collected:
    """A sink that keeps every line written."""

    def __init__(self) -> None:
        self.data = b""

    async def write(self, data: bytes) -> None:
        """Keep `data`."""
        self.data += data

    def close(self) -> None:
        """Nothing to release."""

    @property
    def lines(self) -> list[bytes]:
        """The lines written, without their newlines."""
        return self.data.splitlines()


def _line(message: Any) -> bytes:
    return json.dumps(message).encode() + b"\n"


def _initialize(params: Any, request_id: Any = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params}


async def _served(home: Path, data: bytes) -> tuple[_Recording, list[bytes]]:
    """Serve `data` as a client's whole input; the agent and every line it wrote."""
    reader = asyncio.StreamReader(limit=READ_LIMIT)
    reader.feed_data(data)
    reader.feed_eof()
    sink = _Collected()
    agent = _Recording(home)
    await asyncio.wait_for(serve(agent, reader, sink), 60)
    return agent, sink.lines


FULL_CAPABILITIES = {
    "fs": {"readTextFile": True, "writeTextFile": True},
    "terminal": True,
    "auth": {"terminal": True},
    "positionEncodings": ["utf-16", "utf-8"],
    "_meta": {"zed": {"x": 1}},
}

PLAIN_INITIALIZES = {
    "version 1, nothing else": {"protocolVersion": 1},
    "version 0": {"protocolVersion": 0, "clientCapabilities": {}},
    "a newer version": {"protocolVersion": 2, "clientCapabilities": {"terminal": True}},
    "the largest version": {"protocolVersion": 65535},
    "every capability and client info": {
        "protocolVersion": 1,
        "clientCapabilities": FULL_CAPABILITIES,
        "clientInfo": {"name": "zed", "title": "Zed", "version": "0.200.0"},
    },
    "malformed capabilities and info (salvaged)": {
        "protocolVersion": 1,
        "clientCapabilities": {"fs": "yes", "terminal": "maybe", "positionEncodings": [1, "utf-8"]},
        "clientInfo": {"name": 3},
    },
    "capabilities not an object": {"protocolVersion": 1, "clientCapabilities": [1, 2]},
    "request _meta and unknown keys": {
        "protocolVersion": 1,
        "_meta": {"traceparent": "00-1-2-01"},
        "future": {"field": True},
    },
}


@pytest.mark.parametrize("params", PLAIN_INITIALIZES.values(), ids=PLAIN_INITIALIZES.keys())
async def test_the_early_answer_is_the_sdks_own(tmp_path: Path, params: dict[str, Any]) -> None:
    # The same request twice: the first is answered early, the second by the SDK's path.
    agent, lines = await _served(tmp_path, _line(_initialize(params)) * 2)
    assert len(lines) == 2
    assert lines[0] == lines[1]
    answer = json.loads(lines[0])
    assert answer["result"]["protocolVersion"] == PROTOCOL_VERSION
    assert answer["result"]["agentInfo"]["name"] == "tether"
    # The early-answered request still ran through the SDK's path to the agent, with what the
    # SDK made of its params: the agent is as the SDK alone would have left it.
    assert len(agent.calls) == 2
    assert agent.calls[0] == agent.calls[1]


@pytest.mark.parametrize("request_id", ["a string", 0, None, 2**53])
async def test_the_early_answer_keeps_any_request_id(tmp_path: Path, request_id: Any) -> None:
    hello = _line(_initialize({"protocolVersion": 1}, request_id))
    _, lines = await _served(tmp_path, hello * 2)
    assert lines[0] == lines[1]
    assert json.loads(lines[0])["id"] == request_id


def test_tethers_protocol_version_is_the_sdks() -> None:
    assert PROTOCOL_VERSION == acp.PROTOCOL_VERSION


FIRST_LINES = {
    "not JSON": b"this is not json\n",
    "not UTF-8": b"\xff\xfe garbage\n",
    "a batch": _line([_initialize({"protocolVersion": 1})]),
    "a number": b"42\n",
    "longer than the read limit": _line(_initialize({"protocolVersion": 1, "x": "y" * 5000})),
    "method not a string": _line({"jsonrpc": "2.0", "id": 1, "method": 42}),
    "another method": _line({"jsonrpc": "2.0", "id": 1, "method": "session/list", "params": {}}),
    "an unknown method": _line({"jsonrpc": "2.0", "id": 1, "method": "no/such", "params": {}}),
    "no params": _line({"jsonrpc": "2.0", "id": 1, "method": "initialize"}),
    "params a list": _line(_initialize([1])),
    "no version": _line(_initialize({"clientCapabilities": {}})),
    "a negative version": _line(_initialize({"protocolVersion": -1})),
    "a version too large": _line(_initialize({"protocolVersion": 65536})),
    "a version as a string": _line(_initialize({"protocolVersion": "1"})),
    "a date as the version": _line(_initialize({"protocolVersion": "2024-11-05"})),
    "a fractional version": _line(_initialize({"protocolVersion": 1.5})),
    "a boolean version": _line(_initialize({"protocolVersion": True})),
    "_meta naming a parameter": _line(
        _initialize({"protocolVersion": 1, "_meta": {"protocol_version": 7}})
    ),
}


@pytest.mark.parametrize("first", FIRST_LINES.values(), ids=FIRST_LINES.keys())
async def test_anything_else_first_is_answered_as_it_is_later(tmp_path: Path, first: bytes) -> None:
    hello = _line(_initialize({"protocolVersion": 1}, request_id=99))
    _, alone = await _served(tmp_path / "first", first + hello)
    _, after = await _served(tmp_path / "later", hello + first)
    # What the line got when it came first is what it gets from the SDK's connection.
    assert alone[:-1] == after[1:]
    assert alone[-1] == after[0]
    assert json.loads(alone[-1])["result"]["protocolVersion"] == PROTOCOL_VERSION


async def test_an_initialize_notification_gets_no_answer(tmp_path: Path) -> None:
    notification = {"jsonrpc": "2.0", "method": "initialize", "params": {"protocolVersion": 1}}
    agent, lines = await _served(tmp_path, _line(notification))
    assert lines == []
    assert agent.calls == []


async def test_no_input_loads_nothing_and_ends(tmp_path: Path) -> None:
    agent, lines = await _served(tmp_path, b"\n  \n")
    assert lines == []
    assert agent.calls == []


_DRIVER = """
import os, sys
out = sys.argv[1]
seen = []

class Watch:
    # Notes how much the agent had written when the SDK began to load.
    def find_spec(self, name, path=None, target=None):
        if name == "acp" and not seen:
            seen.append(os.path.getsize(out))
        return None

sys.meta_path.insert(0, Watch())
from tether.cli import main
status = main(["acp", *sys.argv[3:]])
with open(sys.argv[2], "w") as note:
    note.write(str(seen[0]) if seen else "never")
sys.exit(status)
"""


def test_initialize_is_answered_before_the_sdk_loads(tmp_path: Path) -> None:
    requests = tmp_path / "requests.jsonl"
    requests.write_bytes(_line(_initialize({"protocolVersion": 1, "clientCapabilities": {}})))
    out, note = tmp_path / "out.jsonl", tmp_path / "written-when-the-sdk-loaded"
    env = {"TETHER_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    with requests.open("rb") as stdin, out.open("wb") as stdout:
        done = subprocess.run(
            [sys.executable, "-c", _DRIVER, str(out), str(note), "--model", script_spec(tmp_path)],
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
            env=env,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr.decode()
    [answer] = out.read_bytes().splitlines()
    assert json.loads(answer)["result"]["agentInfo"]["name"] == "tether"
    # The whole answer was out before the SDK's first module was looked for.
    assert note.read_text() == str(len(answer) + 1)


def test_the_command_answers_initialize_the_same(tmp_path: Path) -> None:
    requests = _line(_initialize({"protocolVersion": 1})) * 2
    env = {"TETHER_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [*tether_command(), "acp", "--model", script_spec(tmp_path)],
        input=requests,
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    early, sdk = done.stdout.splitlines()
    assert early == sdk
    assert b"differs" not in done.stderr
