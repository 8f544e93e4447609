"""The JSON Schema of both card unions, as pinned in `schema/views.schema.json`."""

from __future__ import annotations

import json
from typing import Any

from tether.views.call import TOOL_CALL_VIEW
from tether.views.result import TOOL_RESULT_VIEW

__all__ = ["views_schema", "views_schema_text"]


def views_schema() -> dict[str, Any]:
    """Both unions in one document: `ToolCallView` and `ToolResultView` under `$defs`."""
    call = TOOL_CALL_VIEW.json_schema(by_alias=True, ref_template="#/$defs/{model}")
    result = TOOL_RESULT_VIEW.json_schema(by_alias=True, ref_template="#/$defs/{model}")
    defs: dict[str, Any] = {**call.pop("$defs", {}), **result.pop("$defs", {})}
    for definition in defs.values():
        # `card` has a Python default for convenience, but the wire always carries it, and
        # so does a card's own tag (the web card's `kind`, the search card's `shape`): any
        # property fixed to one value; so does an attachment its `type`.
        properties = definition.get("properties", {})
        if "card" in properties:
            tags = [name for name, p in properties.items() if "const" in p and name != "card"]
            definition["required"] = ["card", *tags, *definition.get("required", [])]
        elif "const" in properties.get("type", {}):
            definition["required"] = ["type", *definition.get("required", [])]
    defs["ToolCallView"] = call
    defs["ToolResultView"] = result
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "tether views",
        "oneOf": [{"$ref": "#/$defs/ToolCallView"}, {"$ref": "#/$defs/ToolResultView"}],
        "$defs": dict(sorted(defs.items())),
    }


def views_schema_text() -> str:
    """The schema as the exact text stored in the repository."""
    return json.dumps(views_schema(), indent=2, sort_keys=True) + "\n"
