"""Headless Chromium for the web client's tests (Debian's /usr/bin/chromium via Playwright)."""

from __future__ import annotations

import json
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, sync_playwright

from tests.conftest import REPO
from tests.npm import npm_package

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = REPO / "test-artifacts" / "web"
"""Screenshots and measured figures for people to look at (git-ignored)."""
WAIT_MS = 15_000
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
NARROWEST = {"width": 320, "height": 640}
"""The narrowest phone the page lays out for: nothing may be wider."""


NODE_DIR = Path(__file__).with_name("node")
AXE_VERSION = "4.14.1"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
"""WCAG 2.2 AA, as axe-core names its rules' levels."""


@lru_cache(maxsize=1)
def axe_source() -> str:
    """axe-core's source, installed from `tests/web/node/package-lock.json` on first use."""
    return (npm_package(NODE_DIR, "axe-core", AXE_VERSION) / "axe.min.js").read_text()


_AXE_CHECKED: weakref.WeakSet[Page] = weakref.WeakSet()
"""Pages axe-core has checked: the inline styles it tries while it measures are refused by the
page's policy, which says so on the console (as late as it likes); that is axe's noise, not
the page's."""
AXE_NOISE = "Applying inline style violates the following Content Security Policy directive"


def axe_report(page: Page) -> dict[str, Any]:
    """axe-core's whole report on the page as it is now, for WCAG 2.2 AA's rules."""
    _AXE_CHECKED.add(page)
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated by the browser's debugger: the page's script policy does not apply.
        page.evaluate(axe_source())
    report: dict[str, Any] = page.evaluate(
        """async (tags) => await axe.run(document, {
            runOnly: {type: "tag", values: tags}, resultTypes: ["violations"],
        })""",
        AXE_TAGS,
    )
    assert report["testEngine"]["name"] == "axe-core", report.get("testEngine")
    return report


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Every WCAG 2.2 AA violation axe-core finds on the page as it is now (any impact)."""
    report = axe_report(page)
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "nodes": [n["html"][:200] for n in v["nodes"][:8]],
            "why": v["nodes"][0]["failureSummary"][:400] if v["nodes"] else "",
        }
        for v in report["violations"]
    ]


def assert_accessible(page: Page) -> None:
    """axe-core finds no WCAG 2.2 AA violation on the page as it is now."""
    found = axe_violations(page)
    assert not found, json.dumps(found, indent=1)


@contextmanager
def chromium() -> Iterator[Browser]:
    """One headless browser; close it when done."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


_Options = tuple[int, int, Literal["light", "dark"], bool]
"""What a context is made with: viewport width and height, colour scheme, CSP bypassed."""
_IDLE: weakref.WeakKeyDictionary[Browser, dict[_Options, list[BrowserContext]]] = (
    weakref.WeakKeyDictionary()
)
"""Contexts whose page has closed, holding nothing, by the options they were made with.

A context that held one page and is left with no cookie and no stored data is as fresh as a
new one, so the next page with the same options opens in it rather than in a new context.
Each keeps a blank tab open (`about:blank`, never navigated): without it, a page opened in a
context whose last tab has closed cost Chromium nearly what one in a new context does. Pages
opened and closed in a loop, axe-core's check included: 1.7 s of Chromium's CPU a page in new
contexts, 1.45 s in a kept one without the tab, 0.75 s with it. Over all of tests/web, about
0.1 s a page (102 s of CPU against 94 s). A page in use never shares its context with another
page a test opened."""


def _fresh_context(browser: Browser, options: _Options) -> BrowserContext:
    """An idle context made with `options` (viewport, colour scheme, CSP), or a new one."""
    idle = _IDLE.setdefault(browser, {}).setdefault(options, [])
    if idle:
        return idle.pop()
    width, height, color_scheme, bypass_csp = options
    context = browser.new_context(
        viewport={"width": width, "height": height},
        color_scheme=color_scheme,
        bypass_csp=bypass_csp,
    )
    context.new_page()  # the blank tab that keeps the context ready (see _IDLE)
    return context


def _let_go(browser: Browser, options: _Options, context: BrowserContext, page: Page) -> None:
    """Close the page; keep its context for the next page if it holds nothing, else close it."""
    reusable = False
    try:
        if not page.is_closed() and page.url.startswith("http"):
            # The page's own origin's stored data (the client keeps none there today).
            page.evaluate("() => localStorage.clear()")
            page.close()
            context.clear_cookies()
            reusable = len(context.pages) == 1  # the blank tab alone
    except Exception:  # a page that crashed or will not close: its context goes with it
        reusable = False
    if reusable:
        _IDLE.setdefault(browser, {}).setdefault(options, []).append(context)
    else:
        context.close()


@contextmanager
def open_page(
    browser: Browser,
    url: str,
    *,
    viewport: dict[str, int] | None = None,
    color_scheme: Literal["light", "dark"] = "light",
    bypass_csp: bool = False,
    init_script: str | None = None,
    ready: bool = True,
) -> Iterator[Page]:
    """A fresh tab on `url`, ready once the agent has initialized; page errors fail the test.

    The tab is alone in its browser context (cookies, storage), as in a browser of its own.
    `bypass_csp` lets a test inject its own script (axe-core); the page never needs it.
    `init_script` runs in the page before its own scripts (a performance observer, say);
    with `ready` false the tab is handed over as soon as it navigated.
    """
    size = viewport or {"width": 1180, "height": 860}
    options: _Options = (size["width"], size["height"], color_scheme, bypass_csp)
    context = _fresh_context(browser, options)
    page = context.new_page()
    if init_script is not None:
        page.add_init_script(init_script)
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def console(message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        if page in _AXE_CHECKED and message.text.startswith(AXE_NOISE):
            return
        errors.append(message.text)

    page.on("console", console)
    passed = False
    try:
        page.goto(url)
        if ready:
            page.wait_for_selector("#conn[data-state=ready]", state="attached")
        yield page
        assert errors == [], errors
        if not page.is_closed():
            # Every screen the tests leave is checked: WCAG 2.2 AA, no violation at all.
            assert_accessible(page)
        passed = True
    finally:
        if passed:
            _let_go(browser, options, context, page)
        else:
            context.close()


def shot(page: Page, selector: str, name: str) -> Path:
    """Save a screenshot of one element under test-artifacts/web/ (for people to look at)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.locator(selector).first.screenshot(path=path)
    return path


LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    window.__longTasks.push({start: entry.startTime, duration: entry.duration});
  }
}).observe({type: "longtask", buffered: true});
"""
"""An init script that keeps every long task (over 50 ms) the page runs, as `__longTasks`."""


def longest_task_since(page: Page, mark: float) -> float:
    """The longest task (ms) that started after `mark` (`performance.now()`); 0 when none ran
    over 50 ms, the threshold below which the browser reports none."""
    found: float = page.evaluate(
        "mark => Math.max(0, ...window.__longTasks"
        ".filter(t => t.start >= mark).map(t => t.duration))",
        mark,
    )
    return found


@contextmanager
def main_thread_cpu(browser: Browser, page: Page) -> Iterator[list[float]]:
    """The CPU time (ms) of each task a page's main thread ran inside the block, from
    Chromium's trace: a task's own thread time, which a loaded machine does not stretch as it
    stretches the task's wall time (what `longtask` entries measure). Every renderer's main
    thread counts: the page's, and any other's that ran then."""
    tasks: list[float] = []
    browser.start_tracing(page=page, categories=["toplevel"])
    try:
        yield tasks
    finally:
        trace = json.loads(browser.stop_tracing())
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    mains = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M"
        and e.get("name") == "thread_name"
        and e["args"].get("name") == "CrRendererMain"
    }
    # A task without thread time counts its wall time, which is never less (Chromium leaves
    # out a thread time it did not measure).
    tasks.extend(
        e.get("tdur", e["dur"]) / 1000
        for e in events
        if e.get("ph") == "X"
        and e.get("name") == "ThreadControllerImpl::RunTask"
        and (e["pid"], e["tid"]) in mains
    )
    assert tasks, "the trace holds no task of a page's main thread"


def record(name: str, value: object) -> Path:
    """Keep a measured figure as `test-artifacts/web/measure-NAME.json`."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"measure-{name}.json"
    path.write_text(json.dumps({"name": name, "value": value}) + "\n")
    return path


def shoot_both(page: Page, name: str, selector: str | None = None) -> None:
    """Screenshots at desktop and phone size (`NAME-desktop.png`, `NAME-phone.png`), of the
    page or of one element; at either size, and at 320 px, nothing is wider than the screen."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    before = page.viewport_size
    try:
        for label, size in (("desktop", DESKTOP), ("phone", PHONE), ("narrowest", NARROWEST)):
            page.set_viewport_size(size)
            if label != "narrowest":
                path = ARTIFACTS / f"{name}-{label}.png"
                if selector is None:
                    page.screenshot(path=path)
                else:
                    page.locator(selector).first.screenshot(path=path)
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= size["width"], (label, wide)
    finally:
        if before is not None:
            page.set_viewport_size(before)


def send_prompt(page: Page, text: str) -> None:
    """Type a prompt and press Enter."""
    page.fill("#prompt", text)
    page.press("#prompt", "Enter")


def titled_session(page: Page) -> str:
    """The shown session's title in the sidebar, once it has one: its entry says "New session"
    until the list the page asks for when a prompt ends arrives, a message after that end."""
    name = "#sessions .session.current .session-name"
    page.wait_for_function(
        "name => (document.querySelector(name)?.textContent ?? 'New session') !== 'New session'",
        arg=name,
    )
    return page.locator(name).inner_text()


def wait_idle(page: Page) -> None:
    """Wait until the running prompt has ended."""
    page.wait_for_selector("#working", state="hidden")
    page.wait_for_selector("#send:not([disabled])")
