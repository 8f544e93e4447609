"""The keys a person gave the page to sign an agent in, kept for the next start of that agent.

An agent that signs in through environment variables (ACP's `env_var` auth methods) reads
them when it starts, so the page asks for them once and they are kept in
`$TETHER_HOME/agent-keys.json`, readable by its owner only (mode 0600), per agent command:

    {"version": 1, "agents": {"gemini --acp": {"method": "gemini-api-key",
                                                "env": {"GEMINI_API_KEY": "..."}}}}

Each start of that command gets them in its environment. Their values never go back to the
browser: the page is only told which variables are saved.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tether.bounded import read_bounded_text
from tether.errors import BadKeys, ToolError, UnreadableFile
from tether.jsontext import parse_json
from tether.tools.fs.atomic import atomic_write

__all__ = ["KEYS_FILE", "AgentKeys", "BadKeys", "SavedSignIn", "valid_env_name"]

KEYS_FILE = "agent-keys.json"
_LIMIT = 256 * 1024
"""The file holds a few keys; anything larger is not one tether wrote."""
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def valid_env_name(name: str) -> bool:
    """Whether `name` can be an environment variable's name (a POSIX shell word)."""
    return _ENV_NAME.fullmatch(name) is not None


@dataclass(frozen=True)
class SavedSignIn:
    """What one agent command was signed in with: the auth method and its variables."""

    method: str
    env: Mapping[str, str]


class AgentKeys:
    """The keys file of one data directory."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / KEYS_FILE

    def saved(self, command: Sequence[str]) -> SavedSignIn | None:
        """What `command` was signed in with, if anything (a file that is not ours: BadKeys)."""
        entry = self._read().get(_key(command))
        if not isinstance(entry, dict):
            return None
        method, env = entry.get("method"), entry.get("env")
        if not isinstance(method, str) or not isinstance(env, dict):
            raise BadKeys(f"{self.path}: the entry of `{_key(command)}` is not a sign-in")
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items()):
            raise BadKeys(f"{self.path}: the variables of `{_key(command)}` are not text")
        return SavedSignIn(method=method, env=dict(env))

    def save(self, command: Sequence[str], signed_in: SavedSignIn) -> None:
        """Keep `signed_in` for `command`, replacing what it had; the file stays mode 0600."""
        for name, value in signed_in.env.items():
            if not valid_env_name(name):
                raise BadKeys(f"{name!r} is not an environment variable's name")
            if "\0" in value:
                raise BadKeys(f"the value of {name} holds a NUL character, which no variable can")
        agents = self._read()
        agents[_key(command)] = {"method": signed_in.method, "env": dict(signed_in.env)}
        self._write(agents)

    def forget(self, command: Sequence[str]) -> None:
        """Drop what `command` was signed in with (nothing to do when it had nothing)."""
        agents = self._read()
        if agents.pop(_key(command), None) is not None:
            self._write(agents)

    def _read(self) -> dict[str, Any]:
        if not self.path.exists() and not self.path.is_symlink():
            return {}
        try:
            text = read_bounded_text(self.path, limit=_LIMIT, follow_symlinks=False)
            data = parse_json(text)
        except (OSError, UnreadableFile, ValueError) as exc:
            # Never overwritten: the keys in it would be lost. The person moves it away.
            raise BadKeys(f"{self.path} cannot be read ({exc}); move it away to sign in") from exc
        if not isinstance(data, dict) or data.get("version") != 1:
            raise BadKeys(f"{self.path} is not a version 1 keys file; move it away to sign in")
        agents = data.get("agents")
        if not isinstance(agents, dict):
            raise BadKeys(f"{self.path} has no `agents` object; move it away to sign in")
        return agents

    def _write(self, agents: dict[str, Any]) -> None:
        data = json.dumps({"version": 1, "agents": agents}, indent=1, ensure_ascii=False)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BadKeys(f"{self.path.parent} cannot be made ({exc})") from exc
        # Replaced whole and created 0600: no moment where the keys are readable by others.
        try:
            atomic_write(
                self.path, data.encode() + b"\n", (self.path.parent,), mode=0o600, replace_link=True
            )
        except (OSError, ToolError) as exc:
            raise BadKeys(f"{self.path} cannot be written ({exc})") from exc


def _key(command: Sequence[str]) -> str:
    """The agent a sign-in is for: its whole command line, as a shell would read it."""
    return shlex.join(command)
