"""Search results' stored projection, and its narrowing back into cards.

`presentation_meta` stores `{files, truncated, total, totalFiles?}` (grep's `content` and
`count`) or `{paths, truncated, total}` (glob, grep's `files_with_matches`), in the cards'
own camelCase shape. The narrowing functions take that opaque JSON back and return `None`
for anything off, field by field: a non-dict; `truncated` not a bool; `total` not an integer
(a bool, a float such as `2.0` is none) or below what is listed, or above it while
`truncated` is false; a path that is not a non-empty string or appears twice; a file with no
matching line and no `count`, or with both; a `count` not an integer >= 1; a `totalFiles`
present but not an integer at least the files listed (a stored result without it is fine);
a line that is not `{lineNumber: int >= 1, line: str, context?: bool}`; line numbers not
strictly increasing within a file. What is listed is the matching lines, or the files'
counts. Unknown keys are ignored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeGuard

from pydantic import JsonValue

from tether.tools.search.value import GlobValue, GrepValue
from tether.views import SearchFile, SearchMatch, SearchPathsResultView

__all__ = [
    "MatchesMeta",
    "PathsMeta",
    "glob_meta",
    "grep_meta",
    "matches_meta_from_meta",
    "paths_card",
    "paths_meta_from_meta",
]


@dataclass(frozen=True)
class MatchesMeta:
    """A grep result's projection, checked."""

    files: tuple[SearchFile, ...]
    truncated: bool
    total: int
    total_files: int | None = None


@dataclass(frozen=True)
class PathsMeta:
    """A glob result's projection, checked."""

    paths: tuple[str, ...]
    truncated: bool
    total: int


def grep_meta(value: GrepValue) -> JsonValue:
    """`{files: [{path, matches: [{lineNumber, line, context?}], count?}], truncated, total,
    totalFiles?}`, or for `files_with_matches` `{paths, truncated, total}`."""
    if value.mode == "files_with_matches":
        paths: list[JsonValue] = [f.path for f in value.files]
        return {"paths": paths, "truncated": value.truncated, "total": value.total}
    meta: dict[str, JsonValue] = {
        "files": [_file_meta(f) for f in value.files],
        "truncated": value.truncated,
        "total": value.total,
    }
    if value.total_files is not None:
        meta["totalFiles"] = value.total_files
    return meta


def _file_meta(file: SearchFile) -> JsonValue:
    matches: list[JsonValue] = []
    for m in file.matches:
        line: dict[str, JsonValue] = {"lineNumber": m.line_number, "line": m.line}
        if m.context:
            line["context"] = True
        matches.append(line)
    out: dict[str, JsonValue] = {"path": file.path, "matches": matches}
    if file.count is not None:
        out["count"] = file.count
    return out


def glob_meta(value: GlobValue) -> JsonValue:
    """`{paths, truncated, total}`."""
    return {"paths": list(value.paths), "truncated": value.truncated, "total": value.total}


def matches_meta_from_meta(meta: object) -> MatchesMeta | None:
    """Narrow stored grep meta; `None` when anything is off. Never raises."""
    if not isinstance(meta, dict):
        return None
    raw_files, truncated, total = meta.get("files"), meta.get("truncated"), meta.get("total")
    if not isinstance(raw_files, list) or not isinstance(truncated, bool):
        return None
    files: list[SearchFile] = []
    seen: set[str] = set()
    for raw in raw_files:
        narrowed = _file(raw)
        if narrowed is None or narrowed.path in seen:
            return None
        seen.add(narrowed.path)
        files.append(narrowed)
    if not _total_fits(total, sum(_listed(f) for f in files), truncated):
        return None
    total_files = meta.get("totalFiles")
    if total_files is not None and (not _is_int(total_files) or total_files < len(files)):
        return None
    return MatchesMeta(tuple(files), truncated, total, total_files)


def _listed(file: SearchFile) -> int:
    if file.count is not None:
        return file.count
    return sum(not m.context for m in file.matches)


def paths_meta_from_meta(meta: object) -> PathsMeta | None:
    """Narrow stored glob meta; `None` when anything is off. Never raises."""
    if not isinstance(meta, dict):
        return None
    raw_paths, truncated, total = meta.get("paths"), meta.get("truncated"), meta.get("total")
    if not isinstance(raw_paths, list) or not isinstance(truncated, bool):
        return None
    if not all(_is_path(p) for p in raw_paths) or len(set(raw_paths)) != len(raw_paths):
        return None
    if not _total_fits(total, len(raw_paths), truncated):
        return None
    return PathsMeta(tuple(raw_paths), truncated, total)


def paths_card(title: str, meta: object) -> SearchPathsResultView | None:
    """The search card of a listing (glob, ls, grep's `files_with_matches`) from its stored
    meta; `None` (the generic card) when the meta is unusable."""
    paths = paths_meta_from_meta(meta)
    if paths is None:
        return None
    return SearchPathsResultView(
        title=title, paths=paths.paths, truncated=paths.truncated, total=paths.total
    )


def _file(raw: object) -> SearchFile | None:
    if not isinstance(raw, dict):
        return None
    path, raw_matches, count = raw.get("path"), raw.get("matches"), raw.get("count")
    if not _is_path(path) or not isinstance(raw_matches, list):
        return None
    if count is not None and (not _is_int(count) or count < 1 or raw_matches):
        return None
    matches = []
    previous = 0
    for item in raw_matches:
        if not isinstance(item, dict):
            return None
        number, line, context = item.get("lineNumber"), item.get("line"), item.get("context")
        if not _is_int(number) or number <= previous or not isinstance(line, str):
            return None
        if context is not None and not isinstance(context, bool):
            return None
        previous = number
        matches.append(SearchMatch(line_number=number, line=line, context=context or None))
    if count is None and not any(not m.context for m in matches):
        return None
    return SearchFile(path=path, matches=tuple(matches), count=count)


def _total_fits(total: object, shown: int, truncated: bool) -> TypeGuard[int]:
    if not _is_int(total) or total < shown:
        return False
    return truncated or total == shown


def _is_path(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and value != ""


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
