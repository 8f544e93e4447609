""" "Rewind to here" in real Chromium against `tether acp`: the files, code only, then the
conversation (a fork that opens)."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.web.browser import open_page, send_prompt, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER, WebServer

WRITE = {"id": "w", "name": "write", "arguments": {"path": "notes.md", "content": "n\n"}}
SCRIPT = {"turns": [{"toolCalls": [WRITE]}, {"text": "Wrote the notes."}]}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the agent works."""
    return tmp_path_factory.mktemp("rewind") / "ws"


@pytest.fixture(scope="module")
def web(workspace: Path) -> Iterator[WebServer]:
    """`tether web` with `tether acp` in auto mode on a scripted model."""
    workspace.mkdir()
    script = workspace.parent / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}", "--mode", "auto"])
    env = {"TETHER_HOME": str(workspace.parent / "home")}
    with web_in_process(agent, workspace, env=env) as server:
        yield server


def test_rewind_to_here_code_only_then_the_conversation(
    browser: Browser, web: WebServer, workspace: Path
) -> None:
    with open_page(browser, web.url) as page:
        page.click("#new-session")
        page.wait_for_selector("#send:not([disabled])")
        send_prompt(page, "write the notes")
        page.wait_for_selector(".msg-agent:has-text('Wrote the notes.')")
        wait_idle(page)
        assert (workspace / "notes.md").exists()
        original = page.evaluate("() => location.hash")

        page.click(".rewind-row[data-prompt='1'] .rewind-here")
        panel = page.locator(".rewind-panel")
        assert "Rewind to before prompt 1" in panel.inner_text()
        assert panel.locator(".rewind-file").all_inner_texts() == ["notes.md"]
        page.click(".rewind-code")
        page.wait_for_selector(".notice:has-text('rewind: restored 1 file to before prompt 1')")
        wait_idle(page)
        assert not (workspace / "notes.md").exists()

        # The conversation only: a fork before prompt 1 opens, empty; the original stays.
        page.click(".rewind-row[data-prompt='1'] .rewind-here")
        page.click(".rewind-conversation")
        page.wait_for_function(
            "was => location.hash.startsWith('#session=') && location.hash !== was", arg=original
        )
        page.wait_for_selector("#send:not([disabled])")
        assert page.locator(".msg-user").count() == 0
        sessions = list((workspace.parent / "home" / "sessions").glob("*.jsonl"))
        headers = [json.loads(p.read_text().splitlines()[0]) for p in sessions]
        [fork] = [h for h in headers if "forkedFrom" in h]
        assert fork["forkedFrom"] == {"id": original.split("=", 1)[-1], "seq": 0}
