"""`tether web` stops on the first Ctrl+C, however soon after its URL it comes."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from tests.web.served import TETHER

STOP_TIMEOUT_S = 20

IGNORING_SIGINT = ["sh", "-c", 'trap "" INT; exec "$0" "$@"']
"""Starts a command with SIGINT ignored, as a non-interactive shell starts a background job
(`cmd &` in a script, and so CI's runs): Python then installs no Ctrl+C handler of its own."""


def _full_pipe() -> tuple[int, int]:
    """A pipe whose buffer is full: the next write to it blocks until the other end reads."""
    read, write = os.pipe()
    os.set_blocking(write, False)
    try:
        while True:
            os.write(write, b"x" * 65536)
    except BlockingIOError:
        pass
    os.set_blocking(write, True)
    return read, write


def _drain(fd: int) -> None:
    with os.fdopen(fd, "rb") as pipe:
        while pipe.read(65536):
            pass


def _stopped_right_after_the_url(tmp_path: Path, prefix: list[str], sig: int) -> int | None:
    """Start `tether web`, send `sig` the moment its URL shows; its exit code, or `None` if
    it had not stopped after `STOP_TIMEOUT_S`."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    # The server's stderr is a full pipe, so it waits, URL printed, on its next line (the
    # one naming the workspace): the signal lands before its event loop runs, every time.
    stderr_read, stderr_write = _full_pipe()
    process = subprocess.Popen(
        [*prefix, *TETHER, "web", "--no-open", "--port", "0", "--cwd", str(workspace)],
        stdout=subprocess.PIPE,
        stderr=stderr_write,
        text=True,
        env={**os.environ, "TETHER_HOME": str(tmp_path / "home")},
    )
    os.close(stderr_write)
    drainer = threading.Thread(target=_drain, args=(stderr_read,), daemon=True)
    try:
        assert process.stdout is not None
        url = process.stdout.readline()
        assert url.startswith("http://127.0.0.1:"), url
        process.send_signal(sig)
        drainer.start()
        return process.wait(STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if drainer.ident is None:
            os.close(stderr_read)
        drainer.join(5)
        if process.stdout is not None:
            process.stdout.close()


@pytest.mark.parametrize("launched", ["in a terminal", "with SIGINT ignored"])
def test_a_ctrl_c_right_after_the_url_stops_the_server(tmp_path: Path, launched: str) -> None:
    prefix = IGNORING_SIGINT if launched == "with SIGINT ignored" else []
    status = _stopped_right_after_the_url(tmp_path, prefix, signal.SIGINT)
    assert status is not None, f"tether web ({launched}) did not stop on Ctrl+C"
    assert status == 0


def test_a_sigterm_right_after_the_url_ends_it_by_that_signal(tmp_path: Path) -> None:
    assert _stopped_right_after_the_url(tmp_path, [], signal.SIGTERM) == -signal.SIGTERM
