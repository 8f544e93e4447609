"""Settings for a run from the terminal: the `--allow`/`--deny` flags, the files loaded with
the flags on top, problems on stderr, and the workspace's trust asked (or said) once.

What a value comes from, first found wins: the flag, then the environment (`$TETHER_MODEL`,
`$TETHER_SANDBOX`), then the settings files, then the default.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from dataclasses import replace
from pathlib import Path

from rich.console import Console

from tether.cli.model_args import DEFAULT_MODEL
from tether.policy import DEFAULT_MODE, PermissionAsker, PolicyMode, settle_trust, untrusted_notice
from tether.settings import Settings, SettingsFlags, load_settings
from tether.tools.bash.sandbox import SANDBOX_ENV, SandboxPolicy

__all__ = [
    "add_settings_arguments",
    "effective_mode",
    "extra_roots",
    "model_spec",
    "run_settings",
    "sandbox_from",
    "settings_flags",
    "tool_env",
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
    for problem in settings.problems:
        err.print(
            f"tether: warning: {problem} (ignored)", style="yellow", markup=False, soft_wrap=True
        )
    if asker is not None:
        return asyncio.run(settle_trust(settings, asker))
    notice = untrusted_notice(settings)
    if notice is not None:
        err.print(f"tether: {notice}", style="yellow", markup=False, soft_wrap=True)
    return settings


def effective_mode(settings: Settings) -> PolicyMode:
    """The mode: `--mode`, else `permissions.defaultMode`, else ask."""
    return settings.default_mode.value if settings.default_mode is not None else DEFAULT_MODE


def model_spec(settings: Settings) -> str:
    """The model: `--model`, else `$TETHER_MODEL`, else the settings' `model`, else openai."""
    chosen = settings.model
    if chosen is not None and chosen.source.scope == "flags":
        return chosen.value
    return os.environ.get("TETHER_MODEL") or (chosen.value if chosen else DEFAULT_MODEL)


def sandbox_from(settings: Settings) -> SandboxPolicy:
    """The sandbox: `--sandbox`, else `$TETHER_SANDBOX`, else `sandbox.mode`, else
    workspace-write; the network as `--allow-network` or `sandbox.allowNetwork` say; the
    variables `sandbox.env` passes in and the limits (`sandbox.tmpSizeMiB`, `maxProcesses`,
    `memoryMiB`).
    Raises `ValueError` for a bad `$TETHER_SANDBOX`."""
    chosen = settings.sandbox.mode
    mode: str | None = None
    if chosen is not None and chosen.source.scope == "flags":
        mode = chosen.value
    else:
        mode = os.environ.get(SANDBOX_ENV) or (chosen.value if chosen else None)
    network = settings.sandbox.allow_network
    policy = SandboxPolicy.from_env(mode, allow_network=bool(network and network.value))
    size = settings.sandbox.tmp_size_mib
    processes = settings.sandbox.max_processes
    memory = settings.sandbox.memory_mib
    return replace(
        policy,
        env=tuple(dict.fromkeys(entry.value for entry in settings.sandbox.env)),
        tmp_size_mib=size.value if size is not None else policy.tmp_size_mib,
        max_processes=processes.value if processes is not None else policy.max_processes,
        memory_mib=memory.value if memory is not None else policy.memory_mib,
    )


def tool_env(settings: Settings) -> dict[str, str]:
    """The variables the settings' `env` gives the commands tools run."""
    return {name: entry.value for name, entry in settings.env.items()}


def extra_roots(settings: Settings) -> tuple[Path, ...]:
    """The directories `permissions.additionalDirectories` adds to the workspace."""
    return tuple(entry.value for entry in settings.additional_directories)
