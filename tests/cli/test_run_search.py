"""`tether run` with `web_search`: `-v` says why it is not offered, a settings provider
without its key is said at once, and a search prints the numbered card that `show` replays
and `show --json` carries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.in_process import tether_in_process
from tests.cli.support import scripted_model
from tests.tools.web.search_api import Hit, env_for, ok_reply, serve_api

NOT_OFFERED = (
    "tether: web_search is not offered: no search backend is configured: set BRAVE_API_KEY "
    "(Brave Search), EXA_API_KEY (Exa), TAVILY_API_KEY (Tavily) or SEARXNG_URL (a SearXNG "
    "instance), or webSearch.provider in the settings"
)


def words(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def test_verbose_says_why_web_search_is_not_offered(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    model = scripted_model(tmp_path / "s.json", {"text": "ok"})
    quiet = tether_in_process(home, "run", "hi", "--model", model, "--cwd", str(ws))
    assert quiet.returncode == 0, quiet.stderr
    assert "web_search" not in quiet.stderr
    verbose = tether_in_process(home, "run", "hi", "-v", "--model", model, "--cwd", str(ws))
    assert verbose.returncode == 0, verbose.stderr
    assert NOT_OFFERED in words(verbose.stderr)


def test_a_provider_the_settings_name_without_its_key_is_said(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"webSearch": {"provider": "exa"}}))
    model = scripted_model(tmp_path / "s.json", {"text": "ok"})
    run = tether_in_process(home, "run", "hi", "--model", model, "--cwd", str(ws))
    assert run.returncode == 0, run.stderr
    assert (
        f"tether: web_search is not offered: webSearch.provider is exa ({home}/settings.json), "
        "but EXA_API_KEY is not set"
    ) in words(run.stderr)


def test_a_search_prints_its_card_and_show_replays_it(
    tmp_path: Path, ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    hits = [
        Hit("HTTPX 1.0 release notes", "https://www.python-httpx.org/changelog/", "What changed"),
        Hit(
            "Migrating", "https://github.com/encode/httpx/discussions/1", "Upgrading", "2026-10-05"
        ),
    ]
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "s1", "name": "web_search", "arguments": {"query": "httpx 1.0"}}]},
        {"text": "Done."},
    )
    with serve_api() as api:
        for name, value in env_for("tavily", api).items():
            monkeypatch.setenv(name, value)
        api.answer(ok_reply("tavily", hits))
        args = ["run", "search", "--model", model, "--cwd", str(ws), "--mode", "auto", "-v"]
        run = tether_in_process(home, *args)
    assert run.returncode == 0, run.stderr
    assert "tether: web_search uses Tavily (TAVILY_API_KEY)" in run.stderr
    shown = words(run.stdout)
    assert 'web search "httpx 1.0"' in shown
    assert (
        "1. HTTPX 1.0 release notes https://www.python-httpx.org/changelog/ What changed" in shown
    )
    assert (
        "2. Migrating https://github.com/encode/httpx/discussions/1 2026-10-05 · Upgrading" in shown
    )
    assert "Tavily · 2 results" in shown
    session_id = run.stderr.split("session ", 1)[1].split(" ", 1)[0]
    # Replayed with no backend at all.
    monkeypatch.delenv("TAVILY_API_KEY")
    show = tether_in_process(home, "show", session_id, "--verbose")
    assert show.returncode == 0, show.stderr
    assert show.stdout == run.stdout
    document = json.loads(tether_in_process(home, "show", session_id, "--json").stdout)
    finished = next(u for u in document["updates"] if u["kind"] == "tool_call_finished")
    assert finished["view"] == {
        "card": "web",
        "kind": "search",
        "query": "httpx 1.0",
        "results": [
            {
                "title": "HTTPX 1.0 release notes",
                "url": "https://www.python-httpx.org/changelog/",
                "snippet": "What changed",
            },
            {
                "title": "Migrating",
                "url": "https://github.com/encode/httpx/discussions/1",
                "snippet": "Upgrading",
                "published": "2026-10-05",
            },
        ],
        "truncated": False,
        "provider": "tavily",
    }
