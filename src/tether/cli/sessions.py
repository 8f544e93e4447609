"""`tether sessions`: stored sessions, newest first."""

from __future__ import annotations

import argparse
import json

from rich.table import Table

from tether.cli.prompting import consoles
from tether.session import SessionStore

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
        rows = [
            {
                "id": info.id,
                "cwd": info.cwd,
                "title": info.title,
                "createdAt": info.created_at,
                "updatedAt": info.updated_at,
                "turns": info.turns,
            }
            for info in infos
        ]
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    if not infos:
        out.print("no sessions yet: try `tether demo`", markup=False)
        return 0
    table = Table(box=None, pad_edge=False, header_style="bold")
    # The id and time are for copying: they never shrink; the title and cwd give way.
    table.add_column("id", no_wrap=True, min_width=20)
    table.add_column("updated", no_wrap=True, min_width=16)
    table.add_column("turns", no_wrap=True, justify="right")
    table.add_column("title", no_wrap=True, overflow="ellipsis", max_width=48)
    table.add_column("cwd", overflow="fold")
    for info in infos:
        table.add_row(info.id, _short(info.updated_at), str(info.turns), info.title or "", info.cwd)
    out.print(table)
    return 0


def _short(time: str) -> str:
    return time.replace("T", " ")[:16]
