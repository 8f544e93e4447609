"""`tether sessions`: stored sessions, newest first, each with the agents it started under it."""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path

from rich.table import Table
from rich.text import Text

from tether.cli.home_args import add_home_argument, use_home
from tether.cli.safe_output import consoles, print_json
from tether.session import SessionStore
from tether.session.log.store import StoredSession

__all__ = [
    "MIN_PREFIX",
    "WIDE",
    "configure",
    "run",
    "session_tree",
    "unique_prefix",
    "unique_prefixes",
]


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of `tether sessions`."""
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_home_argument(parser)
    parser.add_argument(
        "-n", "--limit", type=int, default=20, help="how many to list (0: all; default 20)"
    )
    parser.add_argument(
        "--top-level",
        action="store_true",
        help="leave out the sessions agents ran (shown under the session that started them)",
    )


def run(args: argparse.Namespace) -> int:
    """Print the list."""
    out, err = consoles()
    try:
        use_home(args)
    except ValueError as exc:
        err.print(f"tether: error: {exc}", markup=False, soft_wrap=True)
        return 2
    found, unreadable = SessionStore.default().scan()
    # A bad log is named where people look, and the others are listed as usual.
    for path, why in unreadable:
        err.print(f"tether: {path} cannot be listed: {why}", style="yellow", markup=False)
    rows = session_tree(found)
    if args.top_level:
        rows = [(info, depth) for info, depth in rows if depth == 0]
    if args.limit > 0:
        rows = _first_trees(rows, args.limit)
    depths = {info.id: depth for info, depth in rows}
    infos = [info for info, _ in rows]
    if args.json:
        print_json([info.wire() for info in infos])
        return 0
    if not infos:
        out.print("no sessions yet: try `tether demo`", markup=False)
        return 0
    # Ids share their leading time digits; below 120 columns each shows the shortest prefix
    # that tells it apart (what `show` and `--continue` accept), so the title keeps its room.
    short = out.width < WIDE
    prefixes = unique_prefixes([info.id for info in infos]) if short else {}
    listed = [
        (
            _indent(depths[info.id]) + prefixes.get(info.id, info.id),
            _when(info.updated_at),
            info,
        )
        for info in infos
    ]
    id_width = max(len(r[0]) for r in listed)
    when_width = max(len("updated"), *(len(r[1]) for r in listed))
    table = Table(box=None, pad_edge=False, header_style="bold")
    # The id and time are for copying: they never shrink; the title and cwd give way.
    table.add_column("id", no_wrap=True, min_width=id_width)
    table.add_column("updated", no_wrap=True, min_width=when_width)
    table.add_column("turns", no_wrap=True, justify="right", min_width=5)
    table.add_column("title · cwd", no_wrap=True, overflow="ellipsis", ratio=1)
    # The cwd's end names the project: a long one loses its start, not its end.
    room = out.width - id_width - when_width - 5 - 3 * 2
    for shown, when, info in listed:
        title = Text(info.title or "(untitled)")
        if depths[info.id] == 0:
            title.append("\n").append(_left_cut(_home(info.cwd), room), style="dim")
        table.add_row(shown, when, str(info.turns), title)
    out.print(table)
    return 0


def session_tree(infos: list[StoredSession]) -> list[tuple[StoredSession, int]]:
    """Sessions as a tree, with their depth: the top level newest first, and under each the
    sessions its agents ran, in the order they started (a child whose parent is gone is top)."""
    known = {info.id for info in infos}
    children: dict[str, list[StoredSession]] = {}
    top: list[StoredSession] = []
    for info in infos:
        if info.parent is not None and info.parent.id in known and info.parent.id != info.id:
            children.setdefault(info.parent.id, []).append(info)
        else:
            top.append(info)
    rows: list[tuple[StoredSession, int]] = []
    seen: set[str] = set()

    def add(info: StoredSession, depth: int) -> None:
        if info.id in seen:  # a cycle of links is no tree: each session is listed once
            return
        seen.add(info.id)
        rows.append((info, depth))
        for child in sorted(children.get(info.id, []), key=lambda c: c.created_at):
            add(child, depth + 1)

    for info in top:
        add(info, 0)
    for info in infos:  # sessions only a cycle leads to
        add(info, 0)
    return rows


def _first_trees(
    rows: list[tuple[StoredSession, int]], limit: int
) -> list[tuple[StoredSession, int]]:
    """The first `limit` top-level sessions, each with its children."""
    kept: list[tuple[StoredSession, int]] = []
    tops = 0
    for info, depth in rows:
        if depth == 0:
            tops += 1
            if tops > limit:
                break
        kept.append((info, depth))
    return kept


def _indent(depth: int) -> str:
    return "" if depth == 0 else "  " * (depth - 1) + "└ "


WIDE = 120
"""From this width on, ids are listed whole."""
MIN_PREFIX = 8


def unique_prefix(session_id: str, ids: list[str]) -> str:
    """The shortest prefix (at least `MIN_PREFIX`) of `session_id` no other id starts with."""
    return unique_prefixes(ids)[session_id]


def unique_prefixes(ids: list[str]) -> dict[str, str]:
    """Each id's `unique_prefix`, found in one sort: only an id's neighbours in sorted order
    can share its longest common prefix, so the list costs n log n, not n squared."""
    ordered = sorted(set(ids))
    prefixes: dict[str, str] = {}
    for index, session_id in enumerate(ordered):
        shared = max(
            (
                _common(session_id, ordered[j])
                for j in (index - 1, index + 1)
                if 0 <= j < len(ordered)
            ),
            default=0,
        )
        length = max(MIN_PREFIX, shared + 1)
        prefixes[session_id] = session_id if length >= len(session_id) else session_id[:length]
    return prefixes


def _common(a: str, b: str) -> int:
    """The length of the prefix `a` and `b` share."""
    length = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        length += 1
    return length


def _when(time: str) -> str:
    """`HH:MM` today, else `Mon DD` (with the year when it is not this one)."""
    try:
        stamp = datetime.fromisoformat(time).astimezone()
    except ValueError:
        return time
    now = datetime.now().astimezone()
    if stamp.date() == now.date():
        return stamp.strftime("%H:%M")
    return stamp.strftime("%b %d" if stamp.year == now.year else "%b %d %Y")


def _left_cut(text: str, width: int) -> str:
    if width < 8 or len(text) <= width:
        return text
    return "…" + text[len(text) - width + 1 :]


def _home(cwd: str) -> str:
    home = str(Path.home())
    if cwd == home or cwd.startswith(home + "/"):
        return "~" + cwd[len(home) :]
    return cwd
