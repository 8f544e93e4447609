"""Shared pieces of the card types: camelCase wire names and optional fields left out when unset."""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import ConfigDict, Field
from pydantic.alias_generators import to_camel

CARD_CONFIG = ConfigDict(
    alias_generator=to_camel,
    validate_by_name=True,
    validate_by_alias=True,
    extra="ignore",
)
"""Every card type: camelCase on the wire, snake_case in Python."""

T = TypeVar("T")


def _is_none(value: Any) -> bool:
    return value is None


Opt = Annotated[T | None, Field(default=None, exclude_if=_is_none)]
"""An optional field that is absent from the JSON when it is unset (rather than `null`)."""
