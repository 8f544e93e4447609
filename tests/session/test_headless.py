"""The lines of a headless run: their schema is generated from the types and pinned."""

from __future__ import annotations

from pathlib import Path

import jsonschema

from tests.golden import check_golden
from tether.batch.results import NO_USAGE, TASK_RESULT, TaskResult
from tether.session.headless import RUN_RESULT, RunUsage, run_stream_schema, run_stream_schema_text
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
        assert defs[name]["required"][:2] == ["type", "kind"], name
    validator = jsonschema.Draft202012Validator(schema)
    assert not validator.is_valid({"type": "result", "sessionId": "x"})
    assert not validator.is_valid({"kind": "agent_text", "text": "hi"})
    assert not validator.is_valid({"type": "agent_text", "kind": "agent_text"})
    assert not validator.is_valid({"type": "turn_ended", "kind": "agent_text", "text": "hi"})
    assert validator.is_valid({"type": "agent_text", "kind": "agent_text", "text": "hi"})


def test_usage_names_cache_counts_only_when_there_were_some() -> None:
    assert RunUsage.of(TokenUsage(10, 2)) == RunUsage(input_tokens=10, output_tokens=2)
    cached = RunUsage.of(TokenUsage(10, 2, 7))
    assert (cached.cached_read_tokens, cached.cached_write_tokens, cached.total) == (7, None, 12)


def test_a_batch_result_line_names_what_it_shares_with_the_run_result_as_it_does() -> None:
    # A program reading both `run`'s result line and `batch`'s results.jsonl uses one set of
    # names for what they have in common.
    run = set(RUN_RESULT.json_schema(by_alias=True, mode="serialization")["properties"])
    batch = set(TASK_RESULT.json_schema(by_alias=True, mode="serialization")["properties"])
    shared = {"sessionId", "stopReason", "isError", "result", "usage", "durationMs", "numTurns"}
    assert shared <= run & batch
    assert run - batch == {"type"}
    done = TaskResult(id="a", status="done", usage=NO_USAGE, duration_ms=1, attempts=1)
    assert TASK_RESULT.dump_python(done, by_alias=True)["isError"] is False
    assert TASK_RESULT.validate_json(TASK_RESULT.dump_json(done, by_alias=True)) == done
