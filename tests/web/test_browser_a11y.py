"""Accessibility of the page in real Chromium: axe-core (npm) finds no WCAG 2.2 AA violation
in either theme, and the keyboard works (y/a/n on a permission, Esc cancels, `#session=`
opens).

Every page the browser tests open is checked by axe-core as the test leaves it
(`tests.web.browser.open_page`); this module checks that the check itself runs the rules that
matter, on a session with every kind of step.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.web.browser import (
    ARTIFACTS,
    NARROWEST,
    PHONE,
    assert_accessible,
    axe_report,
    open_page,
    send_prompt,
    wait_idle,
)
from tests.web.in_process import web_in_process
from tests.web.served import TETHER, WebServer

SCRIPT = {
    "turns": [
        {
            "text": "## Checking\n\nRunning the **slow** check; `code` too.",
            "toolCalls": [
                {"id": "s1", "name": "bash", "arguments": {"command": "sleep 30"}},
            ],
        },
        {
            "text": "Reading it.",
            "toolCalls": [{"id": "r1", "name": "read", "arguments": {"path": "a.py"}}],
        },
        {
            "text": "It defines `f`:\n\n```python\ndef f():  # "
            + "a comment long enough to scroll sideways on a phone " * 3
            + "\n```"
        },
    ]
}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """`tether web` on `tether acp` with the script above (mode ask)."""
    root = tmp_path_factory.mktemp("a11y")
    (root / "ws").mkdir()
    (root / "ws" / "a.py").write_text("def f():\n    return 1\n")
    script = root / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}"])
    with web_in_process(agent, root / "ws", env={"TETHER_HOME": str(root / "home")}) as server:
        yield server


def _violations(page: Page) -> list[dict[str, Any]]:
    report = axe_report(page)
    # axe really ran, contrast included (it is judged on the rendered colours).
    checked = {rule["id"] for rule in report["passes"]} | {v["id"] for v in report["violations"]}
    wanted = {"color-contrast", "label", "button-name", "aria-required-attr"}
    assert wanted <= checked, sorted(checked)
    return [{"id": v["id"], "impact": v["impact"]} for v in report["violations"]]


def _session_with_everything(page: Page) -> None:
    """A prompt whose question waits while another session is open, answered by keyboard (y)
    once back, cancelled by Esc, then one that reads a file."""
    send_prompt(page, "check it")
    box = page.locator("section.tool[data-tool-call-id=s1] .permission")
    box.locator("button").first.wait_for()
    assert_accessible(page)  # the question, as it is asked
    first = page.evaluate("() => location.hash")
    # Another session may be opened while the prompt waits; its question waits too.
    page.locator("#new-session").click()
    page.wait_for_function("h => location.hash !== h && location.hash.startsWith('#s')", arg=first)
    page.wait_for_selector("#send:not([disabled])")
    assert page.locator(".permission").count() == 0
    page.locator(f"#sessions .session[data-session-id='{first.split('=', 1)[1]}']").click()
    page.wait_for_function("h => location.hash === h", arg=first)
    box.locator("button").first.wait_for()
    assert page.locator("#cancel").is_visible()  # still running, as it was left
    page.wait_for_function("() => document.activeElement.closest('.permission') !== null")
    page.keyboard.press("y")
    page.locator("section.tool[data-tool-call-id=s1] .perm-decision").wait_for()
    assert page.locator("section.tool[data-tool-call-id=s1] .perm-decision").inner_text() == (
        "Allowed once"
    )
    page.locator("section.tool[data-tool-call-id=s1] .pill-run").wait_for()
    page.keyboard.press("Escape")
    page.locator(".notice:has-text('Cancelled.')").wait_for()
    wait_idle(page)
    send_prompt(page, "read a.py")
    page.wait_for_selector(".msg-agent:has-text('It defines')")
    page.locator("section.tool[data-tool-call-id=r1] [data-card=read]").wait_for()
    wait_idle(page)


def test_no_violation_in_either_theme_and_the_address_opens_a_session(
    browser: Browser, web: WebServer
) -> None:
    """One scenario (the module's tests would otherwise depend on each other's sessions):
    live in the light theme, the address switching sessions, then reopened in the dark one."""
    # axe sets inline styles while it measures; the page's policy would refuse them, loudly.
    with open_page(browser, web.url, color_scheme="light", bypass_csp=True) as page:
        _session_with_everything(page)
        wanted = page.locator("#session-id").inner_text()
        _labelled_and_accessible(page, "light")
        # `#session=ID` in the address opens that session.
        page.locator("#new-session").click()
        page.wait_for_function(
            "wanted => location.hash.startsWith('#session=') && !location.hash.endsWith(wanted)",
            arg=wanted,
        )
        assert page.locator(".msg-agent").count() == 0
        page.evaluate("wanted => { location.hash = `session=${wanted}`; }", wanted)
        page.wait_for_selector(".msg-agent:has-text('It defines')")
        assert page.locator("#session-id").inner_text() == wanted
    with open_page(
        browser, f"{web.url}#session={wanted}", color_scheme="dark", bypass_csp=True
    ) as page:
        page.wait_for_selector(".msg-agent:has-text('It defines')")
        _labelled_and_accessible(page, "dark")
        # Each session is named by the shortest id prefix (8 at least) no other id starts
        # with; ids made within a minute share their first 8 characters.
        rows = page.locator("#sessions .session").evaluate_all(
            "bs => bs.map(b => [b.dataset.sessionId,"
            " b.querySelector('.session-meta').textContent.split(' · ').pop()])"
        )
        ids = [i for i, _ in rows]
        assert len(rows) >= 3
        for session_id, prefix in rows:
            assert len(prefix) >= 8 and session_id.startswith(prefix)
            assert [i for i in ids if i.startswith(prefix)] == [session_id]
            assert len(prefix) == 8 or any(
                i != session_id and i.startswith(prefix[:-1]) for i in ids
            )
        for size in (PHONE, NARROWEST):
            page.set_viewport_size(size)
            _small_screen_is_accessible(page, size["width"])


TOUCH_TARGETS = (
    "#menu", "#more", "#refresh", "#permissions-button", "#send",
    ".rewind-here", ".tool-toggle", ".code-tools .copy",
)  # fmt: skip
"""Controls a finger presses: each at least 24 px each way (WCAG 2.2's 2.5.8)."""


def _small_screen_is_accessible(page: Page, width: int) -> None:
    """At a phone's width: no violation (a code block that scrolls sideways is reachable by
    keyboard), every touch target 24 px or more, nothing wider than the screen."""
    page.wait_for_function(f"() => document.documentElement.clientWidth === {width}")
    wide = page.locator(".msg-agent pre.md-code").first
    assert wide.evaluate("e => e.scrollWidth > e.clientWidth")
    assert wide.get_attribute("tabindex") == "0" and wide.get_attribute("aria-label")
    small = page.evaluate(
        """selectors => selectors.flatMap(s => [...document.querySelectorAll(s)]
            .filter(e => e.offsetParent !== null)
            .map(e => [s, e.getBoundingClientRect()])
            .filter(([, r]) => r.width < 24 || r.height < 24)
            .map(([s, r]) => `${s} ${Math.round(r.width)}x${Math.round(r.height)}`))""",
        list(TOUCH_TARGETS),
    )
    assert small == [], (width, small)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert _violations(page) == [], width


def _labelled_and_accessible(page: Page, scheme: str) -> None:
    # Labels and text where there were only icons and colours.
    assert page.locator("#prompt").get_attribute("aria-label") == "Prompt"
    assert page.locator("#refresh").get_attribute("aria-label")
    assert page.locator("#conn-text").inner_text() == "Connected"
    # Only new things are announced, not the whole transcript on every change.
    assert page.locator("#transcript").get_attribute("aria-live") is None
    assert page.locator("#announcer").get_attribute("aria-live") == "polite"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"a11y-{scheme}.png")
    assert _violations(page) == []
