"""The change a permission request proposes, drawn before the answer from what any agent sends.

tether's own requests carry a diff card. Other agents put the change elsewhere: ACP's
standard `diff` content, or only the raw input — the old and new text under the names their
tools use (`old_string`/`new_string`, `oldString`/`newString`, ...) or, as opencode asks, a
unified diff (`diff`) beside the path (`filepath`). Those become a `diff` content item with
its numbered hunks, so the question shows the change and not only a folded raw input.
"""

from __future__ import annotations

import re
from typing import Any

from tether.web.enrich import with_hunks

__all__ = ["with_proposed_diff"]

PATH_KEYS = ("path", "file_path", "filePath", "filepath", "abs_path", "absolute_path")
"""Where agents' edit tools name the file, most common first."""
TEXT_KEYS = (
    ("old_string", "new_string"),
    ("oldString", "newString"),
    ("old_str", "new_str"),
    ("old_text", "new_text"),
    ("oldText", "newText"),
)
"""The pairs of old and new text agents' edit tools take."""
_HUNK = re.compile(r"@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@")


def with_proposed_diff(tool_call: dict[str, Any]) -> dict[str, Any]:
    """The request's tool call (enriched) with a `diff` content item drawn from its raw input,
    when its content has none and its raw input names a file and the change."""
    content = tool_call.get("content")
    items = content if isinstance(content, list) else []
    if any(isinstance(item, dict) and item.get("type") == "diff" for item in items):
        return tool_call
    raw = tool_call.get("rawInput")
    if not isinstance(raw, dict):
        return tool_call
    path = next((raw[k] for k in PATH_KEYS if isinstance(raw.get(k), str) and raw[k]), None)
    if path is None:
        return tool_call
    item = _from_texts(path, raw) or _from_unified(path, raw.get("diff"))
    if item is None:
        return tool_call
    return {**tool_call, "content": [*items, item]}


def _from_texts(path: str, raw: dict[str, Any]) -> dict[str, Any] | None:
    """An edit's old and new fragments: their hunks, not placed in the file (where is unknown)."""
    for old_key, new_key in TEXT_KEYS:
        old, new = raw.get(old_key), raw.get(new_key)
        if isinstance(old, str) and isinstance(new, str):
            item = {"type": "diff", "path": path, "oldText": old, "newText": new}
            # Fragments of the file, numbered from 1: where they sit in it is not known.
            hunks: dict[str, Any] = with_hunks(item)
            return {**hunks, "placed": False}
    return None


def _from_unified(path: str, diff: object) -> dict[str, Any] | None:
    """A unified diff's hunks as they number the file; the texts are the hunks' two sides."""
    if not isinstance(diff, str):
        return None
    hunks: list[dict[str, Any]] = []
    old_side: list[str] = []
    new_side: list[str] = []
    old_line = new_line = 0
    for line in diff.splitlines():
        if match := _HUNK.match(line):
            old_line, new_line = int(match[1]), int(match[2])
            hunks.append({"oldStart": old_line, "newStart": new_line, "lines": []})
            continue
        if not hunks or line.startswith("\\"):
            continue  # the file headers before the first hunk; "\ No newline at end of file"
        op, text = (line[:1] or " "), line[1:]
        if op == " ":
            row = {"op": " ", "old": old_line, "new": new_line, "text": text}
            old_side.append(text)
            new_side.append(text)
            old_line, new_line = old_line + 1, new_line + 1
        elif op == "-":
            row = {"op": "-", "old": old_line, "new": None, "text": text}
            old_side.append(text)
            old_line += 1
        elif op == "+":
            row = {"op": "+", "old": None, "new": new_line, "text": text}
            new_side.append(text)
            new_line += 1
        else:
            continue
        hunks[-1]["lines"].append(row)
    if not any(h["lines"] for h in hunks):
        return None
    return {
        "type": "diff",
        "path": path,
        "oldText": "".join(f"{t}\n" for t in old_side),
        "newText": "".join(f"{t}\n" for t in new_side),
        "hunks": hunks,
    }
