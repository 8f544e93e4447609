"""`tether models`: the model catalog as this workspace sees it (the settings' entries over it)."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.table import Table

from tether.cli.safe_output import consoles, print_json
from tether.errors import SettingsError
from tether.figures import short_tokens
from tether.models.catalog import CATALOG, ModelInfo
from tether.session.log.store import data_dir
from tether.settings import load_settings
from tether.settings.effective import model_catalog

__all__ = ["configure", "run", "wire"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of `tether models`."""
    parser.add_argument("--cwd", type=Path, default=Path.cwd(), help="the workspace root")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def run(args: argparse.Namespace) -> int:
    """Print the catalog; 1 when the settings cannot be used, 2 for a bad `--cwd`."""
    out, err = consoles()
    if not args.cwd.is_dir():
        err.print(f"tether: error: --cwd {args.cwd} is not a directory", markup=False)
        return 2
    try:
        settings = load_settings(args.cwd.resolve(), data_dir())
    except SettingsError as exc:
        err.print(f"tether: error: {exc}", markup=False, soft_wrap=True)
        return 1
    own = model_catalog(settings)
    rows = [*(info for name, info in CATALOG.items() if name not in own), *own.values()]
    if args.json:
        print_json([wire(info, settings=info.id in own) for info in rows])
        return 0
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("model", no_wrap=True)
    for name in ("window", "max out", "$ in", "$ out", "$ cache rd", "$ cache wr"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("thinks")
    for info in rows:
        table.add_row(info.id + (" (settings)" if info.id in own else ""), *_cells(info))
    out.print(table)
    out.print(
        "prices in US dollars per million tokens (input, output, cache reads and writes); "
        "change or add models under `models` in settings.json",
        markup=False,
    )
    return 0


def wire(info: ModelInfo, *, settings: bool = False) -> dict[str, object]:
    """One entry as JSON; prices `null` when unknown."""
    price = info.price
    return {
        "id": info.id,
        "contextWindow": info.context_window,
        "maxOutput": info.max_output,
        "price": None
        if price is None
        else {
            "input": price.input,
            "output": price.output,
            "cacheRead": price.cache_read,
            "cacheWrite": price.cache_write,
        },
        "thinks": info.thinks,
        "fromSettings": settings,
    }


def _cells(info: ModelInfo) -> list[str]:
    def tokens(count: int | None) -> str:
        return short_tokens(count) if count is not None else "?"

    def dollars(value: float | None) -> str:
        return f"{value:g}" if value is not None else "unknown"

    price = info.price
    prices = (
        ["unknown"] * 4
        if price is None
        else [
            dollars(price.input),
            dollars(price.output),
            dollars(price.cache_read if price.cache_read is not None else price.input),
            dollars(price.cache_write if price.cache_write is not None else price.input),
        ]
    )
    return [
        tokens(info.context_window),
        tokens(info.max_output),
        *prices,
        "yes" if info.thinks else "no",
    ]
