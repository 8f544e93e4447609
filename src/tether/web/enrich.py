"""Prepares ACP session updates for the page: checks tether's cards and adds what JS lacks.

The page renders a `_meta.tether.view` only after it passed the card unions here; a view
that does not validate (an unknown card, a malformed field) is dropped, so the page falls
back to the update's standard ACP content. Read cards gain `tokens` (Pygments, one token
list per line), web cards gain `html` (their markdown rendered safely), and every file
diff, in a card or in standard content, gains `hunks`.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import ValidationError

from tether.highlight import highlight_lines
from tether.views import dump_view, load_call_view, load_result_view
from tether.web.linediff import diff_hunks, line_count
from tether.web.markdown import markdown_html

__all__ = ["enrich_tool_call", "enrich_update"]

log = logging.getLogger(__name__)


def enrich_update(update: dict[str, Any]) -> dict[str, Any]:
    """The update with its tether view validated and enriched, and its diffs given hunks."""
    kind = update.get("sessionUpdate")
    if kind not in ("tool_call", "tool_call_update"):
        return update
    return enrich_tool_call(update, call=kind == "tool_call")


def enrich_tool_call(tool_call: dict[str, Any], *, call: bool) -> dict[str, Any]:
    """A tool call (start, update, or the one a permission request shows), enriched.

    `call` says which card union its view belongs to: the call side or the result side.
    """
    out = dict(tool_call)
    if isinstance(content := out.get("content"), list):
        out["content"] = [_with_hunks(item) for item in content]
    meta = out.get("_meta")
    if isinstance(meta, dict) and isinstance(tether := meta.get("tether"), dict):
        view = tether.get("view")
        checked = _checked_view(view, call=call) if view is not None else None
        tether = {k: v for k, v in tether.items() if k != "view"}
        if checked is not None:
            tether["view"] = checked
        out["_meta"] = {**meta, "tether": tether}
    return out


def _checked_view(view: object, *, call: bool) -> dict[str, Any] | None:
    try:
        dumped = dump_view(load_call_view(view) if call else load_result_view(view))
    except ValidationError as exc:
        log.info("dropping a tether view the card unions reject: %s", exc.errors()[:1])
        return None
    if dumped["card"] == "read":
        texts = [line["text"] for line in dumped["lines"]]
        dumped["tokens"] = highlight_lines(texts, dumped.get("lang"))
    if dumped["card"] == "web" and isinstance(dumped.get("content"), str):
        dumped["html"] = markdown_html(dumped["content"])
    if dumped["card"] == "diff":
        dumped["diffs"] = _placed_diffs(dumped["diffs"], dumped.get("locations") or [])
    return dumped


def _placed_diffs(
    diffs: list[dict[str, Any]], locations: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Card diffs with hunks numbered where the file puts them.

    An edit's FileDiff is a fragment of the file; its location (one per diff, when the
    card has them) is where it starts in the new file. Earlier fragments of the same file
    shift the old numbering by what they added or removed. A fragment with no known
    start is `placed: false`: the page shows it without line numbers rather than wrong ones.
    """
    shift: dict[str, int] = {}
    out = []
    for index, diff in enumerate(diffs):
        path, old, new = diff["path"], diff["oldText"], diff["newText"]
        line = locations[index].get("line") if len(locations) == len(diffs) else None
        if old is None:
            out.append({**diff, "placed": True, "hunks": diff_hunks(None, new)})
        elif isinstance(line, int):
            old_start = line - shift.get(path, 0)
            hunks = diff_hunks(old, new, old_start=old_start, new_start=line)
            out.append({**diff, "placed": True, "hunks": hunks})
        else:
            out.append({**diff, "placed": False, "hunks": diff_hunks(old, new)})
        shift[path] = shift.get(path, 0) + line_count(new) - line_count(old)
    return out


def _with_hunks(item: Any) -> Any:
    # ACP's `{type: "diff"}` content: by ACP's convention whole files, numbered from 1.
    if not isinstance(item, dict) or not isinstance(new := item.get("newText"), str):
        return item
    old = item.get("oldText")
    if "path" not in item or not (old is None or isinstance(old, str)):
        return item
    return {**item, "hunks": diff_hunks(old, new)}
