"""The page in real Chromium against `tether acp`: Markdown, faithful replay, status and errors,
the phone drawer (its sessions renamed, searched and deleted), collapsible cards, and
reconnecting to a restarted server.

One browser for the module; each scenario runs its own `tether web` with a scripted model.
"""

from __future__ import annotations

import json
import shlex
import socket
import stat
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from tests.web.browser import (
    ARTIFACTS,
    WAIT_MS,
    assert_accessible,
    open_page,
    send_prompt,
    shoot_both,
    wait_idle,
)
from tests.web.in_process import web_in_process
from tests.web.served import TETHER

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

HOSTILE = (
    "## Plan\n\nThe **fix** is small. <img src=x onerror=alert(1)> and "
    "[click me](javascript:alert(1)) and [docs](https://example.org/docs).\n\n"
    "| step | state |\n|---|---|\n| read | done |\n\n"
    "- [x] read the file\n- [ ] run the tests\n\n"
    "```python\ndef greet(name):\n    return f'hi {name}'\n```\n"
)

SCRIPT: dict[str, Any] = {
    "turns": [
        {
            "text": HOSTILE,
            "toolCalls": [
                {
                    "id": "b1",
                    "name": "bash",
                    "arguments": {"command": "echo checking; exit 3", "description": "Check"},
                }
            ],
        },
        {"text": "The check **failed** with exit 3."},
        {"error": "the API key was rejected"},
        {
            "text": "Trying an edit.",
            "toolCalls": [
                {
                    "id": "e1",
                    "name": "write",
                    "arguments": {"path": "new.txt", "content": "never\n"},
                }
            ],
        },
        {"text": "Left it alone."},
    ]
}


def _web(root: Path, script: dict[str, Any], *extra: str) -> Any:
    (root / "ws").mkdir(exist_ok=True)  # a test may have filled it already
    path = root / "script.json"
    path.write_text(json.dumps(script))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{path}"])
    return web_in_process(agent, root / "ws", env={"TETHER_HOME": str(root / "home")}, extra=extra)


def _page(browser: Browser, url: str, viewport: dict[str, int]) -> Any:
    return open_page(browser, url, viewport=viewport)


def _shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"{name}.png", full_page=False)


def _transcript(page: Page) -> str:
    return str(page.locator("#transcript").inner_text())


def _run_the_script(page: Page) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    send_prompt(page, "check it")
    block = page.locator("section.tool[data-tool-call-id=b1]")
    block.locator(".permission button[data-kind=allow_once]").click()
    page.wait_for_selector(".msg-agent:has-text('with exit 3.')")
    wait_idle(page)
    # A command that exits non-zero is a failed card, in red, not a green "done".
    status = block.locator(".tool-status")
    assert status.inner_text().lower() == "failed"
    assert "status-failed" in (status.get_attribute("class") or "")
    send_prompt(page, "try again later")
    page.locator(".notice-error").wait_for()
    wait_idle(page)
    # The model's error is said once, with a Retry button that sends the prompt again.
    assert _transcript(page).count("the API key was rejected") == 1
    page.locator(".notice-error .retry").click()
    page.locator("section.tool[data-tool-call-id=e1] .permission button").first.wait_for()
    page.locator("section.tool[data-tool-call-id=e1] .permission button[data-kind^=reject]").click()
    page.wait_for_selector(".msg-agent:has-text('Left it alone.')")
    wait_idle(page)
    assert dialogs == []


def _check_markdown(page: Page) -> None:
    message = page.locator(".msg-agent").first
    message.locator("h2", has_text="Plan").wait_for()
    assert message.locator("strong", has_text="fix").count() == 1
    assert message.locator("table td", has_text="done").count() == 1
    assert message.locator(".task-mark[aria-label=done]").count() == 1
    assert message.locator("pre.md-code .k", has_text="def").count() == 1
    assert message.locator(".code-tools button.copy").count() == 1
    # Raw HTML stays text, a javascript: link is no link, a https one opens safely.
    assert message.locator("img").count() == 0
    assert "<img src=x onerror=alert(1)>" in message.inner_text()
    assert message.locator("a[href^='javascript']").count() == 0
    link = message.locator("a", has_text="docs")
    assert link.get_attribute("href") == "https://example.org/docs"
    assert link.get_attribute("rel") == "noopener noreferrer"
    assert page.evaluate("() => document.querySelectorAll('[onerror]').length") == 0


def test_markdown_status_errors_and_a_faithful_replay(browser: Browser, tmp_path: Path) -> None:
    with _web(tmp_path, SCRIPT) as web:
        with _page(browser, web.url, DESKTOP) as page:
            _run_the_script(page)
            _check_markdown(page)
            # A rejected write keeps its proposed change, and says "rejected" once.
            rejected = page.locator("section.tool[data-tool-call-id=e1]")
            assert rejected.locator(".tool-status").inner_text().lower() == "rejected"
            assert rejected.locator(".perm-decision").count() == 0
            assert rejected.locator(".card-diff.proposed .row-add .text").all_inner_texts() == [
                "never"
            ]
            assert rejected.inner_text().lower().count("rejected") == 1
            assert not (tmp_path / "ws" / "new.txt").exists()
            # Cards fold away from their header and come back.
            toggle = page.locator("section.tool[data-tool-call-id=b1] .tool-toggle")
            body = page.locator("section.tool[data-tool-call-id=b1] .tool-body")
            toggle.click()
            assert toggle.get_attribute("aria-expanded") == "false"
            assert body.is_hidden()
            toggle.click()
            assert body.is_visible()
            _shot(page, "desktop-live")
            live = _transcript(page)
            session = page.evaluate("() => location.hash")

        with _page(browser, web.url, DESKTOP) as page:
            page.locator("#sessions .session").first.click()
            page.wait_for_selector(".msg-agent:has-text('Left it alone.')")
            page.wait_for_selector(".msg-agent h2")
            # Opened once the replay is over (the address is set then, and the box enabled):
            # the last replayed message is on the page a message earlier.
            page.wait_for_selector("#prompt:not([disabled])")
            assert page.evaluate("() => location.hash") == session
            replayed = _transcript(page)
            _shot(page, "desktop-replayed")
    # Errors, permission decisions and the prompts' boundaries all come back.
    assert replayed == live
    assert "Allowed once" in replayed and "rejected" in replayed.lower()
    assert "try again later\n" in replayed


def test_the_phone_layout_has_a_drawer(browser: Browser, tmp_path: Path) -> None:
    long_title = "Please look at " + "the very long module name " * 6
    script = {"turns": [{"error": "x" * 30 + "/a/very/long/path/without/spaces" * 6}]}
    with _web(tmp_path, script) as web, _page(browser, web.url, PHONE) as page:
        assert page.locator("#sidebar").is_hidden()
        menu = page.locator("#menu")
        assert menu.is_visible() and menu.get_attribute("aria-label") == "Sessions menu"
        # The empty page points at ☰, where the sessions are on a phone.
        hint = page.locator("#empty .narrow-only")
        assert hint.is_visible() and "☰" in hint.inner_text()
        assert page.locator("#empty .wide-only").is_hidden()
        send_prompt(page, long_title)
        page.locator(".notice-error").wait_for()
        wait_idle(page)
        # An error box wraps inside the viewport.
        box = page.locator(".notice-error").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"]
        _shot(page, "phone-transcript")
        menu.click()
        assert menu.get_attribute("aria-expanded") == "true"
        page.locator("#sidebar").wait_for(state="visible")
        assert page.locator("#new-session").is_visible()
        assert page.locator("#conn-text").inner_text() == "Connected"
        name = page.locator("#sessions .session-name").first
        name.wait_for()
        # A long title ends in an ellipsis inside the drawer.
        assert name.evaluate("n => n.scrollWidth > n.clientWidth")
        assert name.evaluate("n => getComputedStyle(n).textOverflow") == "ellipsis"
        drawer = page.locator("#sidebar").bounding_box()
        assert drawer is not None and drawer["x"] + drawer["width"] <= PHONE["width"]
        _shot(page, "phone-drawer")
        page.keyboard.press("Escape")
        page.locator("#sidebar").wait_for(state="hidden")
        menu.click()
        page.locator("#backdrop").click(position={"x": 370, "y": 400})
        page.locator("#sidebar").wait_for(state="hidden")
        # The drawer's Rename and Delete go with it.
        assert page.locator("#sessions .session-action").first.is_hidden()
        menu.click()
        _rename_search_and_delete(page, tmp_path / "home" / "sessions")


def _rename_search_and_delete(page: Page, logs: Path) -> None:
    """In the drawer: the open session renamed in place, the list searched, then the session
    deleted (asked once more; Esc keeps it) and the page left with none open."""
    row = page.locator("#sessions .session-row").first
    row.locator(".session-rename").click()
    title = page.locator("#sessions .session-title-input")
    # The row gives its field focus in the next animation frame (session_row.js), as it is drawn.
    page.wait_for_function(
        "() => document.activeElement === document.querySelector('#sessions .session-title-input')"
    )
    assert title.input_value().startswith("Please look at")
    assert_accessible(page)
    title.press("Escape")  # kept as it was, and focus back on the session
    page.wait_for_function("() => document.activeElement.classList.contains('session')")
    row.locator(".session-rename").click()
    title.fill("  Renamed   on a phone ")
    title.press("Enter")
    page.locator("#sessions .session-name:has-text('Renamed on a phone')").wait_for()
    # The session is open here: the header follows at once, and a reload still says so.
    page.wait_for_function(
        "() => document.querySelector('#session-title').textContent === 'Renamed on a phone'"
    )
    shoot_both(page, "session-list", "#sidebar")
    search = page.locator("#session-search")
    search.fill("nothing like it")
    page.locator("#sessions .sessions-empty:has-text('No session matches.')").wait_for()
    search.fill("renamed")
    page.locator("#sessions .session-row").first.wait_for()
    search.fill("")
    row.locator(".session-delete").click()
    confirm = page.locator("#sessions .confirming")
    assert "Delete “Renamed on a phone” and its log?" in confirm.inner_text()
    assert_accessible(page)
    # The question has focus on Keep, the safe answer; Esc keeps the session too.
    page.wait_for_function("() => document.activeElement.classList.contains('session-keep')")
    page.keyboard.press("Escape")
    page.locator("#sessions .session-name:has-text('Renamed on a phone')").wait_for()
    assert [p.name for p in logs.glob("*.jsonl")] != []
    row.locator(".session-delete").click()
    shoot_both(page, "session-delete", "#sidebar")
    confirm.locator(".session-confirm-delete").click()
    page.locator("#sessions .sessions-empty:has-text('No sessions yet.')").wait_for()
    assert list(logs.glob("*.jsonl")) == []
    # The page shows no session, as when it first opened, and can start a new one.
    page.wait_for_function(
        "() => document.querySelector('#session-title').textContent === 'No session open'"
    )
    assert page.evaluate("() => location.hash") == ""
    assert page.locator("#empty").count() == 1
    assert page.locator(".msg-user").count() == 0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_the_page_reconnects_to_a_restarted_server(browser: Browser, tmp_path: Path) -> None:
    script = {
        "turns": [
            {"toolCalls": [{"id": "w", "name": "read", "arguments": {"path": "wide.txt"}}]},
            {"text": "Hello **there**."},
        ]
    }
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "wide.txt").write_text("".join(f"{n:04} {'.' * 200}\n" for n in range(400)))
    port = _free_port()
    with _web(tmp_path, script, f"--port={port}") as web:
        token_file = tmp_path / "home" / "web-token"
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        assert token_file.read_text().strip() == web.token
        context = browser.new_context(viewport=DESKTOP)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(web.url)
        page.wait_for_selector("#conn[data-state=ready]", state="attached")
        send_prompt(page, "say hello")
        page.wait_for_selector(".msg-agent strong:has-text('there')")
        wait_idle(page)
        # A read the 50 KB cap cut short says so in its footer; a long one scrolls on its own.
        foot = page.locator("section.tool[data-tool-call-id=w] .card-foot")
        assert foot.inner_text().startswith("Cut at the 50 KB output cap · ")
        assert page.locator("section.tool[data-tool-call-id=w] .code.tall").count() == 1
    try:
        page.wait_for_selector("#conn[data-state=closed]", state="attached")
        assert "retrying" in page.locator("#conn-text").inner_text().lower()
        with _web(tmp_path, script, f"--port={port}") as again:
            # The same token: the open page is let in again and reopens its session.
            assert again.token == web.token
            page.wait_for_selector("#conn[data-state=ready]", state="attached", timeout=30_000)
            page.wait_for_selector(".msg-user:has-text('say hello')")
            page.wait_for_selector(".msg-agent strong:has-text('there')")
            _shot(page, "reconnected")
        with _web(tmp_path, script, f"--port={port}", "--new-token") as rotated:
            assert rotated.token != web.token
            assert token_file.read_text().strip() == rotated.token
            assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    finally:
        context.close()


EMPTY_LIST_TEXTS = """
window.__emptyTexts = [];
new MutationObserver(() => {
  for (const node of document.querySelectorAll("#sessions .sessions-empty")) {
    if (!window.__emptyTexts.includes(node.textContent)) window.__emptyTexts.push(node.textContent);
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""
"""An init script that keeps every text the session list showed in place of sessions."""

LONG_TITLE = "Refactor the payment module so that retries back off exponentially"


def _title_width(page: Page, size: dict[str, int]) -> int:
    page.set_viewport_size(size)
    page.wait_for_function(f"() => document.documentElement.clientWidth === {size['width']}")
    width: int = page.locator("#session-title").evaluate("t => t.clientWidth")
    return width


def test_the_title_keeps_its_room_and_the_list_and_placeholder_say_what_is_true(
    browser: Browser, tmp_path: Path
) -> None:
    script = {"turns": [{"text": "Done.", "usage": {"inputTokens": 9000, "outputTokens": 100}}]}
    with _web(tmp_path, script) as web:
        with _page(browser, web.url, DESKTOP) as page:
            assert "Shift+Enter for a new line" in (
                page.get_attribute("#prompt", "placeholder") or ""
            )
            send_prompt(page, LONG_TITLE)
            page.wait_for_selector(".msg-agent:has-text('Done.')")
            wait_idle(page)
            page.wait_for_function(
                "() => document.getElementById('session-title').textContent.startsWith('Refactor')"
            )
            page.locator("#budget").wait_for()
            # Beside model, mode and sandbox menus, Permissions and the gauge, the title keeps
            # room for a sentence at 1280 px (it had 183 px) and for words at 320 (135 px).
            assert _title_width(page, DESKTOP) >= 280
            assert _title_width(page, {"width": 320, "height": 640}) >= 110
            assert page.locator("#permissions-button").evaluate("b => b.clientWidth") <= 32
            # Its sign on screen, its name for screen readers.
            assert page.get_by_role("button", name="Permissions").is_visible()
            session = page.evaluate("() => location.hash")
        with open_page(
            browser, f"{web.url}{session}", viewport=PHONE, init_script=EMPTY_LIST_TEXTS
        ) as phone:
            phone.wait_for_selector(".msg-agent:has-text('Done.')")
            # A phone's keyboard has no Shift+Enter: the placeholder names none.
            placeholder = phone.get_attribute("#prompt", "placeholder") or ""
            assert placeholder.startswith("Ask tether to") and "Shift" not in placeholder
            # Until the list comes, it is loading; it never claims there are no sessions.
            phone.locator("#sessions .session").first.wait_for(state="attached")
            seen = phone.evaluate("() => window.__emptyTexts")
            assert "No sessions yet." not in seen and "Loading sessions…" in seen, seen
