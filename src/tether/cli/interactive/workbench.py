"""What the interactive session runs on, built while the input box already shows.

`load` runs in a thread: it parses the arguments, imports the session's machinery and
builds the model, the tools and the store; the first session (`--continue`, `--resume ID`)
is opened on the event loop afterwards.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from tether.cli.interactive.arguments import parse
from tether.cli.model_args import require_key
from tether.cli.sandbox_args import sandbox_policy
from tether.commands import Command, load_commands
from tether.models.base import Model
from tether.models.factory import make_model
from tether.policy import PermissionAsker, PolicyMode
from tether.session import Session, SessionConfig, SessionStore
from tether.tools.bash.sandbox import SandboxPolicy
from tether.tools.defaults import default_tools

__all__ = ["StartupError", "Workbench", "load"]

log = logging.getLogger(__name__)


class StartupError(Exception):
    """The session cannot start (a bad flag value, a missing key); the message says why."""


@dataclass
class Workbench:
    """The parsed arguments and what every session of this terminal is made with."""

    args: argparse.Namespace
    cwd: Path
    store: SessionStore
    model: Model
    sandbox: SandboxPolicy
    console: Console

    def config(
        self, asker: PermissionAsker | None, mode: PolicyMode, model: Model
    ) -> SessionConfig:
        """A session's configuration: fresh tools, the mode now, the model now (no `asker`:
        what would ask is refused)."""
        return SessionConfig(
            model=model,
            tools=default_tools(self.sandbox, allow_private_fetch=self.args.allow_private_fetch),
            mode=mode,
            asker=asker,
            max_steps=self.args.max_steps,
            context_window=self.args.context_window,
            compact_at=self.args.compact_at,
        )

    def switch_model(self, spec: str) -> Model:
        """The model `spec` names, with this terminal's endpoint and key (`ModelError` if not)."""
        model = make_model(spec, base_url=self.args.base_url, api_key=self.args.api_key)
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


def load(argv: Sequence[str], console: Console) -> Workbench:
    """Parse `argv` and build the workbench (`BadArguments`, `StartupError` when it cannot)."""
    from tether.models.base import ModelError

    args = parse(argv)
    try:
        sandbox = sandbox_policy(args)
    except ValueError as exc:
        raise StartupError(str(exc)) from exc
    try:
        model = make_model(args.model, base_url=args.base_url, api_key=args.api_key)
        require_key(model)
    except ModelError as exc:
        raise StartupError(str(exc)) from exc
    cwd = (args.cwd or Path.cwd()).resolve()
    if not cwd.is_dir():
        raise StartupError(f"--cwd {cwd} is not a directory")
    return Workbench(
        args=args,
        cwd=cwd,
        store=SessionStore.default(),
        model=model,
        sandbox=sandbox,
        console=console,
    )
