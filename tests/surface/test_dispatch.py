"""Slash commands dispatched once: every command of the catalog reaches one place of a
surface, and what `/mode`, `/permissions`, `/skills` and `/agents` mean is the dispatcher's.

`Notes` is a surface of its own that writes down what it is asked to do (as the terminal,
`tether run` and ACP each do their way); the session under it is real, on a scripted model.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from tests.session.helpers import call, new_session, script, text
from tether.cli.interactive.commands import TERMINAL
from tether.commands import (
    CheckpointCommand,
    PromptText,
    TerminalCommand,
    load_commands,
    resolve,
)
from tether.commands.catalog import BUILTIN, Command
from tether.errors import CommandError
from tether.policy import PermissionQuestion, PolicyMode
from tether.session import Session
from tether.surface.dispatch import MODE_OPTIONS, Option, dispatch
from tether.tools.defaults import default_tools


class Notes:
    """A surface that writes down each thing it is asked to do; `picks` answers its pickers."""

    def __init__(self, session: Session, picks: Sequence[int | None] = ()) -> None:
        self._session = session
        self.picks = list(picks)
        self.did: list[tuple[str, object]] = []

    @property
    def mode(self) -> PolicyMode:
        return self._session.gate.mode

    def session(self) -> Session:
        return self._session

    def say(self, text: str) -> None:
        self.did.append(("say", text))

    def notice(self, text: str) -> None:
        self.did.append(("notice", text))

    async def pick(self, title: str, options: Sequence[Option], selected: int = 0) -> int | None:
        self.did.append(("pick", (title, [o.label for o in options], selected)))
        return self.picks.pop(0) if self.picks else None

    def set_mode(self, mode: PolicyMode) -> None:
        self._session.set_mode(mode)
        self.did.append(("set_mode", mode))

    async def done(self) -> str:
        return "done"

    async def prompt(self, meant: PromptText) -> str:
        self.did.append(("prompt", meant.text))
        return "prompted"

    async def checkpoint(self, command: CheckpointCommand) -> str:
        self.did.append(("checkpoint", command))
        return "checkpoint"

    async def terminal(self, command: TerminalCommand) -> str:
        self.did.append(("terminal", command))
        return "terminal"


@pytest.fixture
def session(ws: Path, isolated_environment: Path) -> Iterator[Session]:
    opened = new_session(isolated_environment, ws, script(), default_tools(), mode="ask")
    yield opened
    opened.close()


def _run(line: str, surface: Notes, *, picking: bool = True) -> object:
    session = surface.session()
    commands = load_commands(session.cwd, None, terminal=True)
    return asyncio.run(dispatch(resolve(line, commands, picking=picking), surface))


WHERE = {
    "compact": "prompted",
    "init": "prompted",
    "mode": "done",
    "permissions": "done",
    "skills": "done",
    "agents": "done",
    "rewind": "checkpoint",
    "undo": "checkpoint",
    "redo": "checkpoint",
    "fork": "checkpoint",
}


@pytest.mark.parametrize("command", BUILTIN, ids=lambda c: c.name)
def test_every_built_in_command_reaches_one_place(session: Session, command: Command) -> None:
    expected = "terminal" if command.terminal else WHERE[command.name]
    assert _run(f"/{command.name}", Notes(session)) == expected


def test_every_terminal_command_has_its_handler_and_no_more() -> None:
    assert set(TERMINAL) == {c.name for c in BUILTIN if c.terminal}


def test_a_terminal_command_carries_what_was_typed(session: Session) -> None:
    surface = Notes(session)
    _run("/model openai:other", surface)
    assert surface.did == [("terminal", TerminalCommand("model", "openai:other"))]


def test_mode_by_name_and_picked(session: Session) -> None:
    surface = Notes(session, picks=[2])
    _run("/mode accept-edits", surface)
    _run("/mode", surface)
    assert surface.did == [
        ("set_mode", "accept-edits"),
        ("pick", ("Which mode?", [o.label for o in MODE_OPTIONS], 1)),
        ("set_mode", "auto"),
    ]
    assert session.gate.mode == "auto"


def test_mode_alone_where_no_one_picks(session: Session) -> None:
    surface = Notes(session)  # its picker is dismissed: nothing changes
    _run("/mode", surface)
    assert session.gate.mode == "ask"
    assert [what for what, _ in surface.did] == ["pick"]
    with pytest.raises(CommandError, match=r"Usage: /mode ask \| accept-edits"):
        _run("/mode", surface, picking=False)


def test_listings_come_from_the_session(session: Session) -> None:
    surface = Notes(session)
    _run("/skills", surface)
    _run("/agents", surface)
    _run("/permissions", surface)
    said = [value for what, value in surface.did if what == "say"]
    assert len(said) == 3
    assert "general" in str(said[1]) and "explore" in str(said[1])
    assert "Mode: ask" in str(said[2])


class _Always:
    """Answers every question "allow always for this session"."""

    async def ask(self, request: PermissionQuestion) -> str:
        return "allow_always"


def test_permissions_can_take_back_an_answer_where_someone_picks(
    ws: Path, isolated_environment: Path
) -> None:
    model = script(
        {"toolCalls": [call("c1", "write", {"path": "a.txt", "content": "x"})]},
        {"text": "done"},
    )
    session = new_session(
        isolated_environment, ws, model, default_tools(), mode="ask", asker=_Always()
    )
    try:
        asyncio.run(session.prompt(text("write it"), lambda _update: None))
        answers = session.gate.session_answers()
        assert len(answers) == 1
        keep = Notes(session, picks=[1])  # "Keep them all"
        _run("/permissions", keep)
        assert session.gate.session_answers() == answers
        take = Notes(session, picks=[0])
        _run("/permissions", take)
        assert session.gate.session_answers() == []
        assert take.did[-1] == ("notice", f"taken back: {answers[0]} (asks again)")
        assert take.did[1][0] == "pick"
    finally:
        session.close()
