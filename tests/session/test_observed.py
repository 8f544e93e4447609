"""What the session has read survives a reload: edits need no new read unless the file changed."""

from __future__ import annotations

from pathlib import Path

from tests.session.helpers import Recorder, Sessions, call, log_lines, script, text
from tether.content import TextContent
from tether.session import Session, SessionConfig
from tether.tools.defaults import default_tools


def _config(*turns: dict[str, object]) -> SessionConfig:
    return SessionConfig(model=script(*turns), tools=default_tools(), mode="auto")


def _last_result(session: Session) -> str:
    results = [e for e in session.events if e.type == "tool/result"]
    return "".join(b.text for b in results[-1].content if isinstance(b, TextContent))


EDIT = {"path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}


async def _read_then_close(home: Path, ws: Path, sessions: Sessions) -> str:
    (ws / "a.py").write_text("x = 1\n")
    read = {"toolCalls": [call("r1", "read", {"path": "a.py"})]}
    session = sessions.create(ws, _config(read, {}))
    await session.prompt(text("read it"), Recorder())
    [observed] = [line for line in log_lines(session, home) if line.get("observed")]
    assert observed["observed"] == [
        {
            "path": str((ws / "a.py").resolve()),
            "size": 6,
            "mtimeNs": (ws / "a.py").stat().st_mtime_ns,
            "sha256": observed["observed"][0]["sha256"],
        }
    ]
    session.close()
    return session.id


async def test_a_loaded_session_edits_what_it_read_before(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    session_id = await _read_then_close(home, ws, sessions)
    loaded = sessions.load(session_id, _config({"toolCalls": [call("e1", "edit", EDIT)]}, {}))
    await loaded.prompt(text("now edit it"), Recorder())
    assert _last_result(loaded).startswith("Edited ")
    assert (ws / "a.py").read_text() == "x = 2\n"


async def test_a_file_changed_while_the_session_was_closed_must_be_read_again(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    session_id = await _read_then_close(home, ws, sessions)
    (ws / "a.py").write_text("x = 1\ny = 0\n")
    loaded = sessions.load(session_id, _config({"toolCalls": [call("e1", "edit", EDIT)]}, {}))
    await loaded.prompt(text("now edit it"), Recorder())
    path = (ws / "a.py").resolve()
    assert _last_result(loaded) == f"{path} changed since it was read; read it again"
    assert (ws / "a.py").read_text() == "x = 1\ny = 0\n"
