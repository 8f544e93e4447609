"""The models a session may switch to."""

from __future__ import annotations

from pathlib import Path

import pytest

from tether.models.anthropic_model import AnthropicModel
from tether.models.catalog import known_models
from tether.models.factory import make_model
from tether.models.openai_compat import OpenAICompatModel
from tether.models.script import ScriptModel
from tether.providers import ANTHROPIC, OPENAI


def test_known_models_start_with_the_current_one() -> None:
    deepseek = OpenAICompatModel(OPENAI.resolve(api_key="k", environ={}), model="deepseek-reasoner")
    assert known_models(deepseek) == ("openai:deepseek-reasoner", "openai:deepseek-chat")
    custom = OpenAICompatModel(
        OPENAI.resolve("http://127.0.0.1:11434/v1", environ={}), model="qwen3:8b"
    )
    assert known_models(custom) == ("openai:qwen3:8b",)
    claude = AnthropicModel(ANTHROPIC.resolve(api_key="k", environ={}), model="my-claude")
    assert known_models(claude)[0] == "anthropic:my-claude"
    assert "anthropic:claude-sonnet-5-5" in known_models(claude)


def test_a_cloud_offers_its_claude_models_wherever_it_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AWS_REGION", "eu-central-1")
    monkeypatch.setenv("CLOUD_ML_REGION", "us")
    monkeypatch.setenv("ANTHROPIC_VERTEX_PROJECT_ID", "p")
    assert known_models(make_model("bedrock:us.anthropic.claude-opus-4-7")) == (
        "bedrock:us.anthropic.claude-opus-4-7",
        "bedrock:global.anthropic.claude-sonnet-4-6",
        "bedrock:global.anthropic.claude-opus-4-6-v1",
    )
    assert known_models(make_model("vertex")) == (
        "vertex:claude-sonnet-4-6",
        "vertex:claude-opus-4-6",
    )


def test_scripts_offer_their_siblings(tmp_path: Path) -> None:
    for name in ("b.json", "a.json", "notes.txt"):
        (tmp_path / name).write_text('{"turns": []}')
    model = ScriptModel.from_file(tmp_path / "b.json")
    assert known_models(model) == (f"script:{tmp_path}/b.json", f"script:{tmp_path}/a.json")
    assert known_models(ScriptModel([])) == ("script",)
