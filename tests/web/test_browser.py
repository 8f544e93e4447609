"""The page in real Chromium against `tether acp` with a scripted model.

One server and one browser for the module. The scripted prompt reads a window of a file,
runs a command (asks: mode ask), edits the file (asks) and writes a new one (asks); the
page must show each card, answer each permission, and show the same cards again when the
stored session is opened from the list (ACP `session/load`).
"""

from __future__ import annotations

import http.client
import json
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.web.browser import (
    ARTIFACTS,
    open_page,
    send_prompt,
    shoot_both,
    shot,
    titled_session,
    wait_idle,
)
from tests.web.in_process import web_in_process
from tests.web.served import TETHER, WebServer

DEMO = '''"""Demo module."""
import os

def greet(name: str) -> str:
    """Say hello."""
    return f"hello {name}"  # greeting


class Box:
    size = 3


print(greet("x"))
'''

UNTIL_GO = "i=0; until [ -e go ] || [ $i -ge 600 ]; do i=$((i+1)); sleep 0.05; done"
"""Waits (30 s at most) until the test has seen the command run and made `go` in the
workspace: from then on every run of it goes straight on."""

SCRIPT = {
    "turns": [
        {
            "text": "Let me look at the file.",
            "toolCalls": [
                {
                    "id": "c1",
                    "name": "read",
                    "arguments": {"path": "demo.py", "offset": 3, "limit": 5},
                },
                {"id": "c0", "name": "read", "arguments": {"path": "empty.txt"}},
            ],
        },
        {
            "toolCalls": [
                {
                    "id": "c2",
                    "name": "bash",
                    "arguments": {
                        "command": "printf 'building\\n\\033[32mok\\033[0m step one\\n'; "
                        f"{UNTIL_GO}; printf '\\033[31mFAIL\\033[0m step two\\n'; exit 3",
                        "description": "Run the build",
                    },
                }
            ]
        },
        {
            "toolCalls": [
                {
                    "id": "c3",
                    "name": "edit",
                    "arguments": {
                        "path": "demo.py",
                        "old_string": '    return f"hello {name}"  # greeting',
                        "new_string": '    greeting = f"hello {name}"\n    return greeting',
                    },
                }
            ]
        },
        {
            "toolCalls": [
                {
                    "id": "c4",
                    "name": "write",
                    "arguments": {"path": "notes/todo.md", "content": "# TODO\n\n- ship it\n"},
                }
            ]
        },
        {"text": "All done: the greeting is refactored."},
    ]
}
PROMPT = "refactor greet"
MODE = "#settings select[data-menu-id=mode]"
SANDBOX = "#settings select[data-menu-id=sandbox]"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace with one Python file."""
    root = tmp_path_factory.mktemp("scripted")
    (root / "ws").mkdir()
    (root / "ws" / "demo.py").write_text(DEMO)
    (root / "ws" / "empty.txt").write_text("")
    return root / "ws"


@pytest.fixture(scope="module")
def web(workspace: Path) -> Iterator[WebServer]:
    """`tether web` running `tether acp --model script:FILE` with sessions in a temp home."""
    script = workspace.parent / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}"])
    home = workspace.parent / "home"
    with web_in_process(agent, workspace, env={"TETHER_HOME": str(home)}) as server:
        yield server


@dataclass(frozen=True)
class Scripted:
    """What the live run showed: each tool block's text, by tool call id."""

    session_title: str
    cards: dict[str, str]


def _cards(page: Page) -> dict[str, str]:
    return {
        block.get_attribute("data-tool-call-id") or "": block.locator(".card").first.inner_text()
        for block in page.locator("section.tool").all()
    }


def _allow(page: Page, tool_call_id: str) -> None:
    block = page.locator(f"section.tool[data-tool-call-id={tool_call_id}]")
    button = block.locator(".permission button[data-kind=allow_once]")
    button.click()
    block.locator(".permission.answered").wait_for()


@pytest.fixture(scope="module")
def scripted(browser: Browser, web: WebServer, workspace: Path) -> Scripted:
    """Run the scripted prompt live, answering each permission, and check every card."""
    with open_page(browser, web.url) as page:
        send_prompt(page, PROMPT)
        _check_read(page)
        _allow(page, "c2")
        _check_terminal(page, workspace)
        _check_edit(page, workspace)
        _check_write(page)
        page.wait_for_selector(".msg-agent:has-text('All done: the greeting is refactored.')")
        wait_idle(page)
        title = titled_session(page)
        cards = _cards(page)
    # The page is closed, so its agent has let go of the session for the next ones.
    return Scripted(session_title=title, cards=cards)


def _check_read(page: Page) -> None:
    card = page.locator("section.tool[data-tool-call-id=c1] [data-card=read]")
    card.wait_for()
    # The gutter is its own column, numbered from the view's lines.
    assert card.locator(".gutter .num").all_inner_texts() == ["3", "4", "5", "6", "7"]
    assert card.locator(".gutter").get_attribute("aria-hidden") == "true"
    assert card.locator(".gutter").evaluate("g => getComputedStyle(g).userSelect") == "none"
    code_lines = card.locator(".code-text .line").all_inner_texts()
    assert code_lines[1] == "def greet(name: str) -> str:"
    # Pygments tokens from the server, styled by the highlight stylesheet.
    assert card.locator(".hl .k", has_text="def").count() == 1
    assert card.locator(".hl .sd").count() == 1
    assert card.locator(".hl .sa, .hl .s2").count() >= 1
    colour = card.locator(".hl .k").first.evaluate("k => getComputedStyle(k).color")
    assert colour != card.locator(".hl .line").first.evaluate("l => getComputedStyle(l).color")
    assert card.locator(".card-head .path").inner_text().endswith("demo.py")
    assert card.locator(".card-head .range").inner_text() == "lines 3–7 of 13"
    assert "use offset=8 to continue" in card.locator(".card-foot").inner_text()
    shot(page, "section.tool[data-tool-call-id=c1]", "card-read")
    empty = page.locator("section.tool[data-tool-call-id=c0] [data-card=read]")
    empty.wait_for()
    assert empty.locator(".card-head .range").inner_text() == "empty file"
    assert empty.locator(".card-note").inner_text() == "The file is empty."
    assert empty.locator(".gutter, .card-foot").count() == 0
    shot(page, "section.tool[data-tool-call-id=c0]", "card-read-empty")


def _check_terminal(page: Page, workspace: Path) -> None:
    block = page.locator("section.tool[data-tool-call-id=c2]")
    # Live: the output so far shows while the command still runs.
    block.locator(".pill-run").wait_for()
    block.locator(".term-out .ansi-green").wait_for()
    assert block.locator(".pill-run").inner_text() == "running"
    assert "FAIL" not in block.locator(".term-out").inner_text()
    shot(page, "section.tool[data-tool-call-id=c2]", "card-terminal-running")
    (workspace / "go").touch()
    pill = block.locator("[data-card=terminal] .pill-bad")
    pill.wait_for()
    assert pill.inner_text() == "exit 3"
    assert "Run the build" in block.inner_text()
    assert block.locator(".term-cmd").inner_text().startswith("$ printf")
    out = block.locator(".term-out")
    assert out.locator(".ansi-green").inner_text() == "ok"
    assert out.locator(".ansi-red").inner_text() == "FAIL"
    assert "\x1b" not in out.inner_text() and "[32m" not in out.inner_text()
    shot(page, "section.tool[data-tool-call-id=c2]", "card-terminal")


def _check_edit(page: Page, workspace: Path) -> None:
    block = page.locator("section.tool[data-tool-call-id=c3]")
    block.locator(".permission button").first.wait_for()
    # Before the click: the proposed change, as its applied card will show it (numbered, in
    # context), what "Always allow" covers, and the file untouched.
    proposed = block.locator(".card-diff.proposed")
    assert proposed.locator(".row-del .ln-old").all_inner_texts() == ["6"]
    assert proposed.locator(".row-ctx").count() == 6
    shown = proposed.locator(".diff-table").inner_text()
    detail = block.locator(".perm-detail")
    assert detail.inner_text() == "“Always allow” covers edits of demo.py for this session"
    always = block.locator(".permission button[data-option-id=allow_always]")
    assert always.get_attribute("aria-describedby") == detail.get_attribute("id")
    assert 'return f"hello {name}"' in (workspace / "demo.py").read_text()
    shoot_both(page, "card-permission", "section.tool[data-tool-call-id=c3]")
    _allow(page, "c3")
    applied = block.locator(".card-diff.applied")
    applied.wait_for()
    assert applied.locator(".diff-table").inner_text() == shown
    assert block.get_attribute("data-status") == "completed"
    assert "greeting = f" in (workspace / "demo.py").read_text()
    removed = applied.locator(".row-del")
    assert removed.locator(".text").all_inner_texts() == ['    return f"hello {name}"  # greeting']
    assert removed.locator(".ln-old").all_inner_texts() == ["6"]
    added = applied.locator(".row-add")
    assert added.locator(".ln-new").all_inner_texts() == ["6", "7"]
    assert added.locator(".text").all_inner_texts() == [
        '    greeting = f"hello {name}"',
        "    return greeting",
    ]
    assert applied.locator(".stat").inner_text().split() == ["+2", "−1"]
    assert block.locator(".perm-decision").inner_text() == "Allowed once"
    shot(page, "section.tool[data-tool-call-id=c3]", "card-diff")


def _check_write(page: Page) -> None:
    _allow(page, "c4")
    # The last question answered: back to the prompt box.
    assert page.evaluate("() => document.activeElement.id") == "prompt"
    block = page.locator("section.tool[data-tool-call-id=c4]")
    applied = block.locator(".card-diff.applied")
    applied.wait_for()
    assert applied.locator(".badge-new").inner_text() == "new file"
    assert applied.locator(".row-add .ln-new").all_inner_texts() == ["1", "2", "3"]
    assert applied.locator(".row-del").count() == 0


def test_live_cards_render(scripted: Scripted) -> None:
    assert scripted.session_title == PROMPT
    assert sorted(scripted.cards) == ["c0", "c1", "c2", "c3", "c4"]


def test_opening_a_stored_session_shows_the_same_cards(
    browser: Browser, web: WebServer, scripted: Scripted
) -> None:
    with open_page(browser, web.url) as page:
        entry = page.locator("#sessions .session", has_text=scripted.session_title)
        entry.click()
        page.wait_for_selector(".msg-agent:has-text('All done')")
        page.wait_for_selector("#prompt:not([disabled])")
        assert page.locator(".msg-user").inner_text() == PROMPT
        assert _cards(page) == scripted.cards
        # Replayed permissions are history, not questions: no buttons to click.
        assert page.locator(".permission button").count() == 0
        assert page.locator(MODE).input_value() == "ask"
        page.locator("#scroller").evaluate("s => s.scrollTop = 0")
        page.screenshot(path=str(ARTIFACTS / "page-loaded.png"))


def test_auto_mode_runs_without_asking(
    browser: Browser, web: WebServer, scripted: Scripted
) -> None:
    with open_page(browser, web.url) as page:
        page.click("#new-session")
        page.wait_for_selector(MODE)
        # tether's own settings, from its config options: mode, model, thinking, sandbox.
        menus = page.locator("#settings select").evaluate_all("s => s.map(m => m.dataset.menuId)")
        assert menus == ["mode", "model", "thinking", "sandbox"]
        assert page.locator(f"{MODE} option").all_inner_texts() == [
            "Ask",
            "Accept edits",
            "Auto",
            "Plan",
        ]
        page.select_option(MODE, "auto")
        send_prompt(page, "again")
        page.wait_for_selector(".msg-agent:has-text('All done')")
        wait_idle(page)
        assert page.locator(".permission").count() == 0
        assert page.locator("section.tool[data-tool-call-id=c2] .pill").inner_text() == "exit 3"


def test_the_sandbox_menu_confines_the_next_command(
    browser: Browser, web: WebServer, scripted: Scripted
) -> None:
    with open_page(browser, web.url) as page:
        page.click("#new-session")
        page.wait_for_selector(SANDBOX)
        assert page.locator(f"{SANDBOX} option").all_inner_texts() == [
            "Workspace write",
            "Read-only",
            "Off",
        ]
        assert page.locator(SANDBOX).input_value() == "workspace-write"
        page.select_option(SANDBOX, "read-only")
        page.select_option(MODE, "auto")
        send_prompt(page, "once more")
        page.wait_for_selector(".msg-agent:has-text('All done')")
        wait_idle(page)
        # The card says how the command ran, as the agent confined it after the switch.
        card = page.locator("section.tool[data-tool-call-id=c2] .card-terminal")
        assert card.locator(".term-sandbox").inner_text() == "sandbox: read-only, no network"


def test_the_page_needs_the_token(web: WebServer) -> None:
    parts = urlsplit(web.url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    conn.request("GET", "/")
    assert conn.getresponse().status == 403
    conn.close()


def test_a_cross_origin_websocket_is_refused(web: WebServer) -> None:
    with pytest.raises(InvalidStatus) as refused:
        connect(web.ws_url, origin="http://evil.example", open_timeout=10)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
