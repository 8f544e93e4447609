"""A tool's arguments: one spelling kept, other agents' spellings understood, the rest refused.

Models trained on other harnesses call `read` with `file_path`, `bash` with `timeout`, `grep`
with `-i`. Each tool lists the aliases it understands; a call that uses one is rewritten to
the canonical names before it is validated, and the log keeps the canonical call, so cards,
replay and the policy see one spelling. An argument that is neither a field nor an alias is
an error that names the valid ones.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, JsonValue

from tether.errors import ArgumentsError
from tether.jsontext import parse_json

__all__ = [
    "PATH_ALIASES",
    "Alias",
    "ArgumentAlias",
    "Fixed",
    "ToolArguments",
    "canonical",
    "canonical_text",
]


class ToolArguments(BaseModel):
    """The base of every built-in tool's arguments: an unknown argument is an error.

    A model is built with the tool's first call, not when its module loads: the model is
    told the tools' schemas from the stored ones (`tether.tools.schema`)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)


@dataclass(frozen=True)
class Alias:
    """`name` is another agent's name for the argument `canonical`, with the same meaning."""

    name: str
    canonical: str


@dataclass(frozen=True)
class Fixed:
    """`name` is accepted with `value` alone, which is what the tool always does; it is dropped.

    Any other value is refused with `otherwise`, which says why and what to do instead.
    """

    name: str
    value: JsonValue
    otherwise: str


ArgumentAlias = Alias | Fixed

PATH_ALIASES = (Alias("file_path", "path"), Alias("filePath", "path"))
"""What Claude Code's and opencode's file tools call `path`."""


def canonical(data: Mapping[str, Any], aliases: Sequence[ArgumentAlias]) -> dict[str, Any]:
    """`data` with every alias renamed to its argument and every fixed one dropped.

    Keys keep their order. Raises `ArgumentsError` when an alias and its argument are both
    given with different values, or a fixed argument has another value.
    """
    for alias in aliases:
        if alias.name in data:
            break
    else:
        # The model used no alias (the common case): nothing to rename, drop or compare.
        return dict(data)
    by_name = {alias.name: alias for alias in aliases}
    out: dict[str, Any] = {}
    given_as: dict[str, str] = {}
    for key, value in data.items():
        match by_name.get(key):
            case None:
                name = key
            case Alias(canonical=name):
                pass
            case Fixed(value=fixed, otherwise=otherwise):
                # `1` is not `true`: the value must be the very one, type included.
                if value != fixed or type(value) is not type(fixed):
                    raise ArgumentsError(f"{key}: {otherwise}")
                continue
        if name in out and out[name] != value:
            raise ArgumentsError(
                f"{key}: names the same argument as {given_as[name]}, with another value; "
                f"give {name} once"
            )
        out[name] = value
        given_as.setdefault(name, key)
    return out


def canonical_text(raw: str, aliases: Sequence[ArgumentAlias]) -> str:
    """The raw arguments of a call in canonical form; unchanged unless an alias was resolved.

    Arguments that are not a JSON object, or that `canonical` refuses, stay as they came: the
    call fails with its error, and the log keeps what the model sent.
    """
    if not aliases:
        return raw
    try:
        data = parse_json(raw)
    except ValueError:
        return raw
    if not isinstance(data, dict):
        return raw
    try:
        fixed = canonical(data, aliases)
    except ArgumentsError:
        return raw
    if list(fixed) == list(data):
        return raw
    return json.dumps(fixed, ensure_ascii=False)
