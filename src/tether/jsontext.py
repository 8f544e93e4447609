"""Decoding JSON that came from outside: every way it can fail is one `ValueError`."""

from __future__ import annotations

import json
from typing import Any, NoReturn

__all__ = ["TooDeep", "parse_json"]


class TooDeep(ValueError):
    """The text nests arrays or objects more deeply than the decoder can follow."""


def parse_json(text: str | bytes) -> Any:
    """Strict `json.loads`: only RFC 8259 JSON, and every failure a `ValueError`.

    `json.loads` already raises `ValueError` for text that is not JSON (and bytes that are
    not UTF-8), but it takes `NaN` and `Infinity`, which no other JSON reader does, and a
    line of a thousand `[` exhausts the interpreter's stack instead: a caller that catches
    `ValueError` would let that `RecursionError` through and crash. Here it is `TooDeep`.
    """
    try:
        return json.loads(text, parse_constant=_not_json)
    except RecursionError:
        raise TooDeep("JSON nested too deeply to decode") from None


def _not_json(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON value")
