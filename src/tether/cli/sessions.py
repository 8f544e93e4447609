"""`tether sessions`: stored sessions, newest first, each with the agents it started under it."""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path

from rich.cells import cell_len
from rich.text import Text

from tether.cli.home_args import add_home_argument, use_home
from tether.cli.safe_output import consoles, print_json
from tether.render.pictures import printable
from tether.session import SessionStore
from tether.session.log.store import StoredSession

__all__ = [
    "MIN_PREFIX",
    "WIDE",
    "configure",
    "layout",
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
    out.print(layout(listed, depths, out.width), no_wrap=True, soft_wrap=False)
    return 0


_GAP = "  "
"""Between two columns, as a borderless table pads them."""


def layout(
    listed: list[tuple[str, str, StoredSession]], depths: dict[str, int], width: int
) -> Text:
    """The rows laid out as a borderless table, built as one text.

    Laid out here rather than by a rich `Table`: measuring every cell of a thousand rows
    was most of the command's time. The id and time are for copying: they never shrink;
    the title and cwd give way (a title ends in "…", a cwd loses its start, since its end
    names the project).
    """
    id_width = max(len("id"), *(cell_len(shown) for shown, _, _ in listed))
    when_width = max(len("updated"), *(len(when) for _, when, _ in listed))
    turns_width = max(len("turns"), *(len(str(info.turns)) for _, _, info in listed))
    room = max(1, width - id_width - when_width - turns_width - 3 * len(_GAP))
    cells: list[tuple[Text, Text | None]] = []
    for _, _, info in listed:
        # A log's header is data: a control character in it (a line break, an escape) is shown
        # as its picture, on the row, never sent to the terminal.
        title = Text(printable(info.title or "(untitled)", one_line=True))
        place = printable(_left_cut(_home(info.cwd), room), one_line=True)
        cells.append((title, Text(place) if depths[info.id] == 0 else None))
    title_width = min(
        room,
        max(
            cell_len("title · cwd"),
            *(max(t.cell_len, c.cell_len if c else 0) for t, c in cells),
        ),
    )
    lead = " " * (id_width + when_width + turns_width + 3 * len(_GAP))
    lines = [
        Text(
            _pad("id", id_width)
            + _GAP
            + _pad("updated", when_width)
            + _GAP
            + "turns".rjust(turns_width)
            + _GAP
            + _pad("title · cwd", title_width),
            style="bold",
        )
    ]
    for (shown, when, info), (title, cwd) in zip(listed, cells, strict=True):
        title.truncate(title_width, overflow="ellipsis", pad=True)
        row = Text(
            _pad(shown, id_width)
            + _GAP
            + _pad(when, when_width)
            + _GAP
            + str(info.turns).rjust(turns_width)
            + _GAP
        )
        lines.append(row.append_text(title))
        if cwd is not None:
            cwd.stylize("dim")
            cwd.truncate(title_width, overflow="ellipsis", pad=True)
            lines.append(Text(lead).append_text(cwd))
    return Text("\n").join(lines)


def _pad(text: str, width: int) -> str:
    """`text` filled with spaces to `width` terminal cells."""
    return text + " " * (width - cell_len(text))


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
