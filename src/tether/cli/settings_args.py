"""Settings for a run from the terminal: the `--allow`/`--deny` flags, the files loaded with
the flags on top, problems on stderr, and the workspace's trust asked (or said) once.

What each value then comes from is `tether.settings.effective`'s to say.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import assert_never

from rich.console import Console

from tether.policy import PermissionAsker, settle_trust, untrusted_notice
from tether.settings import Settings, SettingsFlags, load_settings
from tether.settings.effective import effective_mode, sandbox_policy, search_setup
from tether.settings.report import claude_file_lines
from tether.tools.web import NoSearch, SearchChoice, SearchSetup

__all__ = [
    "add_settings_arguments",
    "effective_mode",
    "run_settings",
    "sandbox_policy",
    "say_search",
    "search_setup",
    "settings_flags",
]


def add_settings_arguments(parser: argparse.ArgumentParser) -> None:
    """`--allow RULE` and `--deny RULE` (repeatable), on top of the settings files."""
    parser.add_argument(
        "--allow",
        action="append",
        default=[],
        metavar="RULE",
        help="allow what RULE covers, e.g. 'bash(npm test)' (repeatable)",
    )
    parser.add_argument(
        "--deny",
        action="append",
        default=[],
        metavar="RULE",
        help="refuse what RULE covers, e.g. 'read(.env)' (repeatable)",
    )


def settings_flags(args: argparse.Namespace) -> SettingsFlags:
    """What the command line sets, as the last layer of settings."""
    return SettingsFlags(
        mode=getattr(args, "mode", None),
        model=getattr(args, "model", None),
        thinking=getattr(args, "thinking", None),
        sandbox_mode=getattr(args, "sandbox", None),
        allow_network=True if getattr(args, "allow_network", False) else None,
        allow=tuple(getattr(args, "allow", ()) or ()),
        deny=tuple(getattr(args, "deny", ()) or ()),
    )


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
