"""The wire form every typed message shares: camelCase names, optional fields left out when unset.

Cards (`tether.views`), content blocks, stored results, log events and the web protocol all
use it, so it sits beside them rather than inside any one of them.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import ConfigDict, Field
from pydantic.alias_generators import to_camel

__all__ = ["DEFERRED", "WIRE_CONFIG", "Opt"]

WIRE_CONFIG = ConfigDict(
    alias_generator=to_camel,
    validate_by_name=True,
    validate_by_alias=True,
    extra="ignore",
    defer_build=True,
)
"""Every wire type: camelCase on the wire, snake_case in Python.

Its schema is built when first used, not when its class is defined: a command pays only for
the types it validates or serializes (`tether sessions` none, `tether acp` few until asked).
"""

DEFERRED = ConfigDict(defer_build=True)
"""A `TypeAdapter`'s config for a union or a list of wire types: its schema, too, is built
when first used (an adapter of such a type is otherwise built where it is defined)."""

T = TypeVar("T")


def _is_none(value: Any) -> bool:
    return value is None


Opt = Annotated[T | None, Field(default=None, exclude_if=_is_none)]
"""An optional field that is absent from the JSON when it is unset (rather than `null`)."""
