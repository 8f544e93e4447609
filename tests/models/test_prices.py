"""The catalog: which entry a model name is, and what a response cost at its price."""

from __future__ import annotations

import pytest

from tether.models import Usage
from tether.models.catalog import CATALOG, ModelInfo, Price, cost_of, model_info


@pytest.mark.parametrize(
    ("name", "entry"),
    [
        ("anthropic:claude-sonnet-4-5", "claude-sonnet-4-5"),
        ("anthropic:claude-sonnet-4-5-20250929", "claude-sonnet-4-5"),
        ("vertex:claude-sonnet-4-5@20250929", "claude-sonnet-4-5"),
        ("bedrock:anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5"),
        ("bedrock:us.anthropic.claude-haiku-4-5-20251001-v1:0", "claude-haiku-4-5"),
        # The clouds' defaults, and the 4.6 ids as Bedrock names them (no date, or `-v1`).
        ("bedrock:global.anthropic.claude-sonnet-4-6", "claude-sonnet-4-6"),
        ("vertex:claude-sonnet-4-6", "claude-sonnet-4-6"),
        ("bedrock:anthropic.claude-opus-4-6-v1", "claude-opus-4-6"),
        ("openai:gpt-5-mini", "gpt-5-mini"),
        ("openai:gpt-5-mini-2025-08-07", "gpt-5-mini"),
        ("openai-responses:gpt-5", "gpt-5"),
        ("openai:openai/gpt-4.1", "gpt-4.1"),
        ("openai:deepseek-reasoner", "deepseek-reasoner"),
        ("gpt-4o", "gpt-4o"),
    ],
)
def test_a_name_finds_its_entry(name: str, entry: str) -> None:
    info = model_info(name)
    assert info is not None and info.id == entry


@pytest.mark.parametrize(
    "name", ["openai:gpt-5.1", "openai:gpt-5x", "openai:qwen3:8b", "script:/tmp/gpt-5.json"]
)
def test_another_version_or_model_is_not_guessed(name: str) -> None:
    # A price is per version: `gpt-5.1` is not `gpt-5`, however alike the names.
    assert model_info(name) is None


def test_the_cost_counts_fresh_input_cache_and_output_apart() -> None:
    sonnet = CATALOG["claude-sonnet-4-5"]
    # 10k prompt tokens of which 6k read from the cache and 1k written to it; 2k out.
    usage = Usage(10_000, 2_000, cached_read_tokens=6_000, cached_write_tokens=1_000)
    expected = (3_000 * 3.0 + 6_000 * 0.30 + 1_000 * 3.75 + 2_000 * 15.0) / 1_000_000
    assert cost_of(usage, sonnet) == pytest.approx(expected)
    # No cache price given: the cache costs what input costs.
    plain = ModelInfo("m", price=Price(input=1.0, output=2.0))
    assert cost_of(Usage(1_000_000, 0, cached_read_tokens=500_000), plain) == 1.0


def test_an_unknown_price_is_none_never_zero() -> None:
    assert cost_of(Usage(100, 10), None) is None
    assert cost_of(Usage(100, 10), CATALOG["gpt-5.5"]) is None  # known model, no list price


def test_settings_entries_come_first() -> None:
    mine = {"gpt-5": ModelInfo("gpt-5", 100_000, price=Price(9.0, 9.0))}
    info = model_info("openai:gpt-5-2025-08-07", mine)
    assert info is not None and info.price == Price(9.0, 9.0)
