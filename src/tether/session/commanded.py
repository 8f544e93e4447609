"""A slash command's file made into a prompt, as Claude Code makes it: its `` !`cmd` `` lines
run first, its `@path` files go with it, its `allowed-tools` pass without asking while its
prompt runs, and its `model` answers it.

    prepared = await prepare_command(session, text, command, emit, cancelled)
    await session.prompt(prepared.content, emit, grants=prepared.grants, model=prepared.model)

Each `` !`cmd` `` runs through the `bash` tool (`tether.session.shell`) in the session's mode,
under its rules and in its sandbox, with a card of its own, before the prompt is sent; its
output takes its place in the prompt, and a command that did not run (refused, or no one to
ask) is replaced by a line saying so and why. `allowed-tools` are allow rules for the
command's prompt alone (its `!` lines included): a project's command grants them only in a
trusted workspace, and a deny or ask rule of the settings still wins. What cannot be
followed is said in a warning naming the file.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from tether.content import ContentBlock, TextContent
from tether.errors import ModelError, RuleError
from tether.models.base import Model
from tether.session.children import ANTHROPIC_TIERS
from tether.session.mentions import attachments
from tether.session.runner import trusted
from tether.session.session import Session
from tether.session.shell import run_shell
from tether.session.updates import ClientUpdate
from tether.settings import Rule, SettingsSource
from tether.settings.rules import parse_rule

__all__ = ["CommandFile", "CommandPrompt", "prepare_command", "shell_lines"]

log = logging.getLogger(__name__)

_SHELL = re.compile(r"!`([^`\n]+)`")


class CommandFile(Protocol):
    """What a slash command's file says (`tether.commands.Command` is one)."""

    @property
    def name(self) -> str: ...

    @property
    def source(self) -> Path | None: ...

    @property
    def scope(self) -> str | None: ...

    @property
    def allowed_tools(self) -> tuple[str, ...]: ...

    @property
    def model(self) -> str | None: ...


@dataclass(frozen=True)
class CommandPrompt:
    """What to prompt with: the content, the rules it grants, the model it runs on."""

    content: list[ContentBlock]
    grants: tuple[Rule, ...] = ()
    model: Model | None = None
    warnings: tuple[str, ...] = ()
    """What of the file could not be followed, each naming the file."""


def shell_lines(text: str) -> list[str]:
    """The `` !`cmd` `` commands of a command's text, in order."""
    return [match[1].strip() for match in _SHELL.finditer(text) if match[1].strip()]


async def prepare_command(
    session: Session,
    text: str,
    command: CommandFile,
    emit: Callable[[ClientUpdate], None],
    cancelled: asyncio.Event,
) -> CommandPrompt:
    """Run the `` !`cmd` `` lines of `text` (the command's template with its arguments in),
    and say what to prompt with."""
    warnings: list[str] = []
    grants = _grants(session, command, warnings)
    model = _model(session, command, warnings)
    files = attachments(text, session.workspace)
    outputs: dict[str, str] = {}
    before = session.gate.granted
    session.gate.granted = grants
    try:
        for line in shell_lines(text):
            if cancelled.is_set():
                break
            if line not in outputs:
                outputs[line] = await _output(session, command, line, emit, cancelled)
    finally:
        session.gate.granted = before

    def put(match: re.Match[str]) -> str:
        line = match[1].strip()
        return outputs.get(line, f"[`{line}` was not run: the command was cancelled]")

    expanded = _SHELL.sub(put, text)
    for warning in warnings:
        log.warning("%s", warning)
    content: list[ContentBlock] = [TextContent(text=expanded), *files]
    return CommandPrompt(content, grants, model, tuple(warnings))


async def _output(
    session: Session,
    command: CommandFile,
    line: str,
    emit: Callable[[ClientUpdate], None],
    cancelled: asyncio.Event,
) -> str:
    description = f"Run by /{command.name} before its prompt"
    ran = await run_shell(session, line, emit, cancelled, typed=False, description=description)
    if ran is None:
        return f"[`{line}` was not run: this session has no bash tool]"
    if ran.result.is_error:
        return f"[`{line}` was not run: {ran.result.text()}]"
    # The output takes the line's place, as in Claude Code; a failure keeps its exit code.
    text = ran.result.text()
    return text.removesuffix("Exit code: 0").rstrip() if text.endswith("Exit code: 0") else text


def _grants(session: Session, command: CommandFile, warnings: list[str]) -> tuple[Rule, ...]:
    if not command.allowed_tools or command.source is None:
        return ()
    project = command.scope == "project"
    where = command.source
    if project and not trusted(session.gate):
        warnings.append(
            f"{where}: `allowed-tools` is not applied: a project's command grants nothing until "
            "the workspace is trusted (`tether permissions trust`)"
        )
        return ()
    source = SettingsSource("claude" if project else "claude-user", where)
    rules: list[Rule] = []
    for text in command.allowed_tools:
        try:
            rules.append(parse_rule(text, "allow", source, root=session.cwd, home=Path.home()))
        except RuleError as exc:
            warnings.append(f"{where}: `allowed-tools` {text!r} is not applied: {exc}")
    return tuple(rules)


def _model(session: Session, command: CommandFile, warnings: list[str]) -> Model | None:
    spec = (command.model or "").strip()
    if not spec or spec == "inherit":
        return None
    current = session.model.name
    kind = current.partition(":")[0]
    where = command.source or f"/{command.name}"
    if spec in ANTHROPIC_TIERS:
        if kind != "anthropic":
            warnings.append(
                f"{where}: `model: {spec}` names an Anthropic model; this session runs on "
                f"{current}, and so does the command"
            )
            return None
        spec = ANTHROPIC_TIERS[spec]
    elif ":" not in spec and spec.startswith("claude-"):
        spec = f"anthropic:{spec}"
    if spec == current:
        return None
    if spec.partition(":")[0] != kind or session.models is None:
        warnings.append(
            f"{where}: `model: {command.model}` is not used: this session runs on {current} "
            "and has no other model of its provider"
        )
        return None
    try:
        return session.models(spec)
    except ModelError as exc:
        warnings.append(f"{where}: `model: {command.model}` cannot be used: {exc}")
        return None
