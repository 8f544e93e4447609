"""Random and hostile lines against a real `tether acp`: it never exits, stdout stays JSON-RPC.

After each example a probe request (an unknown method with a fresh id) must be answered:
that proves the agent is alive and has read past everything before it. Every line the agent
writes meanwhile must be one strict JSON-RPC 2.0 message (no NaN, an object with a valid
id, a result or an error with an integer code). The run is a fixed number of examples, so it
checks as much on a loaded machine as on an idle one.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.acp.wire import tether_command

EXAMPLES = int(os.environ.get("TETHER_FUZZ_EXAMPLES", "1000"))
"""How many examples the run feeds (about 10 s on an idle machine; more with the variable)."""
BATCH = 25
"""Examples per hypothesis run; runs repeat, each drawing new examples, until all are fed."""
ANSWER_S = 30.0
"""How long one probe may take to be answered before the agent counts as hung."""

METHODS = (
    "initialize",
    "session/new",
    "session/load",
    "session/list",
    "session/prompt",
    "session/cancel",
    "session/set_mode",
    "authenticate",
    "no/such/method",
)

_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
_json = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
_ids = st.none() | st.integers() | st.text(max_size=10) | _json
_session_ids: list[str] = ["none"]
"""Sessions the agent really has open (filled in once it answers `session/new`)."""
_params = _json | st.fixed_dictionaries(
    {},
    optional={
        "cwd": st.sampled_from(["/", "relative", "/no/such/dir", "/tmp\x00x"]) | st.text(),
        "sessionId": st.sampled_from(_session_ids) | st.text(max_size=20),
        "cursor": st.sampled_from(["0", "²", "9" * 5000, "-1", "١٢"]) | st.text(),
        "modeId": st.sampled_from(["ask", "auto", "nope"]),
        "prompt": _json,
        "mcpServers": _json,
        "protocolVersion": _json,
    },
)


@st.composite
def _messages(draw: st.DrawFn) -> bytes:
    message: dict[str, Any] = {"jsonrpc": draw(st.sampled_from(["2.0", "1.0", None]))}
    if draw(st.booleans()):
        message["id"] = draw(_ids)
    if draw(st.integers(0, 9)) > 0:
        message["method"] = draw(st.sampled_from(METHODS) | st.text(max_size=20) | _json)
    else:
        message[draw(st.sampled_from(["result", "error"]))] = draw(_json)
    if draw(st.booleans()):
        message["params"] = draw(_params)
    return json.dumps(message).encode()


def _deep(draw_open: bytes, depth: int) -> bytes:
    return draw_open * depth


_lines = st.one_of(
    _messages(),
    _json.map(lambda value: json.dumps(value).encode()),
    st.binary(max_size=200),
    st.text(max_size=200).map(lambda text: text.encode("utf-8", "surrogatepass")),
    st.builds(_deep, st.sampled_from([b"[", b'{"a":', b'{"params":']), st.integers(1, 200_000)),
    st.sampled_from(
        [b"NaN", b'{"jsonrpc":"2.0","id":NaN,"method":"x"}', b"1" * 5000, b'"\\ud800"', b"{}"]
    ),
).map(lambda line: line.replace(b"\n", b" "))


class _Agent:
    """A `tether acp` subprocess with a reader thread (so every read has a deadline)."""

    def __init__(self, home: Path) -> None:
        home.mkdir(parents=True, exist_ok=True)
        self.stderr_path = home / "agent.stderr"
        script = home / "script.json"
        script.write_text('{"turns": []}')
        with self.stderr_path.open("wb") as err:
            self.process = subprocess.Popen(
                [*tether_command(), "acp", "--model", f"script:{script}"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                env={**os.environ, "TETHER_HOME": str(home)},
                cwd=home,
            )
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.written = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(b"")

    def write(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()
        self.written += data.count(b"\n")

    def answer(self, probe_id: str) -> None:
        """Read until the probe's answer; every line read must be JSON-RPC."""
        deadline = time.monotonic() + ANSWER_S
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            assert line, f"the agent closed stdout; stderr:\n{self.stderr()}"
            message = _json_rpc(line)
            if message.get("id") == probe_id and "method" not in message:
                assert message["error"]["code"] == -32601
                return
            if "method" in message and "id" in message:  # a request of the agent's: refuse it
                error = {"code": -32601, "message": "not in this test"}
                reply = {"jsonrpc": "2.0", "id": message["id"], "error": error}
                self.write(json.dumps(reply).encode())
                self.write(b"\n")
        raise AssertionError(f"no answer to {probe_id} in {ANSWER_S}s; stderr:\n{self.stderr()}")

    def session_id(self, request_id: str) -> str:
        """The id `session/new` answered with."""
        line = self.lines.get(timeout=ANSWER_S)
        message = _json_rpc(line)
        assert message["id"] == request_id, message
        return str(message["result"]["sessionId"])

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")[-4000:]


def _reject_constant(name: str) -> Any:
    raise AssertionError(f"the agent wrote {name}, which is not JSON")


def _json_rpc(line: bytes) -> dict[str, Any]:
    """The message a stdout line carries, asserting it is one strict JSON-RPC 2.0 message."""
    message = json.loads(line, parse_constant=_reject_constant)
    assert isinstance(message, dict), line
    assert message.get("jsonrpc") == "2.0", line
    if "method" in message:
        assert isinstance(message["method"], str), line
        return message
    assert "id" in message, line
    assert message["id"] is None or isinstance(message["id"], int | str), line
    assert ("result" in message) != ("error" in message), line
    if "error" in message:
        error = message["error"]
        assert isinstance(error["code"], int) and isinstance(error["message"], str), line
    return message


def test_hostile_lines_never_stop_the_agent(tmp_path: Path) -> None:
    agent = _Agent(tmp_path / "home")
    new = {"cwd": str(tmp_path), "mcpServers": []}
    request = {"jsonrpc": "2.0", "id": "new", "method": "session/new", "params": new}
    agent.write(json.dumps(request).encode())
    agent.write(b"\n")
    _session_ids[:] = [agent.session_id("new")]
    started = time.monotonic()
    examples = 0

    @settings(
        max_examples=BATCH,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(_lines, min_size=1, max_size=5))
    def feed(lines: list[bytes]) -> None:
        nonlocal examples
        examples += 1
        agent.write(b"".join(line + b"\n" for line in lines))
        probe = f"probe-{examples}"
        agent.write(json.dumps({"jsonrpc": "2.0", "id": probe, "method": "fuzz/probe"}).encode())
        agent.write(b"\n")
        agent.answer(probe)
        assert agent.process.poll() is None

    try:
        for _ in range(10_000):
            if examples >= EXAMPLES:
                break
            feed()  # each batch draws new examples (no database, a fresh seed)
        assert agent.process.poll() is None, agent.stderr()
        assert examples >= EXAMPLES
        took = time.monotonic() - started
        print(f"fuzz: {examples} examples, {agent.written} lines in {took:.1f}s")
    finally:
        assert agent.process.stdin is not None
        agent.process.stdin.close()
        try:
            status = agent.process.wait(timeout=ANSWER_S)
        except subprocess.TimeoutExpired:
            agent.process.kill()
            agent.process.wait()
            raise
        finally:
            agent.reader.join(ANSWER_S)  # it ends at end of output, once the process has gone
            assert agent.process.stdout is not None
            agent.process.stdout.close()
    assert status == 0, agent.stderr()
