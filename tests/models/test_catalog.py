"""The models a session may switch to."""

from __future__ import annotations

from pathlib import Path

from tether.models.anthropic_model import AnthropicModel
from tether.models.catalog import known_models
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


def test_scripts_offer_their_siblings(tmp_path: Path) -> None:
    for name in ("b.json", "a.json", "notes.txt"):
        (tmp_path / name).write_text('{"turns": []}')
    model = ScriptModel.from_file(tmp_path / "b.json")
    assert known_models(model) == (f"script:{tmp_path}/b.json", f"script:{tmp_path}/a.json")
    assert known_models(ScriptModel([])) == ("script",)
