"""A tool's argument schema as the model reads it: pydantic's JSON Schema without the noise.

pydantic writes a `title` on every property and on the model, the model's docstring as the
root `description`, nested models as `$ref`s into `$defs`, and an optional field as
`anyOf: [T, {type: null}]` with `default: null`. None of that tells the model anything the
property's name, its description and `required` do not, and all of it is paid for in tokens on
every request. What is left: types, descriptions, constraints, enums and real defaults.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from pydantic import BaseModel

__all__ = ["model_schema", "plain_schema"]

_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SUBSCHEMA_MAPS = ("properties", "patternProperties")
_SUBSCHEMAS = ("items", "additionalProperties", "not", "contains")


def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The plain JSON Schema of a pydantic arguments model (a copy the caller may change)."""
    return copy.deepcopy(_model_schema(model))


@functools.cache
def _model_schema(model: type[BaseModel]) -> dict[str, Any]:
    # Made once per model: pydantic builds a schema afresh at each call, and every request
    # of every session states the tools' schemas.
    return plain_schema(model.model_json_schema())


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
