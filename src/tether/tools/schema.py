"""A tool's argument schema as the model reads it: pydantic's JSON Schema without the noise.

pydantic writes a `title` on every property and on the model, the model's docstring as the
root `description`, nested models as `$ref`s into `$defs`, and an optional field as
`anyOf: [T, {type: null}]` with `default: null`. None of that tells the model anything the
property's name, its description and `required` do not, and all of it is paid for in tokens on
every request. What is left: types, descriptions, constraints, enums and real defaults.

The built-in tools' specs are stored (`specs.json`: by tool name, its `description`,
`onlyInMode`, `arguments`, the dotted name of its arguments model, and `parameters`, the
schema): stating the tools on the first request then builds none of their models, which
validate with the tool's first call, and loads none of the tools a `DeferredTool` stands
for. `tests/tools/test_stored_schemas.py` checks every spec against its tool, so they
cannot drift.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

__all__ = ["STORED_SPECS", "model_schema", "plain_schema", "schema_key", "stored_specs"]

STORED_SPECS = Path(__file__).with_name("specs.json")
"""The built-in tools' specs, by name (see above)."""

_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SUBSCHEMA_MAPS = ("properties", "patternProperties")
_SUBSCHEMAS = ("items", "additionalProperties", "not", "contains")


def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The plain JSON Schema of a pydantic arguments model (a copy the caller may change)."""
    return copy.deepcopy(_model_schema(model))


def schema_key(model: type[BaseModel]) -> str:
    """The name a model's schema is stored under: its module and qualified name."""
    return f"{model.__module__}.{model.__qualname__}"


@functools.cache
def _model_schema(model: type[BaseModel]) -> dict[str, Any]:
    # Made once per model: pydantic builds a schema afresh at each call, and every request
    # of every session states the tools' schemas.
    stored = _stored_schemas().get(schema_key(model))
    if stored is not None:
        return stored
    return plain_schema(model.model_json_schema())


@functools.cache
def stored_specs() -> dict[str, dict[str, Any]]:
    """The stored specs by tool name, read whole once."""
    # Shipped with the code (see the test named above); without it (an installation that
    # lost it) every schema is made from its model and every tool at once, as before.
    try:
        text = STORED_SPECS.read_text(encoding="utf-8")
    except OSError:
        return {}
    specs: dict[str, dict[str, Any]] = json.loads(text)
    return specs


@functools.cache
def _stored_schemas() -> dict[str, dict[str, Any]]:
    return {spec["arguments"]: spec["parameters"] for spec in stored_specs().values()}


def plain_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with its `$defs` inlined, and no titles, root description or `null` options.

    `additionalProperties: false` goes too: validation names unknown arguments when they come,
    and stating it costs every request. A recursive `$ref` cannot be inlined, so a schema that
    has one comes back as it was.
    """
    definitions = schema.get("$defs", {})
    try:
        plain = _plain(schema, definitions, ())
    except _Recursive:
        return schema
    plain.pop("$defs", None)
    plain.pop("description", None)
    return plain


class _Recursive(Exception):
    """A `$ref` that leads back to itself."""


def _plain(
    schema: dict[str, Any], definitions: dict[str, Any], seen: tuple[str, ...]
) -> dict[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref.removeprefix("#/$defs/")
        if name in seen or name not in definitions:
            raise _Recursive(name)
        # A `$ref` with siblings (a field's description beside its model's) keeps them.
        inlined = _plain(definitions[name], definitions, (*seen, name))
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        return {**inlined, **_plain(siblings, definitions, seen)}
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "$defs" or (key == "title" and isinstance(value, str)):
            continue
        if key == "additionalProperties" and value is False:
            continue
        if key in _SUBSCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: _plain(sub, definitions, seen) for name, sub in value.items()}
        elif key in _SUBSCHEMA_LISTS and isinstance(value, list):
            out[key] = [_plain(sub, definitions, seen) for sub in value]
        elif key in _SUBSCHEMAS and isinstance(value, dict):
            out[key] = _plain(value, definitions, seen)
        else:
            out[key] = value
    return _type_first(_without_null(out))


def _type_first(schema: dict[str, Any]) -> dict[str, Any]:
    # Read as a declaration: `{"type": "string", "description": ...}`.
    if "type" not in schema:
        return schema
    return {"type": schema["type"], **{k: v for k, v in schema.items() if k != "type"}}


def _without_null(schema: dict[str, Any]) -> dict[str, Any]:
    # `T | None = None` is an optional argument: not being in `required` already says so.
    options = schema.get("anyOf")
    if not isinstance(options, list) or schema.get("default", ...) is not None:
        return schema
    kept = [option for option in options if option != {"type": "null"}]
    if len(kept) == len(options) or not kept:
        return schema
    rest = {k: v for k, v in schema.items() if k not in ("anyOf", "default")}
    if len(kept) == 1:
        return {**kept[0], **rest}
    return {**rest, "anyOf": kept}
