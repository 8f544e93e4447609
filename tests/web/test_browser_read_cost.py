"""What a 2,000-line read card costs the page in real Chromium: the longest task while it
arrives, and while a reload replays it, in the main thread's CPU time (Chromium's trace; the
wall time of the `longtask` PerformanceObserver beside it), kept under test-artifacts/web/ as
`measure-longtask-2000-line-read.json`."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from playwright.sync_api import Browser, Locator

from tests.web.browser import (
    DESKTOP,
    LONG_TASKS,
    longest_task_since,
    main_thread_cpu,
    open_page,
    record,
    send_prompt,
    wait_idle,
)
from tests.web.in_process import web_in_process
from tests.web.served import TETHER

LINES = 2000
SCRIPT = {
    "turns": [
        {"toolCalls": [{"id": "r1", "name": "read", "arguments": {"path": "big.py"}}]},
        {"text": "Read it."},
    ]
}
BUDGET_MS = 150
"""The longest task, in CPU time of the page's main thread, allowed while the card arrives or
is replayed: it was 170 and 245 ms on an idle machine (683 and 1,423 of wall on a loaded one,
where it is now under 80 and 0). Wall time is kept beside it in the measured figures."""


def test_a_2000_line_read_card_draws_without_a_long_task(browser: Browser, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    body = "".join(f"def f{n}(x):  # line {n}\n    return x + {n}\n" for n in range(LINES // 2))
    (ws / "big.py").write_text(body)
    script = tmp_path / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--mode", "auto", "--model", f"script:{script}"])
    with (
        web_in_process(agent, ws, env={"TETHER_HOME": str(tmp_path / "home")}) as web,
        open_page(browser, web.url, viewport=DESKTOP, init_script=LONG_TASKS) as page,
    ):
        # Measured from the prompt on, in an open session: the card, not the page's start.
        page.click("#new-session")
        page.wait_for_selector("#send:not([disabled])")
        mark = page.evaluate("() => performance.now()")
        card = page.locator("section.tool[data-tool-call-id=r1] [data-card=read]")
        with main_thread_cpu(browser, page) as arriving:
            send_prompt(page, "read big.py")
            page.wait_for_selector(".msg-agent:has-text('Read it.')")
            wait_idle(page)
            _whole(card.locator(".code"))
        arrival_wall = longest_task_since(page, mark)

        with main_thread_cpu(browser, page) as replaying:
            page.reload()
            page.wait_for_selector("#conn[data-state=ready]", state="attached")
            page.wait_for_selector(".msg-agent:has-text('Read it.')")
            wait_idle(page)
            _whole(card.locator(".code"))
        replay_wall = longest_task_since(page, 0)
        arrival, replay = max(arriving), max(replaying)
        record(
            "longtask-2000-line-read",
            {
                "arrivalMs": arrival,
                "replayMs": replay,
                "arrivalWallMs": arrival_wall,
                "replayWallMs": replay_wall,
            },
        )
        # The page's own work, in CPU time: on a loaded machine a task's wall time is
        # mostly its wait for a core (see BUDGET_MS).
        assert arrival <= BUDGET_MS and replay <= BUDGET_MS, (arrival, replay)


def _whole(code: Locator) -> None:
    """Every line is in the card (drawn by now), numbered 1 to 2,000, the last one last."""
    code.page.wait_for_function(
        f"c => c.querySelectorAll('.line').length === {LINES} && !c.hasAttribute('aria-busy')",
        arg=code.element_handle(),
    )
    # (textContent: lines out of sight are not laid out, so they have no innerText)
    assert code.locator(".num").last.text_content() == str(LINES)
    assert code.locator(".line").last.text_content() == f"    return x + {LINES // 2 - 1}"
