"""The card unions' JSON Schema is generated from the types and pinned in the repository."""

from __future__ import annotations

from pathlib import Path

from tests.golden import check_golden
from tether.views.schema import views_schema, views_schema_text


def test_pinned_schema_matches_the_types(repo_root: Path) -> None:
    # A change here means the card unions changed: refresh, then review the schema's diff.
    check_golden(repo_root / "schema" / "views.schema.json", views_schema_text())


def test_every_card_requires_its_tag() -> None:
    defs = views_schema()["$defs"]
    cards = [name for name, d in defs.items() if "card" in d.get("properties", {})]
    assert sorted(cards) == [
        "DiffCallView",
        "DiffResultView",
        "GenericCallView",
        "GenericResultView",
        "ReadResultView",
        "SearchMatchesResultView",
        "SearchPathsResultView",
        "TaskResultView",
        "TerminalCallView",
        "TerminalResultView",
        "WebFetchResultView",
        "WebSearchResultView",
    ]
    for name in cards:
        assert defs[name]["required"][0] == "card", name
    for name in ("WebFetchResultView", "WebSearchResultView"):
        assert defs[name]["required"][:2] == ["card", "kind"], name


def test_web_cards_are_discriminated_by_kind() -> None:
    defs = views_schema()["$defs"]
    assert defs["ToolResultView"]["discriminator"]["mapping"]["web"] == "#/$defs/WebResultView"
    assert defs["WebResultView"]["discriminator"] == {
        "mapping": {
            "fetch": "#/$defs/WebFetchResultView",
            "search": "#/$defs/WebSearchResultView",
        },
        "propertyName": "kind",
    }
    search = defs["WebSearchResultView"]
    assert search["required"] == ["card", "kind", "query", "results", "truncated", "provider"]
    assert search["properties"]["provider"]["enum"] == ["brave", "exa", "tavily", "searxng"]
    assert defs["WebSearchHit"]["required"] == ["title", "url"]


def test_unions_are_discriminated_by_card() -> None:
    defs = views_schema()["$defs"]
    assert defs["ToolCallView"]["discriminator"]["mapping"] == {
        "diff": "#/$defs/DiffCallView",
        "generic": "#/$defs/GenericCallView",
        "terminal": "#/$defs/TerminalCallView",
    }
    assert set(defs["ToolResultView"]["discriminator"]["mapping"]) == {
        "diff",
        "generic",
        "read",
        "search",
        "task",
        "terminal",
        "web",
    }


def test_search_cards_are_discriminated_by_shape() -> None:
    defs = views_schema()["$defs"]
    assert defs["ToolResultView"]["discriminator"]["mapping"]["search"] == (
        "#/$defs/SearchResultView"
    )
    assert defs["SearchResultView"]["discriminator"] == {
        "mapping": {
            "matches": "#/$defs/SearchMatchesResultView",
            "paths": "#/$defs/SearchPathsResultView",
        },
        "propertyName": "shape",
    }
    for name in ("SearchMatchesResultView", "SearchPathsResultView"):
        assert defs[name]["required"][:2] == ["card", "shape"], name


def test_the_task_card_requires_what_every_client_shows() -> None:
    task = views_schema()["$defs"]["TaskResultView"]
    assert task["required"] == [
        "card",
        "agent",
        "description",
        "sessionId",
        "summary",
        "toolCalls",
        "stopReason",
    ]
    assert task["properties"]["stopReason"]["enum"] == [
        "running",
        "end_turn",
        "max_tokens",
        "max_turn_requests",
        "refusal",
        "cancelled",
        "error",
    ]
