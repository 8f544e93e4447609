"""Argument schemas as the model reads them: no titles, no `$defs`, optional fields plain."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field

from tether.tools.defaults import default_tools
from tether.tools.schema import model_schema, plain_schema


class Inner(BaseModel):
    """One item."""

    title: str = Field(description="A property that happens to be called title.")
    kind: Literal["a", "b"] | None = Field(default=None, description="a or b.")


class Outer(BaseModel):
    """Arguments of `outer`."""

    items: list[Inner] = Field(description="The items.")
    first: Inner | None = Field(default=None, description="The first one.")
    label: str | int | None = Field(default=None, description="A label.")
    count: int = Field(default=3, ge=1, description="How many.")


def test_titles_defs_and_null_options_are_gone_and_the_rest_is_kept() -> None:
    item = {
        "type": "object",
        "description": "One item.",
        "properties": {
            "title": {
                "type": "string",
                "description": "A property that happens to be called title.",
            },
            "kind": {"type": "string", "enum": ["a", "b"], "description": "a or b."},
        },
        "required": ["title"],
    }
    assert model_schema(Outer) == {
        "type": "object",
        "properties": {
            "items": {"type": "array", "description": "The items.", "items": item},
            "first": {**item, "description": "The first one."},
            "label": {
                "description": "A label.",
                "anyOf": [{"type": "string"}, {"type": "integer"}],
            },
            "count": {"type": "integer", "default": 3, "description": "How many.", "minimum": 1},
        },
        "required": ["items"],
    }


def test_a_recursive_schema_is_left_as_it_was() -> None:
    recursive: dict[str, Any] = {
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "type": "object",
    }
    assert plain_schema(recursive) == recursive


def test_no_builtin_tool_schema_carries_noise() -> None:
    for tool in default_tools():
        text = json.dumps(tool.parameters_schema())
        for noise in ('"title"', "$defs", "$ref", '"null"', '"additionalProperties"'):
            assert noise not in text, (tool.name, noise)
        assert "description" not in tool.parameters_schema(), tool.name
