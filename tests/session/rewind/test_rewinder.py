"""`Rewinder.run`: the one service behind `/rewind`, `/undo`, `/redo` and `/fork` on every
surface — a listing, a restore that asks about each conflict once, a fork — driven through
a real session that changed real files."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.session.helpers import Recorder, Sessions, call, script, text
from tether.commands import CheckpointCommand
from tether.errors import RewindError
from tether.session import Conflict, Session, SessionConfig
from tether.session.log.workspace_events import CommandEvent, RestoreEvent
from tether.session.rewind.rewinder import Forked, Listing, Restored
from tether.tools.defaults import default_tools


@dataclass
class Answers:
    """A person who answers every question with `take`, and what they were shown."""

    take: bool = False
    asked: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)

    async def ask(self, conflict: Conflict) -> bool:
        self.asked.append(conflict.question)
        return self.take

    def keep(self, conflict: Conflict) -> None:
        self.kept.append(conflict.heading)


async def _changed(ws: Path, sessions: Sessions) -> Session:
    """A session whose one prompt wrote `a.py` and `b.txt` (both new)."""
    model = script(
        {
            "toolCalls": [
                call("w1", "write", {"path": "a.py", "content": "x = 1\n"}),
                call("w2", "write", {"path": "b.txt", "content": "b\n"}),
            ]
        },
        {"text": "done"},
    )
    session = sessions.create(ws, SessionConfig(model=model, tools=default_tools(), mode="auto"))
    await session.prompt(text("write them"), Recorder())
    return session


async def test_one_run_lists_restores_and_forks(ws: Path, sessions: Sessions) -> None:
    session = await _changed(ws, sessions)
    person = Answers()

    listing = await session.rewind.run(CheckpointCommand("rewind"), person)
    assert isinstance(listing, Listing)
    assert [p.number for p in listing.prompts] == [1]
    assert "write them" in listing.text and "a.py" in listing.text

    # The person changed a.py: /undo asks about it once, "keep mine" keeps it, b.txt goes.
    (ws / "a.py").write_text("x = 'mine'\n")
    undone = await session.rewind.run(CheckpointCommand("undo"), person, typed="/undo")
    assert person.asked == ["Restore a.py?"]
    assert isinstance(undone, Restored)
    assert undone.notice.restored == ("b.txt",) and undone.notice.kept == ("a.py",)
    assert (ws / "a.py").read_text() == "x = 'mine'\n" and not (ws / "b.txt").exists()
    logged = [e for e in session.events if isinstance(e, CommandEvent | RestoreEvent)]
    assert [type(e) for e in logged] == [CommandEvent, RestoreEvent]
    assert isinstance(logged[0], CommandEvent) and logged[0].text == "/undo"

    forked = await session.rewind.run(CheckpointCommand("fork", 1), person)
    assert forked == Forked(forked.session_id, session.id, 1)
    assert forked.session_id != session.id
    assert sessions.store.header(forked.session_id).forked_from is not None

    with pytest.raises(RewindError, match="no prompt 7"):
        await session.rewind.run(CheckpointCommand("rewind", 7), person)


async def test_a_conflict_nothing_can_replace_is_shown_not_asked(
    ws: Path, sessions: Sessions
) -> None:
    session = await _changed(ws, sessions)
    (ws / "a.py").write_text("x = 'mine'\n")
    (ws / "b.txt").unlink()
    (ws / "b.txt").mkdir()  # a folder stands where the file was
    person = Answers(take=True)
    done = await session.rewind.run(CheckpointCommand("rewind", 1), person)
    assert person.asked == ["Restore a.py?"]
    assert person.kept == ["b.txt: changed after tether last changed it; it is now a directory"]
    assert isinstance(done, Restored)
    assert done.notice.restored == ("a.py",) and done.notice.kept == ("b.txt",)
    assert not (ws / "a.py").exists() and (ws / "b.txt").is_dir()


async def test_a_refusal_is_answered_with_the_command_logged_once(
    ws: Path, sessions: Sessions, home: Path
) -> None:
    session = await _changed(ws, sessions)
    # Refused before anything was logged: the answer logs the command with it.
    with pytest.raises(RewindError) as refused:
        await session.rewind.run(CheckpointCommand("redo"), Answers(), typed="/redo")
    session.rewind.answer("/redo", f"Cannot redo: {refused.value}\n")
    # A restore logs its command first; when the restore then fails, the answer stands alone.
    (home / "sessions" / f"{session.id}.restore.json").mkdir()  # the journal cannot be written
    with pytest.raises(RewindError, match="the restore failed") as failed:
        await session.rewind.run(CheckpointCommand("undo"), Answers(), typed="/undo")
    session.rewind.answer("/undo", f"Cannot undo: {failed.value}\n")
    commands = [(e.text, e.said) for e in session.events if isinstance(e, CommandEvent)]
    assert commands == [
        ("/redo", f"Cannot redo: {refused.value}\n"),
        ("/undo", None),
        (None, f"Cannot undo: {failed.value}\n"),
    ]
    assert (ws / "a.py").exists()  # nothing was restored


async def test_a_restore_that_cannot_be_finished_is_named_and_the_session_opens(
    ws: Path, sessions: Sessions, home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    session = await _changed(ws, sessions)
    session.close()
    (home / "sessions" / f"{session.id}.restore.json").write_text("not a journal")
    config = SessionConfig(model=script({"text": "ok"}), tools=default_tools())
    with caplog.at_level(logging.WARNING, logger="tether.session.rewind.rewinder"):
        loaded = sessions.load(session.id, config)
    assert f"session {session.id}: an interrupted restore could not be finished" in caplog.text
    assert "is not readable" in caplog.text
    assert loaded.events == session.events  # nothing recorded, nothing lost
    assert (ws / "a.py").read_text() == "x = 1\n"
