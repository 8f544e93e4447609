"""Reading `tether run --output-format stream-json|json`'s stdout: one JSON object a line,
each checked against the pinned schema (`schema/run-stream.schema.json`)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema

from tests.conftest import REPO

__all__ = ["lines_of"]

SCHEMA = json.loads((REPO / "schema" / "run-stream.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def lines_of(stdout: str) -> list[dict[str, Any]]:
    """Every line of stdout, each checked against the schema."""
    assert stdout.endswith("\n"), stdout[-200:]
    lines = []
    for number, text in enumerate(stdout.splitlines(), 1):
        line = json.loads(text)  # nothing but JSON on stdout
        errors = [e.message for e in VALIDATOR.iter_errors(line)]
        assert not errors, f"line {number} does not follow the schema: {errors}\n{text}"
        lines.append(line)
    return lines
