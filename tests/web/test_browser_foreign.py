"""The page in real Chromium against the small test agent: fallbacks, escaping, cancel.

`tests/web/fake_agent.py` stands for any ACP agent: with `--no-views` it sends no tether
cards at all, only ACP's standard content, and the page must still show everything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.web.browser import open_page, send_prompt, shot
from tests.web.in_process import web_in_process
from tests.web.served import WebServer, fake_agent_command


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The module's folder: both servers' workspaces, stores and data directory."""
    return tmp_path_factory.mktemp("foreign")


@pytest.fixture(scope="module")
def foreign_web(root: Path) -> Iterator[WebServer]:
    """`tether web --agent` running an agent that sends no tether views."""
    (root / "foreign-ws").mkdir()
    agent = fake_agent_command(root / "foreign-store", views=False)
    with web_in_process(agent, root / "foreign-ws") as server:
        yield server


@pytest.fixture(scope="module")
def fake_web(root: Path) -> Iterator[WebServer]:
    """`tether web --agent` running the test agent with tether views."""
    (root / "ws").mkdir()
    with web_in_process(fake_agent_command(root / "store"), root / "ws") as server:
        yield server


def _run_scenario(page: Page, *, before_answer: Callable[[Page], None] | None = None) -> None:
    send_prompt(page, "go <script>alert(1)</script>")
    allow = page.locator(".permission button[data-kind=allow_once]")
    allow.wait_for()
    if before_answer is not None:
        before_answer(page)
    allow.click()
    page.wait_for_selector(".msg-agent:has-text('All done.')")


def _proposed_change_is_drawn(page: Page) -> None:
    """Asked as opencode asks (a path and a unified diff in the raw input), the question
    shows the change, numbered as the file is, before anyone answers."""
    edit = page.locator("[data-tool-call-id=edit-1]")
    assert edit.locator(".row-del .text").all_inner_texts() == ["b = 2"]
    assert edit.locator(".row-add .text").all_inner_texts() == ["b = 20", "d = 4"]
    assert edit.locator(".row-add .ln-new").all_inner_texts() == ["2", "4"]
    assert edit.locator(".file-diff").get_attribute("data-path") == "/work/demo/calc.py"


def test_a_foreign_agent_without_views_falls_back_to_standard_content(
    browser: Browser, foreign_web: WebServer
) -> None:
    with open_page(browser, foreign_web.url) as page:
        _run_scenario(page, before_answer=_proposed_change_is_drawn)
        tools = page.locator("section.tool")
        assert tools.count() == 5
        # No tether cards at all: every block renders ACP's own content.
        assert page.locator("section.tool .card-fallback").count() == 5
        assert page.locator("[data-card=read], [data-card=terminal]").count() == 0
        # It has no `_tether/permissions` report, so the page does not offer one.
        assert page.locator("#permissions-button").is_hidden()

        read = page.locator("[data-tool-call-id=read-1]")
        assert "Showing lines 3-7 of 10" in read.inner_text()
        terminal = page.locator("[data-tool-call-id=bash-1]")
        assert "exit code 2" in terminal.inner_text()
        assert terminal.locator(".tool-status").inner_text().lower() == "failed"

        # ACP diff items still render as a line diff with numbers.
        edit = page.locator("[data-tool-call-id=edit-1]")
        assert edit.locator(".row-del .text").all_inner_texts() == ["b = 2"]
        assert edit.locator(".row-add .text").all_inner_texts() == ["b = 20", "d = 4"]
        assert edit.locator(".row-add .ln-new").all_inner_texts() == ["2", "4"]
        shot(page, "[data-tool-call-id=plain-1]", "fallback-plain")
        shot(page, "[data-tool-call-id=edit-1]", "fallback-diff")


def test_a_todo_tools_list_fills_the_plan_panel_live_and_on_reload(
    browser: Browser, foreign_web: WebServer
) -> None:
    with open_page(browser, foreign_web.url) as page:
        send_prompt(page, "plan the work: todos")
        page.wait_for_selector("[data-tool-call-id=todo-1][data-status=completed]")
        page.wait_for_selector("#send:not([disabled])")
        _plan_reads_one_of_three(page)
        page.reload()
        page.wait_for_selector("[data-tool-call-id=todo-1][data-status=completed]")
        _plan_reads_one_of_three(page)


def _plan_reads_one_of_three(page: Page) -> None:
    """The panel shows opencode's list (sent only as the call's input, no `plan` update)."""
    assert page.locator("#plan").is_visible()
    assert page.inner_text("#plan .plan-count") == "1/3"
    assert page.inner_text("#plan .plan-current") == "Fix the bug"
    page.click("#plan .plan-strip")
    assert page.locator("#plan .plan-text").all_inner_texts()[1] == "Fix the bug"
    assert page.locator("#plan .plan-priority").count() == 2


ANNOUNCED = """
window.__announced = [];
new MutationObserver(() => {
  window.__announced.push(document.getElementById("announcer").textContent);
}).observe(document.getElementById("announcer"),
           {subtree: true, childList: true, characterData: true});
"""


def test_opening_a_session_announces_it_once_not_its_old_messages(
    browser: Browser, foreign_web: WebServer
) -> None:
    with open_page(browser, foreign_web.url) as page:
        _run_scenario(page)
        page.wait_for_selector("#send:not([disabled])")
        # Live, the answer is read out as it completes.
        assert page.inner_text("#announcer") == "All done."
        session = page.evaluate("() => location.hash")
    script = "document.addEventListener('DOMContentLoaded', () => {" + ANNOUNCED + "});"
    with open_page(browser, f"{foreign_web.url}{session}", init_script=script) as page:
        page.wait_for_selector(".msg-agent:has-text('All done.')")
        page.wait_for_selector("#send:not([disabled])")
        page.wait_for_function("() => window.__announced.length > 0")
        announced = page.evaluate("() => window.__announced")
        # Once, by its title when the list has come by then: never its old messages.
        assert len(announced) == 1 and announced[0] in (
            "Opened “go <script>alert(1)</script>”.",
            "Opened the session.",
        ), announced


def test_agent_text_is_never_markup(browser: Browser, foreign_web: WebServer) -> None:
    with open_page(browser, foreign_web.url) as page:
        _run_scenario(page)
        plain = page.locator("[data-tool-call-id=plain-1]")
        assert "<b>bold?</b>" in plain.inner_text()
        assert plain.locator("b").count() == 0
        user = page.locator(".msg-user").first
        assert user.inner_text() == "go <script>alert(1)</script>"
        assert page.locator("#transcript script").count() == 0


def test_an_unknown_card_falls_back_to_its_content(browser: Browser, fake_web: WebServer) -> None:
    with open_page(browser, fake_web.url) as page:
        _run_scenario(page)
        chart = page.locator("[data-tool-call-id=chart-1]")
        assert chart.locator(".card-fallback").count() == 1
        assert chart.locator(".generic-text").inner_text() == "chart fallback text"
        # The known cards of the same prompt did render as cards.
        assert page.locator("[data-tool-call-id=read-1] [data-card=read]").count() == 1


def test_cancel_stops_a_running_prompt(browser: Browser, fake_web: WebServer) -> None:
    with open_page(browser, fake_web.url) as page:
        send_prompt(page, "wait")
        cancel = page.locator("#cancel")
        cancel.wait_for(state="visible")
        # "Working…" says for how long, so a long wait does not look like a hang.
        page.wait_for_function(
            "() => /^Working… [2-9] s$/.test(document.getElementById('working').textContent)"
        )
        cancel.click()
        page.wait_for_selector(".notice:has-text('Cancelled.')")
        assert page.locator("#cancel").is_hidden()
        assert page.locator("#send").is_enabled()


def test_shift_enter_makes_a_newline_and_enter_sends(browser: Browser, fake_web: WebServer) -> None:
    with open_page(browser, fake_web.url) as page:
        page.click("#prompt")
        page.keyboard.type("line one")
        page.keyboard.press("Shift+Enter")
        page.keyboard.type("wait")
        assert page.input_value("#prompt") == "line one\nwait"
        page.keyboard.press("Enter")
        page.wait_for_selector(".msg-user")
        assert page.locator(".msg-user").inner_text() == "line one\nwait"
        assert page.input_value("#prompt") == ""
        page.click("#cancel")
        page.wait_for_selector(".notice:has-text('Cancelled.')")


def test_rejecting_a_permission_fails_the_tool_call(browser: Browser, fake_web: WebServer) -> None:
    with open_page(browser, fake_web.url) as page:
        send_prompt(page, "go")
        block = page.locator("[data-tool-call-id=edit-1]")
        block.locator(".permission button[data-kind=reject_once]").click()
        # Said once, by the call's header; the agent's own account of it is shown.
        block.locator(".tool-status", has_text="rejected").wait_for()
        page.wait_for_selector(".msg-agent:has-text('All done.')")
        assert block.get_attribute("data-status") == "rejected"
        assert block.locator(".perm-decision").count() == 0
        assert (
            block.locator(".generic-text.is-error").inner_text() == "The user rejected this edit."
        )
        assert block.locator(".card-diff").count() == 0


ANSI_CASES = {
    # input: (text the page shows, [(span classes, span text), ...])
    "plain <b>&amp;</b>": ("plain <b>&amp;</b>", []),
    "\x1b[1;31mbold red\x1b[0m after": ("bold red after", [("ansi-red ansi-bold", "bold red")]),
    "\x1b[92mbright\x1b[39m\x1b[44mon blue\x1b[m": (
        "brighton blue",
        [("ansi-bright-green", "bright"), ("ansi-bg-blue", "on blue")],
    ),
    "\x1b[38;5;9mnamed\x1b[38;5;196mcube\x1b[38;2;1;2;3mtrue": (
        "namedcubetrue",
        [("ansi-bright-red", "named"), ("", "cube"), ("", "true")],
    ),
    "\x1b]0;window title\x07\x1b[2Kcleared\x1b[1A": ("cleared", []),
    "10%\r50%\r100%\ndone": ("100%\ndone", []),
}


def test_ansi_sgr_becomes_spans_and_other_escapes_vanish(
    browser: Browser, fake_web: WebServer
) -> None:
    with open_page(browser, fake_web.url) as page:
        for raw, (shown, spans) in ANSI_CASES.items():
            result = page.evaluate(
                """async (raw) => {
                    const { ansiToFragment } = await import("/static/ansi.js");
                    const box = document.createElement("pre");
                    box.append(ansiToFragment(raw));
                    const spans = [...box.querySelectorAll("span")].map(
                        (s) => [s.className, s.textContent, s.style.color]);
                    const elements = box.querySelectorAll("*").length;
                    return { text: box.textContent, spans, elements };
                }""",
                raw,
            )
            assert result["text"] == shown, raw
            assert [(c, t) for c, t, _ in result["spans"]] == spans, raw
            assert result["elements"] == len(spans), raw
        exact = page.evaluate(
            """async () => {
                const { ansiToFragment } = await import("/static/ansi.js");
                const box = document.createElement("pre");
                box.append(ansiToFragment("\\x1b[38;5;196mA\\x1b[38;2;1;2;3mB"));
                return [...box.querySelectorAll("span")].map((s) => s.style.color);
            }"""
        )
        assert exact == ["rgb(255, 0, 0)", "rgb(1, 2, 3)"]
