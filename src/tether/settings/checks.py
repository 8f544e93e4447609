"""Wording what is wrong in a settings file: a value's kind, where in the file, why a hook
matcher or a pydantic check refused it."""

from __future__ import annotations

import re

from pydantic import ValidationError

__all__ = ["bad_matcher", "first_error", "kind_of", "location_of"]


def bad_matcher(matcher: str | None) -> str | None:
    """Why a hook group's matcher is not a regular expression (`None`: it is one)."""
    if matcher is None:
        return None
    try:
        re.compile(matcher)
    except re.error as exc:
        return f"{matcher!r} is not a regular expression: {exc}"
    return None


def kind_of(value: object) -> str:
    """A JSON value's kind as a message says it: `an object`, `a list`, `null`, ..."""
    match value:
        case dict():
            return "an object"
        case list():
            return "a list"
        case str():
            return "a string"
        case bool():
            return "a boolean"
        case int() | float():
            return "a number"
        case None:
            return "null"
        case _:
            return type(value).__name__


def location_of(location: tuple[int | str, ...]) -> str:
    """A pydantic location as a key path: `sandbox.env[2]`."""
    out = ""
    for part in location:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def first_error(exc: ValidationError) -> str:
    """The first thing pydantic found wrong, where it is and what."""
    error = exc.errors()[0]
    where = location_of(error["loc"])
    detail = "unknown key" if error["type"] == "extra_forbidden" else error["msg"]
    return f"{where}: {detail}" if where else detail
