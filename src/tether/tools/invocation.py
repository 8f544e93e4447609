"""Running one tool call end to end: parse the raw arguments, execute, render, project."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, JsonValue, ValidationError

from tether.errors import ArgumentsError, TooDeep, ToolError
from tether.jsontext import parse_json
from tether.lazy import logger
from tether.tools.arguments import canonical
from tether.tools.base import Tool
from tether.tools.result import ToolResult

if TYPE_CHECKING:
    from tether.tools.context import ToolContext

__all__ = [
    "MAX_META_BYTES",
    "check_plain_json",
    "decode_arguments",
    "invoke",
    "parse_arguments",
    "validate_arguments",
]

log = logger(__name__)  # `logging` loads when it first logs

MAX_META_BYTES = 1 << 20
"""The largest `meta` a result may store, in bytes of compact JSON."""


def decode_arguments(raw: str) -> Any:
    """`parse_json(raw)`, or the `ValueError` it raised: what a call's arguments decode to,
    decoded once for both their validation (`validate_arguments`) and the `rawInput` a
    client is shown (`tether.tools.present.shown_input`)."""
    try:
        return parse_json(raw)
    except ValueError as exc:
        return exc


def parse_arguments(tool: Tool[Any, Any], raw: str) -> BaseModel | ToolResult:
    """The validated arguments, or an error result that tells the model what was wrong."""
    return validate_arguments(tool, raw, decode_arguments(raw))


def validate_arguments(tool: Tool[Any, Any], raw: str, decoded: Any) -> BaseModel | ToolResult:
    """`parse_arguments` of arguments already decoded (`decode_arguments(raw)`)."""
    data = decoded
    if not isinstance(data, dict):
        if not raw.strip():  # blank: no arguments
            data = {}
        elif isinstance(data, TooDeep):
            return ToolResult.error(f"Arguments for {tool.name} are nested too deeply to decode")
        elif isinstance(data, ValueError):
            return ToolResult.error(f"Arguments for {tool.name} are not valid JSON: {data}")
        else:
            return ToolResult.error(f"Arguments for {tool.name} must be a JSON object")
    try:
        data = canonical(data, tool.aliases)
        # Strict JSON validation: `"2"` or `true` where an integer belongs is the model's
        # mistake to hear about, not something to guess at. The model's own validator is
        # called as `model_validate` calls it, without the seven keywords that wrapper passes
        # on (half its cost; a replay validates every call's arguments again).
        args: BaseModel = tool.args_model.__pydantic_validator__.validate_python(data, strict=True)
        return args
    except ArgumentsError as exc:
        return ToolResult.error(f"Invalid arguments for {tool.name}:\n- {exc}")
    except ValidationError as exc:
        described = _describe(exc, tool.parameters_schema())
        return ToolResult.error(f"Invalid arguments for {tool.name}:\n{described}")


def _describe(exc: ValidationError, schema: dict[str, Any]) -> str:
    lines = []
    for error in exc.errors(include_url=False):
        where = ".".join(str(part) for part in error["loc"]) or "(arguments)"
        if error["type"] == "extra_forbidden":
            valid = ", ".join(_properties(schema, error["loc"][:-1])) or "none"
            lines.append(f"- {where}: unknown argument (valid: {valid})")
        else:
            lines.append(f"- {where}: {error['msg']}")
    return "\n".join(lines)


def _properties(schema: dict[str, Any], loc: tuple[int | str, ...]) -> list[str]:
    """The property names of the object at `loc` in `schema` (as the model was shown it)."""
    for part in loc:
        if isinstance(part, int):
            inner = schema.get("items")
        else:
            properties = schema.get("properties")
            inner = properties.get(part) if isinstance(properties, dict) else None
        if not isinstance(inner, dict):
            return []
        schema = inner
    properties = schema.get("properties")
    return list(properties) if isinstance(properties, dict) else []


async def invoke(tool: Tool[Any, Any], args: BaseModel, ctx: ToolContext) -> ToolResult:
    """Execute a call; a `ToolError` becomes an error result, anything else propagates."""
    try:
        value = await tool.execute(args, ctx)
    except ToolError as exc:
        failed = ToolResult.error(exc.message)
        if exc.meta is None:
            return failed
        return ToolResult(content=failed.content, is_error=True, meta=_plain(tool, exc.meta))
    content = tuple(tool.render(args, value))
    return ToolResult(
        content=content, is_error=False, meta=_plain(tool, tool.presentation_meta(args, value))
    )


def _plain(tool: Tool[Any, Any], meta: JsonValue) -> JsonValue:
    try:
        check_plain_json(meta)
    except ValueError as exc:
        log.warning("dropping meta of %s: %s", tool.name, exc)
        return None
    return meta


def check_plain_json(value: JsonValue) -> None:
    """Raise `ValueError` unless `value` is plain, finite, string-keyed and not too large."""
    _check(value, depth=0)
    size = len(json.dumps(value, allow_nan=False, separators=(",", ":")).encode())
    if size > MAX_META_BYTES:
        raise ValueError(f"meta is {size} bytes, more than {MAX_META_BYTES}")


def _check(value: object, depth: int) -> None:
    if depth > 64:
        raise ValueError("meta is nested too deeply")
    if value is None or isinstance(value, bool | int | str):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("meta holds a non-finite number")
        return
    if isinstance(value, list):
        for item in value:
            _check(item, depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"meta has a non-string key {key!r}")
            _check(item, depth + 1)
        return
    raise ValueError(f"meta holds a {type(value).__name__}, which is not JSON")
