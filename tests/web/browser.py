"""Headless Chromium for the web client's tests (Debian's /usr/bin/chromium via Playwright)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from playwright.sync_api import Browser, Page, sync_playwright

from tests.conftest import REPO

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
WAIT_MS = 15_000


@contextmanager
def chromium() -> Iterator[Browser]:
    """One headless browser; close it when done."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def open_page(
    browser: Browser,
    url: str,
    *,
    viewport: dict[str, int] | None = None,
    color_scheme: Literal["light", "dark"] = "light",
    bypass_csp: bool = False,
) -> Iterator[Page]:
    """A fresh tab on `url`, ready once the agent has initialized; page errors fail the test.

    `bypass_csp` lets a test inject its own script (axe-core); the page never needs it.
    """
    size = viewport or {"width": 1180, "height": 860}
    context = browser.new_context(
        viewport={"width": size["width"], "height": size["height"]},
        color_scheme=color_scheme,
        bypass_csp=bypass_csp,
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if msg.type == "error" else None,
    )
    try:
        page.goto(url)
        page.wait_for_selector("#conn[data-state=ready]", state="attached")
        yield page
        assert errors == [], errors
    finally:
        context.close()


def shot(page: Page, selector: str, name: str) -> Path:
    """Save a screenshot of one element under test-artifacts/web/ (for people to look at)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.locator(selector).first.screenshot(path=path)
    return path


def send_prompt(page: Page, text: str) -> None:
    """Type a prompt and press Enter."""
    page.fill("#prompt", text)
    page.press("#prompt", "Enter")


def wait_idle(page: Page) -> None:
    """Wait until the running prompt has ended."""
    page.wait_for_selector("#working", state="hidden")
    page.wait_for_selector("#send:not([disabled])")
