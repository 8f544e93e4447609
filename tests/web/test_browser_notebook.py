"""The notebook view of the read card in real Chromium against `tether acp`: cells, code
highlighted, Markdown rendered, outputs with their image, the same after a reload."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.tools.fs.notebooks import PNG, notebook
from tests.web.browser import open_page, send_prompt, shot, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER


def _card(page: Page) -> list[str]:
    """What the card shows, cell by cell: label, then text."""
    card = page.locator("section.tool[data-tool-call-id=r] .card-notebook")
    return [cell.inner_text() for cell in card.locator(".nb-cell").all()]


def test_a_notebook_reads_as_cells_with_their_outputs_live_and_replayed(
    browser: Browser, tmp_path: Path
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    data = notebook(workspace / "sales.ipynb")
    data["cells"][1]["outputs"].append(
        {"output_type": "error", "ename": "ValueError", "evalue": "bad", "traceback": []}
    )
    (workspace / "sales.ipynb").write_text(json.dumps(data))
    script = tmp_path / "script.json"
    call = {"id": "r", "name": "Read", "arguments": {"file_path": "sales.ipynb"}}
    script.write_text(json.dumps({"turns": [{"toolCalls": [call]}, {"text": "Read it."}]}))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}"])
    with (
        web_in_process(agent, workspace, env={"TETHER_HOME": str(tmp_path / "home")}) as web,
        open_page(browser, web.url) as page,
    ):
        page.click("#new-session")
        page.wait_for_selector("#send:not([disabled])")
        send_prompt(page, "read the notebook")
        page.wait_for_selector(".msg-agent:has-text('Read it.')")
        wait_idle(page)
        card = page.locator("section.tool[data-tool-call-id=r] .card-notebook")
        assert card.locator(".card-head .range").inner_text() == "notebook · 2 cells"
        intro, load = card.locator(".nb-cell").all()
        assert intro.get_attribute("data-cell-id") == "intro"
        assert intro.locator(".nb-markdown h1").inner_text() == "Sales"
        assert load.locator(".nb-kind").inner_text() == "In [1]"
        # The code highlighted (Pygments' classes) with its own line numbers.
        assert load.locator(".gutter .num").all_inner_texts() == ["1", "2"]
        assert load.locator(".lines .nb").first.inner_text() == "print"
        assert load.locator("pre.nb-output").first.inner_text() == "rows: 3\n"
        assert load.locator("pre.nb-output.is-error").inner_text() == "ValueError: bad"
        image = load.locator("img.content-image")
        assert image.get_attribute("src") == f"data:image/png;base64,{PNG}"
        assert page.evaluate("() => document.querySelector('img.content-image').naturalWidth") == 1
        shot(page, "section.tool[data-tool-call-id=r]", "card-notebook")
        live = _card(page)
        page.reload()
        page.wait_for_selector("#conn[data-state=ready]", state="attached")
        page.wait_for_selector("section.tool[data-tool-call-id=r] .card-notebook img.content-image")
        assert _card(page) == live
