"""Long logs for the tests of `tether show`'s held output (text and `--json`): a session of
many chunks, a corrupt last line, and `tether` run with its files limited in size."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.cli.support import TETHER
from tether.cli.held_output import IN_MEMORY
from tether.content import TextContent
from tether.session import SessionStore
from tether.session.log.events import (
    AssistantChunk,
    AssistantMessageEvent,
    TurnEnd,
    TurnStart,
    UserMessageEvent,
)

__all__ = ["ROOM", "LongLog", "corrupted", "shown", "written"]

ROOM = IN_MEMORY + IN_MEMORY // 2
"""The most bytes a file may hold in the runs with no room to hold the output back: the
temporary file takes what was in memory, then fails to grow."""


@dataclass(frozen=True)
class LongLog:
    """A session whose output is longer than `ROOM`, and `tether show`'s whole run on it."""

    home: Path
    log: Path
    """The session's log, relative to `home`."""
    whole: subprocess.CompletedProcess[bytes]

    def copied(self, tmp_path: Path) -> tuple[Path, Path]:
        """A home of the test's own holding the session, and the log in it (to change)."""
        home = shutil.copytree(self.home, tmp_path / "home")
        return home, home / self.log


def written(
    home: Path, ws: Path, chunks: int, size: int = 600, *, paragraphs: bool = False
) -> Path:
    """A session of one prompt answered in `chunks` chunks of about `size` characters: lines
    of one paragraph, or with `paragraphs` a paragraph each (printed as each is read, where
    one paragraph's lines wait for its end)."""
    log = SessionStore(home).create(ws)
    log.append(TurnStart())
    log.append(UserMessageEvent(content=(TextContent(text="Write it all out, é ✓."),)))
    end = "\n\n" if paragraphs else "\n"
    words = [f"{n}: " + "déjà vu ✓ " * (size // 10) + end for n in range(chunks)]
    for word in words:
        log.append(AssistantChunk(text=word))
    log.append(AssistantMessageEvent(text="".join(words)))
    log.append(TurnEnd(stop_reason="end_turn"))
    log.close()
    return log.path


def corrupted(path: Path) -> int:
    """Make the last line's seq wrong; its line number."""
    lines = path.read_bytes().splitlines(keepends=True)
    lines[-1] = b'{"type":"turn/end","seq":1,"stopReason":"end_turn"}\n'
    path.write_bytes(b"".join(lines))
    return len(lines)


def shown(home: Path, *args: str, fsize: int | None = None) -> subprocess.CompletedProcess[bytes]:
    """`tether ARGS` in a process of its own, its files limited to `fsize` bytes when given."""

    def limited() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    env = {**os.environ, "TETHER_HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run(
        [str(TETHER), *args],
        capture_output=True,
        env=env,
        preexec_fn=limited,  # only setrlimit, before exec
        check=False,
        timeout=120,
    )
