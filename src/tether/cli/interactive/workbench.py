"""What the interactive session runs on, built while the input box already shows.

`load` runs in a thread: it parses the arguments, imports the session's machinery and
builds the model, the tools and the store; the first session (`--continue`, `--resume ID`)
is opened on the event loop afterwards.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from tether.cli.interactive.arguments import parse
from tether.cli.model_args import login_default, require_key
from tether.cli.settings_args import settings_flags
from tether.cli.settings_run import say_search
from tether.commands import Command, load_commands
from tether.errors import SettingsError, StartupError
from tether.models.base import Model
from tether.policy import PermissionAsker, PolicyMode, settle_trust
from tether.sandbox.policy import SandboxPolicy
from tether.session import Session, SessionConfig, SessionStore
from tether.settings import Settings, load_settings
from tether.settings.effective import effective_mode, sandbox_policy, search_setup
from tether.settings.report import claude_file_lines
from tether.surface import Launch, first_model, session_config

__all__ = ["StartupError", "Workbench", "load"]


@dataclass
class Workbench:
    """The parsed arguments and what every session of this terminal is made with."""

    args: argparse.Namespace
    launch: Launch
    """What the command line adds to every session: the endpoint, the key, the limits."""
    cwd: Path
    store: SessionStore
    console: Console
    settings: Settings
    model: Model
    sandbox: SandboxPolicy
    mode: PolicyMode
    """The mode sessions start in: `--mode`, else the settings', else ask."""

    def config(
        self, asker: PermissionAsker | None, mode: PolicyMode, model: Model
    ) -> SessionConfig:
        """A session's configuration: fresh tools, the mode now, the model now (no `asker`:
        what would ask is refused)."""
        return session_config(self.settings, self.launch, asker=asker, mode=mode, model=model)

    async def settle_trust(self, asker: PermissionAsker) -> bool:
        """Ask whether to trust the workspace, when its settings grant something and it is not
        trusted yet; whether the settings changed (the sandbox and mode are then worked out
        again; sessions made from now on follow them)."""
        settled = await settle_trust(self.settings, asker)
        if settled is self.settings:
            return False
        self.settings = settled
        self.sandbox = sandbox_policy(settled)
        self.mode = effective_mode(settled)
        return True

    def switch_model(self, spec: str) -> Model:
        """The model `spec` names, with this terminal's endpoint and key (`ModelError` if not)."""
        model = self.launch.model(spec)
        require_key(model)
        return model

    def commands(self) -> list[Command]:
        """The commands the terminal offers now (custom ones are read again each time)."""
        return load_commands(self.cwd, self.store.root, terminal=True)

    def open(self, session_id: str, config: SessionConfig) -> Session:
        """Open a stored session (a unique id prefix is enough) to continue it here."""
        return Session.load(self.store, self.store.resolve(session_id), config)

    def create(self, config: SessionConfig) -> Session:
        """A new session in the workspace."""
        return Session.create(self.store, self.cwd, config)

    def newest_here(self) -> str | None:
        """The id of the newest session of this workspace, if there is one."""
        here = [s for s in self.store.list_sessions() if Path(s.cwd) == self.cwd]
        here.sort(key=lambda s: s.updated_at, reverse=True)
        return here[0].id if here else None


def load(argv: Sequence[str], console: Console, *, keyless: bool = False) -> Workbench:
    """Parse `argv` and build the workbench (`BadArguments`, `StartupError` when it cannot).

    The workspace's settings are read here; whether to trust it is asked once the session's
    screen can ask (`Workbench.settle_trust`). A model with no key is an error unless
    `keyless` (the screen then asks for one).
    """
    from tether.errors import ModelError

    args = parse(argv)
    cwd = (args.cwd or Path.cwd()).resolve()
    if not cwd.is_dir():
        raise StartupError(f"--cwd {cwd} is not a directory")
    store = SessionStore.default()
    try:
        settings = load_settings(cwd, store.root, flags=settings_flags(args))
        sandbox = sandbox_policy(settings)
    except (SettingsError, ValueError) as exc:
        raise StartupError(str(exc)) from exc
    for line in claude_file_lines(settings):
        console.print(f"tether: Claude Code settings {line}", markup=False, soft_wrap=True)
    for problem in settings.problems:
        console.print(
            f"tether: warning: {problem} (ignored)", style="yellow", markup=False, soft_wrap=True
        )
    say_search(search_setup(settings), console, verbose=bool(getattr(args, "verbose", False)))
    launch = Launch(
        default_model=login_default,
        base_url=args.base_url,
        api_key=args.api_key,
        allow_private_fetch=args.allow_private_fetch,
        max_steps=args.max_steps,
        context_window=args.context_window,
        compact_at=args.compact_at,
    )
    try:
        model = first_model(settings, launch)
        if not keyless:
            require_key(model)
    except ModelError as exc:
        raise StartupError(str(exc)) from exc
    return Workbench(
        args=args,
        launch=launch,
        cwd=cwd,
        store=store,
        console=console,
        settings=settings,
        model=model,
        sandbox=sandbox,
        mode=effective_mode(settings),
    )
