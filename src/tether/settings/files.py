"""Reading one settings file: every key checked, each problem reported, the rest kept.

A file that cannot be used at all — not JSON, not an object, a duplicate key, a FIFO, too
large — is a `SettingsError`: tether stops rather than run without its rules. So is a
`permissions` that is not an object, or `deny`/`ask` that are not lists, since their rules
would be lost. Anything else wrong (an unknown key, a malformed rule, a value of the wrong
type) is a `SettingsProblem` naming the file, the key and what is wrong; it is dropped and
the rest of the file applies.

Claude Code's files (`tether.settings.claude`) are never fatal: comments and trailing
commas are allowed as Claude Code allows them, a file that still cannot be read is skipped
with a problem saying so, and what tether's files would stop for is a problem there too.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

from tether.bounded import read_bounded_text
from tether.errors import SettingsError, UnreadableFile
from tether.jsontext import strip_jsonc
from tether.settings.checks import kind_of
from tether.settings.layer import Layer, SettingsProblem
from tether.settings.reader import DocumentReader
from tether.settings.sources import SettingsSource
from tether.settings.trust import text_digest

__all__ = ["read_layer"]


def read_layer(source: SettingsSource, *, root: Path, home: Path) -> Layer | None:
    """The checked content of `source`'s file; `None` when there is no file."""
    assert source.path is not None
    path = source.path
    try:
        text = read_bounded_text(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None
    except UnreadableFile as exc:
        if source.claude:
            return _skipped(source, f"cannot be read ({exc})", text_digest(f"unreadable: {exc}"))
        raise SettingsError(f"cannot read settings: {exc}") from None
    digest = text_digest(text)
    problems: list[SettingsProblem] = []
    try:
        document = _decode(strip_jsonc(text) if source.claude else text, path, problems, source)
        if not isinstance(document, dict):
            raise SettingsError(f"{path}: settings must be a JSON object, not {kind_of(document)}")
    except (SettingsError, ValueError) as exc:
        if not source.claude:
            raise
        return _skipped(source, str(exc).removeprefix(f"{path}: "), digest)
    reader = DocumentReader(source, root, home, problems)
    layer = reader.read(document)
    return replace(layer, digest=digest)


def _skipped(source: SettingsSource, why: str, digest: str) -> Layer:
    problem = SettingsProblem(source, "(file)", f"{why}; the whole file is skipped")
    return Layer(source, problems=(problem,), digest=digest, skipped=why)


def _decode(text: str, path: Path, problems: list[SettingsProblem], source: SettingsSource) -> Any:
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in items:
            if key in result:
                if not source.claude:
                    raise ValueError(f"the key {key!r} appears twice in one object")
                # As Claude Code's JSON reader does: the last one counts.
                problems.append(
                    SettingsProblem(source, key, "appears twice in one object; the last is used")
                )
            result[key] = value
        return result

    def constant(name: str) -> NoReturn:
        raise ValueError(f"{name} is not a JSON value")

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except RecursionError:
        raise SettingsError(f"{path}: not valid JSON: nested too deeply") from None
    except ValueError as exc:
        raise SettingsError(f"{path}: not valid JSON: {exc}") from None
