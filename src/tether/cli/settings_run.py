"""Settings for a run from the terminal: the files loaded with the flags on top, problems on
stderr, the workspace's trust asked (or said) once, and why `web_search` is not offered.

What each value then comes from is `tether.settings.effective`'s to say.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import assert_never

from rich.console import Console

from tether.policy import PermissionAsker, settle_trust, untrusted_notice
from tether.settings import Settings, SettingsFlags, load_settings
from tether.settings.report import claude_file_lines
from tether.tools.web import NoSearch, SearchChoice, SearchSetup

__all__ = ["run_settings", "say_search"]


def run_settings(
    cwd: Path, home: Path, flags: SettingsFlags, asker: PermissionAsker | None, err: Console
) -> Settings:
    """The settings of workspace `cwd`: problems printed, trust asked when someone can answer,
    else said. Raises `SettingsError` for a file that cannot be used."""
    settings = load_settings(cwd.resolve(), home, flags=flags)
    for line in claude_file_lines(settings):
        err.print(f"tether: Claude Code settings {line}", markup=False, soft_wrap=True)
    for problem in settings.problems:
        err.print(
            f"tether: warning: {problem} (ignored)", style="yellow", markup=False, soft_wrap=True
        )
    if asker is not None:
        settings = asyncio.run(settle_trust(settings, asker))
    # Said also when the person declined: the run goes on with the restrictive rules only.
    notice = untrusted_notice(settings)
    if notice is not None:
        err.print(f"tether: {notice}", style="yellow", markup=False, soft_wrap=True)
    return settings


def say_search(setup: SearchSetup, err: Console, *, verbose: bool) -> None:
    """Say why `web_search` is not offered: always when the settings asked for a backend that
    cannot be used, else only when `verbose`; with `verbose`, also which backend it uses."""
    match setup:
        case NoSearch(reason=reason, asked=asked):
            if asked or verbose:
                err.print(
                    f"tether: web_search is not offered: {reason}",
                    style="yellow" if asked else "dim",
                    markup=False,
                    soft_wrap=True,
                )
        case SearchChoice(backend=backend, because=because):
            if verbose:
                err.print(
                    f"tether: web_search uses {backend.label} ({because})",
                    style="dim",
                    markup=False,
                    soft_wrap=True,
                )
        case _:
            assert_never(setup)
