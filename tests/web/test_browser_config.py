"""Any ACP agent's settings as header menus, in real Chromium against `config_agent.py`: an
agent on the Python ACP SDK offering only config options (mode, model, an effort select, a
boolean) and telling its changes with `config_option_update`.

Every select is a menu (mode and model first; model's choices in their groups), switched from
the page through `session/set_config_option` and from the agent's side, in either order of
`config_option_update` and `current_mode_update`; a refused switch shows back what the agent
holds. The title comes from the session list, the placeholder names the agent, an empty raw
input shows no fold-out, and on a phone the menus sit behind ⋯ with their names kept.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.web.browser import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    assert_accessible,
    open_page,
    send_prompt,
    shoot_both,
    wait_idle,
)
from tests.web.in_process import web_in_process
from tests.web.served import WebServer

CONFIG_AGENT = Path(__file__).with_name("config_agent.py")


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """`tether web --agent` running the config-options agent."""
    root = tmp_path_factory.mktemp("config")
    (root / "ws").mkdir()
    agent = f"{sys.executable} {CONFIG_AGENT} --store {root / 'store'}"
    with web_in_process(agent, root / "ws") as server:
        yield server


def _menu(page: Page, menu_id: str) -> str:
    return f"#settings select[data-menu-id={menu_id}]"


def _value(page: Page, menu_id: str) -> str:
    return str(page.locator(_menu(page, menu_id)).input_value())


def _ask(page: Page, text: str, answer: str) -> None:
    send_prompt(page, text)
    page.wait_for_selector(f".msg-agent:has-text('{answer}')")
    wait_idle(page)


def _menus_of_a_new_session(page: Page) -> None:
    prompt = page.locator("#prompt")
    assert prompt.get_attribute("placeholder", timeout=0).startswith(
        "Ask Config Agent to read, edit or run something"
    )
    _ask(page, "hello there", "You said: hello there")
    # Every select, mode and model first; no menu for the boolean option.
    menus = page.locator("#settings select")
    assert menus.evaluate_all("s => s.map(m => m.dataset.menuId)") == ["mode", "model", "effort"]
    # Each named by its label, as a screen reader hears it.
    for name, menu_id in (("Mode", "mode"), ("Model", "model"), ("Effort", "effort")):
        named = page.get_by_role("combobox", name=name, exact=True)
        assert named.get_attribute("data-menu-id") == menu_id
    groups = page.locator(f"{_menu(page, 'model')} optgroup")
    assert groups.evaluate_all("g => g.map(x => x.label)") == ["Local", "Hosted"]
    assert (_value(page, "mode"), _value(page, "model")) == ("build", "small")
    # The title from the session list: this agent never sends session_info_update.
    page.wait_for_function(
        "() => document.getElementById('session-title').textContent === 'hello there'"
    )


def _switched_from_both_sides(page: Page) -> None:
    # From the page: the agent holds what the menu shows.
    page.select_option(_menu(page, "model"), "large")
    _ask(page, "settings?", "Mode build, model large.")
    # A choice the agent refuses is said, and the menu shows what it still holds.
    page.select_option(_menu(page, "model"), "broken")
    refused = "changing the setting model to broken failed"
    page.locator(".notice-error", has_text=refused).wait_for()
    page.wait_for_function(
        "s => document.querySelector(s).value === 'large'", arg=_menu(page, "model")
    )
    # From the agent's side, and with both orders of the two updates.
    _ask(page, "plan please", "Switched to plan mode.")
    assert _value(page, "mode") == "plan"
    _ask(page, "flop", "Now in build mode.")
    assert _value(page, "mode") == "build"
    _ask(page, "flip", "Now in plan mode.")
    assert _value(page, "mode") == "plan"


def _behind_the_more_button(page: Page) -> None:
    # On a phone the menus are behind ⋯; the title keeps its room.
    more = page.locator("#more")
    assert more.is_visible() and more.get_attribute("aria-expanded") == "false"
    assert page.locator(_menu(page, "mode")).is_hidden()
    title = page.locator("#session-title")
    assert title.evaluate("t => t.clientWidth > 0 && t.scrollWidth <= t.clientWidth")
    more.click()
    assert more.get_attribute("aria-expanded") == "true"
    page.locator(_menu(page, "mode")).wait_for()
    # Focus goes into the panel; each menu keeps its name.
    assert page.evaluate("() => document.activeElement.dataset.menuId") == "mode"
    assert page.locator("#settings .setting-name").all_inner_texts() == ["Mode", "Model", "Effort"]
    assert page.get_by_role("combobox", name="Model", exact=True).is_visible()
    panel = page.locator("#settings").bounding_box()
    assert panel is not None and panel["x"] >= 0 and panel["x"] + panel["width"] <= PHONE["width"]
    page.screenshot(path=ARTIFACTS / "config-menus-phone-open.png")
    assert_accessible(page)
    page.select_option(_menu(page, "mode"), "build")
    page.keyboard.press("Escape")
    assert more.get_attribute("aria-expanded") == "false"
    assert page.evaluate("() => document.activeElement.id") == "more"


def test_config_options_are_menus_switched_from_both_sides(
    browser: Browser, web: WebServer
) -> None:
    with open_page(browser, web.url, viewport=DESKTOP) as page:
        _menus_of_a_new_session(page)
        _switched_from_both_sides(page)
        # A permission request with empty raw input: no empty "input" fold-out.
        send_prompt(page, "ask me")
        block = page.locator("section.tool[data-tool-call-id=touch-1]")
        block.locator(".permission button").first.wait_for()
        assert block.locator("details.raw-input").count() == 0
        block.locator(".permission button[data-kind=allow_once]").click()
        page.wait_for_selector(".msg-agent:has-text('Done.')")
        wait_idle(page)
        shoot_both(page, "config-menus")
        session = page.evaluate("() => location.hash")

    # Opened again (`session/load`): the menus are the agent's, as it holds them.
    with open_page(browser, f"{web.url}{session}", viewport=PHONE) as page:
        page.wait_for_selector(".msg-agent:has-text('Done.')")
        page.wait_for_selector(_menu(page, "mode"), state="attached")
        assert (_value(page, "mode"), _value(page, "model")) == ("plan", "large")
        _behind_the_more_button(page)
        _ask(page, "settings?", "Mode build, model large.")
