"""`tether run` closes its model's HTTP connections before it returns: each line runs on an
event loop of its own, and a pool left open when its loop ends could never be closed (its
socket would be found unclosed by the collector, a `ResourceWarning`). Run in process against
a loopback server speaking OpenAI's chat completions, which counts the connections held."""

from __future__ import annotations

import gc
import time
import warnings
from pathlib import Path

import pytest

from tests.models.sse_server import Received, Reply, SSEServer, served_in_thread, sse_reply
from tether.cli import main


def _completion(received: Received) -> Reply:
    """A chat completion, `[DONE]` and all: read to its end, its connection goes back to the
    pool, kept alive."""
    return sse_reply("openai_text.sse")


def _answering(server: SSEServer) -> None:
    server.answer = _completion


def test_a_run_ends_with_no_connection_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    monkeypatch.chdir(workspace)
    monkeypatch.setenv("TETHER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("TETHER_MODEL", raising=False)
    with served_in_thread(_answering) as server:
        url = f"{server.url}/v1"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ResourceWarning)
            status = main(
                ["run", "--model", "openai:llama-4", "--base-url", url, "--api-key", "k", "hi"]
            )
            # What the run left behind is collected now, not at some later test's expense.
            gc.collect()
        assert status == 0, capsys.readouterr().err
        assert [r.path for r in server.requests] == ["/v1/chat/completions"]
        deadline = time.monotonic() + 10
        while server.open_connections and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.open_connections == 0
    unclosed = [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
    assert unclosed == []
