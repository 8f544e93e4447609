"""Terminal output in real Chromium against `tether acp`: a running command's box follows its
newest lines (not once the user scrolls up; again at the bottom), a 30,000-line result
opens at its end with its count, drawing the rest only when asked, in slices, and a card's
notes (here: a `.git` the command created) show under the output.

The longest task the page runs while the 30,000-line card arrives, and while it draws all of
it, is measured with the `longtask` PerformanceObserver and kept under test-artifacts/web/.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page

from tests.web.browser import (
    DESKTOP,
    LONG_TASKS,
    longest_task_since,
    open_page,
    record,
    send_prompt,
    shoot_both,
    wait_idle,
)
from tests.web.in_process import web_in_process
from tests.web.served import TETHER, WebServer

TICKS = 'i=0; until [ -e stop ]; do i=$((i+1)); echo "tick $i"; sleep 0.05; done; echo stopped'
SCRIPT = {
    "turns": [
        {"toolCalls": [{"id": "t1", "name": "bash", "arguments": {"command": TICKS}}]},
        {"toolCalls": [{"id": "t2", "name": "bash", "arguments": {"command": "seq 1 30000"}}]},
        # The card's notes: what people should know beyond the output.
        {"toolCalls": [{"id": "t3", "name": "bash", "arguments": {"command": "git init -q"}}]},
        {"text": "Counted."},
    ]
}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty workspace; the first command runs until `stop` appears in it."""
    root = tmp_path_factory.mktemp("output")
    (root / "ws").mkdir()
    return root / "ws"


@pytest.fixture(scope="module")
def web(workspace: Path) -> Iterator[WebServer]:
    """`tether web` on `tether acp --mode auto` with the script above."""
    script = workspace.parent / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--mode", "auto", "--model", f"script:{script}"])
    home = {"TETHER_HOME": str(workspace.parent / "home")}
    with web_in_process(agent, workspace, env=home) as server:
        yield server


def _last_tick(box: Locator) -> int:
    text = box.inner_text().split()
    ticks = [int(word) for word in text if word.isdigit()]
    return ticks[-1] if ticks else 0


def _next_update(page: Page, box: Locator) -> None:
    """Wait until the running command's output has moved on."""
    seen = _last_tick(box)
    page.wait_for_function(
        """([box, seen]) => {
            const words = box.innerText.split(/\\s+/).filter((w) => /^\\d+$/.test(w));
            return words.length && Number(words[words.length - 1]) > seen;
        }""",
        arg=[box.element_handle(), seen],
    )


def _at_bottom(box: Locator) -> bool:
    return bool(box.evaluate("b => b.scrollHeight - b.scrollTop - b.clientHeight < 4"))


def _follows_while_running(page: Page, workspace: Path) -> None:
    block = page.locator("section.tool[data-tool-call-id=t1]")
    box = block.locator(".term-out")
    # More lines than the box shows: it scrolls, and it is at the newest one.
    page.wait_for_function("b => b.scrollHeight > b.clientHeight * 2", arg=box.element_handle())
    _next_update(page, box)
    assert _at_bottom(box)
    assert box.get_attribute("tabindex") == "0"
    assert block.locator(".term-lines").count() == 0  # no count for a window of the output
    shoot_both(page, "terminal-running", "section.tool[data-tool-call-id=t1]")
    # Scrolled up, it stays where the user put it while lines keep coming...
    box.evaluate("b => { b.scrollTop = 40; }")
    _next_update(page, box)
    _next_update(page, box)
    assert box.evaluate("b => b.scrollTop") == 40
    # ...and back at the bottom, it follows again.
    box.evaluate("b => { b.scrollTop = b.scrollHeight; }")
    _next_update(page, box)
    _next_update(page, box)
    assert _at_bottom(box)
    (workspace / "stop").touch()
    block.locator(".pill-ok").wait_for()
    assert box.inner_text().rstrip().endswith("stopped")
    assert _at_bottom(box)
    lines = int(block.locator(".term-lines").inner_text().split()[0].replace(",", ""))
    assert lines == _last_tick(box) + 1


def test_output_follows_its_tail_and_a_huge_one_opens_at_its_end(
    browser: Browser, web: WebServer, workspace: Path
) -> None:
    with open_page(browser, web.url, viewport=DESKTOP, init_script=LONG_TASKS) as page:
        send_prompt(page, "count")
        mark = page.evaluate("() => performance.now()")
        _follows_while_running(page, workspace)

        block = page.locator("section.tool[data-tool-call-id=t2]")
        block.locator(".pill-ok").wait_for()
        page.wait_for_selector(".msg-agent:has-text('Counted.')")
        wait_idle(page)
        arrival = longest_task_since(page, mark)
        assert block.locator(".term-lines").inner_text() == "30,000 lines"
        assert block.locator(".term-note").count() == 0
        noted = page.locator("section.tool[data-tool-call-id=t3] .term-note")
        assert noted.inner_text().startswith("Protected paths appeared while it ran (")
        assert noted.inner_text().endswith(f"{workspace}/.git")
        box = block.locator(".term-out")
        # The last 200 lines, at the bottom; the rest one click away.
        shown = box.locator(".term-text").inner_text().split()
        assert shown[0] == "29801" and shown[-1] == "30000" and len(shown) == 200
        assert box.locator(".term-more").inner_text() == (
            "29,800 earlier lines not shown · Show all 30,000 lines"
        )
        assert _at_bottom(box)
        shoot_both(page, "terminal-30000-lines", "section.tool[data-tool-call-id=t2]")

        # Read up to the first of those lines, then ask for all: the rest appears above them
        # and the view stays on them.
        where = "b => b.querySelector('.term-tail').offsetTop - b.scrollTop"
        box.evaluate("b => { b.scrollTop = 0; }")
        page.wait_for_function(
            "b => !b.matches(':focus') && b.scrollTop === 0", arg=box.element_handle()
        )
        before = box.evaluate(where)
        mark = page.evaluate("() => performance.now()")
        box.get_by_role("button", name="Show all 30,000 lines").click()
        page.wait_for_function(
            "b => !b.hasAttribute('aria-busy') && b.querySelectorAll('.term-slice').length === 30",
            arg=box.element_handle(),
        )
        show_all = longest_task_since(page, mark)
        assert abs(box.evaluate(where) - before) < 2
        assert box.evaluate("b => b === document.activeElement")
        every = box.evaluate("b => b.textContent.split('\\n').filter(Boolean)")
        assert every == [str(n) for n in range(1, 30001)]
        # Scrolled to, the first slice is laid out and shows line 1.
        box.evaluate("b => { b.scrollTop = 0; }")
        page.wait_for_function(
            "b => b.querySelector('.term-slice').innerText.startsWith('1\\n2\\n3\\n')",
            arg=box.element_handle(),
        )
        record("longtask-30000-line-card", {"arrivalMs": arrival, "showAllMs": show_all})
