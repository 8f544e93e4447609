"""`tether sessions`: stored sessions, newest first."""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path

from rich.table import Table
from rich.text import Text

from tether.cli.prompting import consoles
from tether.cli.safe_output import print_json
from tether.session import SessionStore
from tether.session.store import STORED_SESSION

HELP = "list stored sessions, newest first"


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of `tether sessions`."""
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "-n", "--limit", type=int, default=20, help="how many to list (0: all; default 20)"
    )


def run(args: argparse.Namespace) -> int:
    """Print the list."""
    out, _err = consoles()
    infos = SessionStore.default().list_sessions()
    if args.limit > 0:
        infos = infos[: args.limit]
    if args.json:
        print_json([STORED_SESSION.dump_python(i, mode="json", by_alias=True) for i in infos])
        return 0
    if not infos:
        out.print("no sessions yet: try `tether demo`", markup=False)
        return 0
    # Ids share their leading time digits; below 120 columns each shows the shortest prefix
    # that tells it apart (what `show` and `--continue` accept), so the title keeps its room.
    ids = [info.id for info in infos]
    short = out.width < WIDE
    listed = [
        (unique_prefix(info.id, ids) if short else info.id, _when(info.updated_at), info)
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
        title.append("\n").append(_left_cut(_home(info.cwd), room), style="dim")
        table.add_row(shown, when, str(info.turns), title)
    out.print(table)
    return 0


WIDE = 120
"""From this width on, ids are listed whole."""
MIN_PREFIX = 8


def unique_prefix(session_id: str, ids: list[str]) -> str:
    """The shortest prefix (at least `MIN_PREFIX`) of `session_id` no other id starts with."""
    for length in range(MIN_PREFIX, len(session_id)):
        prefix = session_id[:length]
        if not any(other != session_id and other.startswith(prefix) for other in ids):
            return prefix
    return session_id


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
