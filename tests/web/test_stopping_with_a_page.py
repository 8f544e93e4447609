"""Ctrl+C at the terminal of `tether web` while a page has a command running: the server and
its agent stop quietly (the whole process group gets the signal, as a terminal sends it)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

from playwright.sync_api import Browser

from tests.web.browser import WAIT_MS, send_prompt
from tests.web.served import TETHER

STOP_TIMEOUT_S = 30
SLEEPY = {
    "turns": [
        {"toolCalls": [{"id": "s1", "name": "bash", "arguments": {"command": "sleep 30"}}]},
        {"text": "Slept."},
    ]
}


def test_ctrl_c_with_a_page_and_a_running_command_prints_no_traceback(
    browser: Browser, tmp_path: Path
) -> None:
    (tmp_path / "ws").mkdir()
    script = tmp_path / "script.json"
    script.write_text(json.dumps(SLEEPY))
    model = ["--model", f"script:{script}", "--mode", "auto", "--sandbox", "off"]
    stderr = tmp_path / "stderr.txt"
    with stderr.open("w") as err:
        server = subprocess.Popen(
            [*TETHER, "web", "--no-open", "--port", "0", "--cwd", str(tmp_path / "ws"), *model],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env={**os.environ, "TETHER_HOME": str(tmp_path / "home")},
            start_new_session=True,  # its own process group, as a terminal's job is
        )
        try:
            assert server.stdout is not None
            url = server.stdout.readline().strip()
            # Its own tab (not open_page): the page's reconnecting to a stopped server is
            # expected here, and says so on the console.
            context = browser.new_context()
            try:
                page = context.new_page()
                page.set_default_timeout(WAIT_MS)
                page.goto(url)
                page.wait_for_selector("#conn[data-state=ready]", state="attached")
                send_prompt(page, "sleep")
                page.wait_for_selector("section.tool[data-tool-call-id=s1] .pill-run")
                os.killpg(server.pid, signal.SIGINT)
                assert server.wait(STOP_TIMEOUT_S) == 0
                page.wait_for_selector("#conn[data-state=closed]", state="attached")
            finally:
                context.close()
        finally:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
            if server.stdout is not None:
                server.stdout.close()
    said = stderr.read_text()
    assert "Traceback" not in said, said
    assert "could not send a session update" not in said, said
