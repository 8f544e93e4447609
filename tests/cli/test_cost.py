"""Cost at every surface: a usage event's `costUsd` at the catalog's price (the settings'
entry here), summed in stream-json's result and `sessions --json`; unknown stays unknown."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.in_process import tether_in_process
from tests.cli.stream_lines import lines_of


def _scripts(tmp_path: Path) -> tuple[str, str]:
    turns = [
        {"text": "one", "usage": {"inputTokens": 1_000, "outputTokens": 100}},
        {
            "text": "two",
            "usage": {"inputTokens": 3_000, "outputTokens": 200, "cachedReadTokens": 2_000},
        },
    ]
    specs = []
    for name in ("priced.json", "unpriced.json"):
        path = tmp_path / name
        path.write_text(json.dumps({"turns": turns}))
        specs.append(f"script:{path}")
    return specs[0], specs[1]


def test_cost_in_the_log_the_result_and_the_session_list(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    price = {"input": 2.0, "output": 10.0, "cacheRead": 0.5}
    (home / "settings.json").write_text(json.dumps({"models": {"priced.json": {"price": price}}}))
    priced, unpriced = _scripts(tmp_path)
    args = ["--cwd", str(ws), "--output-format", "stream-json"]

    run = tether_in_process(home, "run", "go", "--model", priced, *args)
    assert run.returncode == 0, run.stderr
    result = lines_of(run.stdout)[-1]
    first = (1_000 * 2.0 + 100 * 10.0) / 1e6
    assert result["usage"]["costUsd"] == first
    session = result["sessionId"]
    # A new process replays the script from its first turn: this prompt costs that again.
    run = tether_in_process(home, "run", "again", "--model", priced, "--continue", session, *args)
    assert lines_of(run.stdout)[-1]["usage"]["costUsd"] == first  # this prompt's own
    second = first

    log = (home / "sessions" / f"{session}.jsonl").read_text().splitlines()
    costs = [json.loads(line).get("costUsd") for line in log if '"model/usage"' in line]
    assert costs == [first, second]

    other = tether_in_process(home, "run", "go", "--model", unpriced, *args)
    assert "costUsd" not in lines_of(other.stdout)[-1]["usage"]  # unknown: never a 0

    listed = {
        row["id"]: row for row in json.loads(tether_in_process(home, "sessions", "--json").stdout)
    }
    assert listed[session]["costUsd"] == round(first + second, 6)
    [unknown] = [row for sid, row in listed.items() if sid != session]
    assert "costUsd" not in unknown


def test_models_lists_the_catalog_with_the_settings_entries(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    entry = {"contextWindow": 32_000, "price": {"input": 0.1, "output": 0.2}, "thinks": True}
    (home / "settings.json").write_text(json.dumps({"models": {"my-local": entry}}))
    listed = tether_in_process(home, "models", "--json", "--cwd", str(ws))
    assert listed.returncode == 0, listed.stderr
    rows = {row["id"]: row for row in json.loads(listed.stdout)}
    assert rows["my-local"] == {
        "id": "my-local",
        "contextWindow": 32_000,
        "maxOutput": None,
        "price": {"input": 0.1, "output": 0.2, "cacheRead": None, "cacheWrite": None},
        "thinks": True,
        "fromSettings": True,
    }
    assert rows["claude-sonnet-4-5"]["price"]["output"] == 15.0
    assert rows["gpt-5.5"]["price"] is None
    table = tether_in_process(home, "models", "--cwd", str(ws))
    assert "my-local (settings)" in table.stdout and "unknown" in table.stdout


def test_usage_shows_each_models_cost_and_unknown_for_an_unpriced_one() -> None:
    from rich.console import Console

    from tether.cli.interactive.usage import render_usage, usage_by_model
    from tether.session.log.events import SessionConfigEvent, UsageEvent

    events = [
        UsageEvent(input_tokens=1_000, output_tokens=100, cost_usd=0.003),
        UsageEvent(input_tokens=2_000, output_tokens=1_100, reasoning_tokens=900, cost_usd=0.005),
        SessionConfigEvent(config_id="model", value="openai:mystery"),
        UsageEvent(input_tokens=500, output_tokens=50),
    ]
    rows = usage_by_model(events, "anthropic:claude-sonnet-4-5")
    console = Console(width=120, record=True)
    console.print(render_usage(rows))
    text = console.export_text()
    sonnet, mystery, total = (
        line for line in text.splitlines() if line.startswith(("anthropic", "openai", "total"))
    )
    assert sonnet.endswith("1,200 (900 thinking)  $0.0080") and mystery.endswith("unknown")
    assert total.endswith("unknown")  # never a partial sum shown as the whole
