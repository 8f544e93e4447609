"""The status bar under the input box: where, which model, the mode, the sandbox, the budget.

`~/src/app · deepseek-chat · ask · workspace-write · 37% of 128k · compacts at 80%`, the
mode coloured (auto in reverse red, so it is never missed) and the budget amber past 60%,
red past the compaction threshold. Parts give way from the least needed when it is narrow.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from prompt_toolkit.formatted_text import StyleAndTextTuples

__all__ = ["AMBER_AT", "Level", "StatusFacts", "budget_level", "short_cwd", "status_fragments"]

AMBER_AT = 0.6
"""The share of the window past which the budget turns amber."""

Level = Literal["ok", "amber", "red"]

_MODE_STYLE = {
    "ask": "class:mode.ask",
    "accept-edits": "class:mode.accept-edits",
    "auto": "class:mode.auto",
    "plan": "class:mode.plan",
}
_LEVEL_STYLE = {"ok": "class:status", "amber": "class:budget.amber", "red": "class:budget.red"}
_SEPARATOR = " · "


@dataclass
class StatusFacts:
    """What the status bar says; the session fills it in as it learns."""

    cwd: Path
    mode: str
    model: str | None = None
    sandbox: str | None = None
    budget: str | None = None
    """`37% of 128k`."""
    level: Level = "ok"
    threshold: str | None = None
    """`compacts at 80%`."""
    note: str | None = None
    """A passing word (`starting…`, `press Ctrl+C again to exit`), shown first."""
    jobs: int = 0
    """Background commands running (`/bashes` lists them)."""


def status_fragments(facts: StatusFacts, width: int) -> StyleAndTextTuples:
    """The bar for `width` columns: the parts that fit, the most needed kept first."""
    # (priority, style, text): a higher priority stays longer.
    parts: list[tuple[int, str, str]] = []
    if facts.note:
        parts.append((9, "class:status.note", facts.note))
    parts.append((3, "class:status", short_cwd(facts.cwd)))
    if facts.model:
        parts.append((5, "class:status", facts.model))
    mode = f" {facts.mode} " if facts.mode == "auto" else facts.mode
    parts.append((8, _MODE_STYLE.get(facts.mode, "class:status"), mode))
    if facts.sandbox:
        parts.append((2, "class:status", facts.sandbox))
    if facts.jobs:
        parts.append((7, "class:status.note", f"{facts.jobs} background · /bashes"))
    if facts.budget:
        parts.append((6, _LEVEL_STYLE[facts.level], facts.budget))
    if facts.threshold:
        parts.append((1, "class:status", facts.threshold))
    parts.append((0, "class:status.hint", "shift+tab: mode · /help"))
    while len(parts) > 1 and _length(parts) > width - 1:
        parts.remove(min(parts, key=lambda part: part[0]))
    fragments: StyleAndTextTuples = [("", " ")]
    for index, (_, style, text) in enumerate(parts):
        if index:
            fragments.append(("class:status.separator", _SEPARATOR))
        fragments.append((style, text))
    return fragments


def budget_level(used: int, window: int, compact_at: float) -> Level:
    """`red` past the compaction threshold, `amber` past `AMBER_AT`, else `ok`."""
    share = used / window if window else 0.0
    if share > compact_at:
        return "red"
    return "amber" if share > AMBER_AT else "ok"


def short_cwd(cwd: Path, room: int = 32) -> str:
    """The workspace as people say it: `~` for home, its end kept when it is long."""
    text = str(cwd)
    home = os.path.expanduser("~")
    if home != "/" and (text == home or text.startswith(home + os.sep)):
        text = "~" + text[len(home) :]
    if len(text) <= room:
        return text
    tail = text[-(room - 1) :]
    cut = tail.find(os.sep)
    return "…" + (tail[cut:] if 0 <= cut < len(tail) - 1 else tail)


def _length(parts: list[tuple[int, str, str]]) -> int:
    return 1 + sum(len(text) for _, _, text in parts) + len(_SEPARATOR) * (len(parts) - 1)
