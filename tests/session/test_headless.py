"""The lines of a headless run: their schema is generated from the types and pinned."""

from __future__ import annotations

from pathlib import Path

import jsonschema

from tests.golden import check_golden
from tether.session.headless import RunUsage, run_stream_schema, run_stream_schema_text
from tether.tools.delegate import TokenUsage


def test_pinned_schema_matches_the_types(repo_root: Path) -> None:
    # A change here changes what programs read from `run --output-format stream-json`.
    check_golden(repo_root / "schema" / "run-stream.schema.json", run_stream_schema_text())


def test_every_line_is_tagged_and_the_tags_are_required() -> None:
    schema = run_stream_schema()
    defs = schema["$defs"]
    assert schema["oneOf"] == [
        {"$ref": "#/$defs/RunInit"},
        {"$ref": "#/$defs/ClientUpdate"},
        {"$ref": "#/$defs/RunResult"},
    ]
    assert defs["RunInit"]["required"] == [
        "type",
        "sessionId",
        "cwd",
        "model",
        "mode",
        "sandbox",
        "tools",
    ]
    assert defs["RunResult"]["required"] == [
        "type",
        "sessionId",
        "stopReason",
        "isError",
        "result",
        "usage",
        "durationMs",
        "numTurns",
    ]
    assert defs["RunUsage"]["required"] == ["inputTokens", "outputTokens"]
    kinds = defs["ClientUpdate"]["discriminator"]["mapping"]
    for name in {ref.rsplit("/", 1)[-1] for ref in kinds.values()}:
        assert defs[name]["required"][0] == "kind", name
    validator = jsonschema.Draft202012Validator(schema)
    assert not validator.is_valid({"type": "result", "sessionId": "x"})
    assert not validator.is_valid({"kind": "agent_text"})
    assert validator.is_valid({"kind": "agent_text", "text": "hi"})


def test_usage_names_cache_counts_only_when_there_were_some() -> None:
    assert RunUsage.of(TokenUsage(10, 2)) == RunUsage(input_tokens=10, output_tokens=2)
    cached = RunUsage.of(TokenUsage(10, 2, 7))
    assert (cached.cached_read_tokens, cached.cached_write_tokens, cached.total) == (7, None, 12)
