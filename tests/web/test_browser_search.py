"""The search card in real Chromium: grep's files as collapsible groups, glob's paths, the cap.

A scripted `tether acp` greps (more matches than the cap) and globs a workspace in ask mode;
neither asks. The grep card is one scroll area with its first groups open, counts every
file with a match (listed or not), says its title once, and is one tab stop with arrow keys
among its groups. The same cards must come back when the stored session is opened again.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.web.browser import open_page, send_prompt, shoot_both, shot, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER, WebServer

PROMPT = "Find the handlers"
SCRIPT = {
    "turns": [
        {
            "toolCalls": [
                {"id": "g1", "name": "grep", "arguments": {"pattern": "handle_\\w+"}},
            ]
        },
        {"toolCalls": [{"id": "g2", "name": "glob", "arguments": {"pattern": "**/*.py"}}]},
        {
            "toolCalls": [
                {
                    "id": "g3",
                    "name": "grep",
                    "arguments": {"pattern": "HANDLE_C", "-i": True, "-B": 2, "path": "b.py"},
                },
                {
                    "id": "g4",
                    "name": "grep",
                    "arguments": {"pattern": "handle_", "output_mode": "count"},
                },
            ]
        },
        {"text": "Found them all."},
    ]
}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """`tether web` over a workspace with 312 matching lines in 8 files and 120 Python files."""
    root = tmp_path_factory.mktemp("search")
    ws = root / "ws"
    for folder in ("pkg", "docs", "zz"):
        (ws / folder).mkdir(parents=True)
    (ws / "a.py").write_text("def handle_a():\n    pass\n")
    (ws / "b.py").write_text("x = 1\nhandle_b(x)\nhandle_c(x)\n")
    for n in range(1, 5):
        (ws / "docs" / f"n{n}.txt").write_text(f"see handle_{n}\n")
    (ws / "pkg" / "many.txt").write_text("".join(f"handle_{i}\n" for i in range(300)))
    # Past the 250 listed: counted, not shown.
    (ws / "zz" / "late.txt").write_text("handle_z\n" * 5)
    for i in range(120):
        (ws / "pkg" / f"m{i:03}.py").write_text("")
    script = root / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}"])
    with web_in_process(agent, ws, env={"TETHER_HOME": str(root / "home")}) as server:
        yield server


def _check(page: Page) -> dict[str, str]:
    grep = page.locator("section.tool[data-tool-call-id=g1] [data-card=search][data-shape=matches]")
    grep.wait_for()
    groups = grep.locator("details.search-file")
    names = ["a.py", "b.py", *(f"docs/n{n}.txt" for n in range(1, 5)), "pkg/many.txt"]
    # Paths come absolute (as ACP's); the card shows them below their common directory.
    assert groups.locator("summary .path").all_inner_texts() == names
    base = grep.locator(".card-head .search-base").inner_text()
    assert base.endswith("/ws/")
    assert groups.evaluate_all("gs => gs.map(g => g.dataset.path)") == [base + n for n in names]
    assert groups.nth(1).locator(".match .num").all_inner_texts() == ["2", "3"]
    assert groups.nth(1).locator(".match .line").all_inner_texts() == [
        "handle_b(x)",
        "handle_c(x)",
    ]
    assert groups.nth(1).locator("mark.search-hit").all_inner_texts() == ["handle_b", "handle_c"]
    assert groups.nth(6).locator(".match .num").count() == 243
    # The first five groups are open; every file with a match is counted.
    assert groups.evaluate_all("gs => gs.map(g => g.open)") == [True] * 5 + [False] * 2
    assert grep.locator(".card-head .range").inner_text() == "312 matches in 8 files"
    assert "showing 250 of 312 matches" in grep.locator(".search-capped").inner_text()
    # The call's header says the title; the card does not say it again.
    assert grep.locator(".search-title").count() == 0
    # One tab stop for the list; arrow keys move among the groups, Enter opens one.
    heads = groups.locator("summary")
    assert heads.evaluate_all("hs => hs.map(h => h.tabIndex)") == [0] + [-1] * 6
    heads.nth(0).focus()
    page.keyboard.press("ArrowDown")
    assert heads.nth(1).evaluate("h => h === document.activeElement")
    page.keyboard.press("End")
    assert heads.nth(6).evaluate("h => h === document.activeElement")
    assert heads.evaluate_all("hs => hs.map(h => h.tabIndex)") == [-1] * 6 + [0]
    page.keyboard.press("Enter")
    assert groups.nth(6).evaluate("g => g.open")
    # Opened, the 243 lines scroll inside the list: one scroll area, capped like a read card.
    files = grep.locator(".search-files")
    assert files.evaluate("f => f.scrollHeight > f.clientHeight && f.clientHeight <= 480")
    page.keyboard.press("Enter")
    page.keyboard.press("Home")
    assert heads.nth(0).evaluate("h => h === document.activeElement")
    # Groups collapse and open again.
    summary = groups.nth(0).locator("summary")
    summary.click()
    assert groups.nth(0).evaluate("g => g.open") is False
    assert groups.nth(0).locator(".matches").is_hidden()
    summary.click()
    assert groups.nth(0).locator(".matches").is_visible()
    shoot_both(page, "card-search-matches", "section.tool[data-tool-call-id=g1]")

    glob = page.locator("section.tool[data-tool-call-id=g2] [data-card=search][data-shape=paths]")
    glob.wait_for()
    assert glob.locator(".search-paths li").count() == 100
    base = glob.locator(".card-head .search-base").inner_text()
    rows = glob.locator(".search-paths li").evaluate_all(
        "ls => ls.map(l => [l.textContent, l.title])"
    )
    assert all(title == base + text and text.endswith(".py") for text, title in rows)
    assert glob.locator(".card-head .range").inner_text() == "122 files"
    assert "showing the 100 newest of 122 files" in glob.locator(".search-capped").inner_text()
    shot(page, "section.tool[data-tool-call-id=g2]", "card-search-paths")

    _check_options(page)
    return {
        tid: page.locator(f"section.tool[data-tool-call-id={tid}] .card").first.inner_text()
        for tid in ("g1", "g2", "g3", "g4")
    }


def _check_options(page: Page) -> None:
    """grep with context lines (asked with Claude Code's names), and grep's counts."""
    context = page.locator("section.tool[data-tool-call-id=g3] [data-card=search]")
    context.wait_for()
    assert context.locator(".match .num").all_inner_texts() == ["1", "2", "3"]
    assert context.locator(".match.context .num").all_inner_texts() == ["1", "2"]
    assert context.locator(".match.context .line").all_inner_texts() == ["x = 1", "handle_b(x)"]
    # Case-insensitive as the search was; context lines are never highlighted.
    assert context.locator("mark.search-hit").all_inner_texts() == ["handle_c"]
    assert context.locator("summary .badge").inner_text() == "1"
    assert context.locator(".card-head .range").inner_text() == "1 match in 1 file"
    shot(page, "section.tool[data-tool-call-id=g3]", "card-search-context")

    counts = page.locator("section.tool[data-tool-call-id=g4] [data-card=search]")
    counts.wait_for()
    assert counts.get_attribute("data-shape") == "counts"
    rows = counts.locator(".search-counts li")
    assert rows.evaluate_all("ls => ls.map(l => l.textContent)") == [
        "1a.py",
        "2b.py",
        *(f"1docs/n{n}.txt" for n in range(1, 5)),
        "300pkg/many.txt",
        "5zz/late.txt",
    ]
    assert counts.locator(".card-head .range").inner_text() == "312 matches in 8 files"
    shot(page, "section.tool[data-tool-call-id=g4]", "card-search-counts")


def test_search_cards_live_and_on_load(browser: Browser, web: WebServer) -> None:
    with open_page(browser, web.url) as page:
        send_prompt(page, PROMPT)
        live = _check(page)
        page.wait_for_selector(".msg-agent:has-text('Found them all.')")
        wait_idle(page)
        # Inside the workspace a search never asks, even in ask mode.
        assert page.locator(".permission").count() == 0
        page.locator("#sessions .session.current").wait_for()
    with open_page(browser, web.url) as page:
        page.locator("#sessions .session", has_text=PROMPT).click()
        page.wait_for_selector(".msg-agent:has-text('Found them all.')")
        assert _check(page) == live
