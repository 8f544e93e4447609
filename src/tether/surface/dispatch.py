"""Slash commands dispatched once: what each resolved command does, on any surface.

Every surface (`tether run`, the interactive terminal, ACP) resolves what was typed with
`tether.commands.resolve` and hands the `Invocation` to `dispatch` with a `Surface` of its
own: the few things that differ between surfaces (how to show text, whether someone can
pick, how a mode switch is told, how a prompt and a checkpoint command run). What a command
means — `/mode`, `/permissions`, `/skills`, `/agents` — is written here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar, assert_never

from tether.agents import agents_text
from tether.commands import (
    AgentsList,
    CheckpointCommand,
    Invocation,
    ModeSwitch,
    PermissionsList,
    PromptText,
    SkillsList,
    TerminalCommand,
)
from tether.policy import MODES, PolicyMode
from tether.session import Session
from tether.settings.report import permissions_text
from tether.skills import skills_text

__all__ = ["MODE_OPTIONS", "Option", "Surface", "dispatch"]

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


@dataclass(frozen=True)
class Option:
    """One choice a surface offers the person to pick: its label and a line about it."""

    label: str
    detail: str = ""


MODE_OPTIONS: tuple[Option, ...] = (
    Option("ask", "ask before every edit and command"),
    Option("accept-edits", "edits in the workspace pass, commands ask"),
    Option("auto", "nothing asks (commands outside the sandbox still do)"),
    Option("plan", "nothing changes: read, search, plan, then approve the plan"),
)
"""The modes as `/mode` alone offers them, in `MODES`' order."""


class Surface(Protocol[R_co]):
    """What one surface does for a command; `R_co` is what handling a line gives it (an exit
    status, an ACP answer, nothing)."""

    @property
    def mode(self) -> PolicyMode:
        """The mode now (of the session, or of the next one)."""
        ...

    def session(self) -> Session:
        """The session the command acts on (made now where sessions start with a prompt)."""
        ...

    def say(self, text: str) -> None:
        """Show a listing or an answer (plain text, lines kept)."""
        ...

    def notice(self, text: str) -> None:
        """Show a short line of the surface's own (not the conversation's)."""
        ...

    async def pick(self, title: str, options: Sequence[Option], selected: int = 0) -> int | None:
        """The index of the option the person picked; `None`: dismissed, or no one can pick."""
        ...

    def set_mode(self, mode: PolicyMode) -> None:
        """Switch the mode, and tell it the way this surface does."""
        ...

    async def done(self) -> R_co:
        """What a command done without the model answers."""
        ...

    async def prompt(self, meant: PromptText) -> R_co:
        """Send a prompt to the model (a custom command's, expanded, or the text as typed)."""
        ...

    async def checkpoint(self, command: CheckpointCommand) -> R_co:
        """`/rewind`, `/undo`, `/redo` or `/fork`: the surface asks and prints its own way."""
        ...

    async def terminal(self, command: TerminalCommand) -> R_co:
        """One of the terminal's own commands (a `terminal` entry of the catalog)."""
        ...


async def dispatch(meant: Invocation, surface: Surface[R]) -> R:
    """Do what `meant` asks on `surface`; what the surface answers for it."""
    match meant:
        case PromptText():
            return await surface.prompt(meant)
        case ModeSwitch(mode=mode):
            if mode is None:
                picked = await surface.pick(
                    "Which mode?", MODE_OPTIONS, selected=MODES.index(surface.mode)
                )
                mode = MODES[picked] if picked is not None else None
            if mode is not None:
                surface.set_mode(mode)
            return await surface.done()
        case PermissionsList():
            await _permissions(surface)
            return await surface.done()
        case SkillsList():
            session = surface.session()
            surface.say(skills_text(session.skills, session.cwd))
            return await surface.done()
        case AgentsList():
            session = surface.session()
            surface.say(agents_text(session.agents, session.cwd))
            return await surface.done()
        case CheckpointCommand():
            return await surface.checkpoint(meant)
        case TerminalCommand():
            return await surface.terminal(meant)
        case _:
            assert_never(meant)


async def _permissions(surface: Surface[object]) -> None:
    """The live rules with their files and this session's own answers; where someone can
    pick, one of those answers can be taken back (it asks again)."""
    gate = surface.session().gate
    answers = gate.session_answers()
    if gate.settings is None:
        surface.say(f"Mode: {gate.mode} (no settings are read in this session)")
    else:
        surface.say(permissions_text(gate.settings, gate.mode, answers))
    if not answers:
        return
    options = [*(Option(answer) for answer in answers), Option("Keep them all")]
    picked = await surface.pick(
        "Take back an answer of this session? (it asks again)", options, selected=len(answers)
    )
    if picked is None or picked >= len(answers):
        return
    taken = gate.forget_answer(picked)
    if taken is not None:
        surface.notice(f"taken back: {taken} (asks again)")
