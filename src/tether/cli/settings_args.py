"""The settings flags shared by the commands: `--allow`/`--deny`, and every flag that sets a
setting gathered as the settings' last layer.

Light on purpose (the settings load in `settings_run`), so `--help` loads no settings.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tether.settings import SettingsFlags

__all__ = ["add_settings_arguments", "settings_flags"]


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
    from tether.settings import SettingsFlags

    return SettingsFlags(
        mode=getattr(args, "mode", None),
        model=getattr(args, "model", None),
        thinking=getattr(args, "thinking", None),
        sandbox_mode=getattr(args, "sandbox", None),
        allow_network=True if getattr(args, "allow_network", False) else None,
        allow=tuple(getattr(args, "allow", ()) or ()),
        deny=tuple(getattr(args, "deny", ()) or ()),
    )
