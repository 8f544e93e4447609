"""`tether show` streams a long log: its events are never all held, yet a corrupt line is
still an error before anything is printed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.in_process import tether_in_process
from tests.cli.support import TETHER
from tether.content import TextContent
from tether.session import SessionStore
from tether.session.log.events import (
    AssistantChunk,
    AssistantMessageEvent,
    TurnEnd,
    TurnStart,
    UserMessageEvent,
)

FIXTURES = Path(__file__).parent / "json" / "sessions"
SESSION = "0190a1b2c3d4e5f6a7b8"


def peak_kib(home: Path, *args: str) -> int:
    """The peak RSS of `tether ARGS` (stdout to /dev/null), read in a process of its own."""
    probe = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    env = {**os.environ, "TETHER_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "100"}
    out = subprocess.run(
        [sys.executable, "-c", probe, str(TETHER), *args],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    )
    return int(out.stdout)


def chunked(store: SessionStore, ws: Path, turns: int) -> Path:
    """A session of `turns` prompts, each answered by a reply streamed in 100 chunks."""
    log = store.create(ws)
    for turn in range(turns):
        log.append(TurnStart())
        log.append(UserMessageEvent(content=(TextContent(text=f"Count to {turn}."),)))
        words = [f"word {n} " * 4 + ("\n\n" if n % 10 == 9 else "") for n in range(100)]
        for word in words:
            log.append(AssistantChunk(text=word))
        log.append(AssistantMessageEvent(text="".join(words)))
        log.append(TurnEnd(stop_reason="end_turn"))
    log.close()
    return log.path


@pytest.mark.parametrize("json", [True, False], ids=["json", "text"])
def test_what_show_holds_grows_by_less_than_twice_what_the_log_grows(
    tmp_path: Path, ws: Path, json: bool
) -> None:
    home = tmp_path / "home"
    store = SessionStore(home)
    short, long = chunked(store, ws, 150), chunked(store, ws, 300)
    flags = ["--json"] if json else []
    # Peaks compared between two logs of one shape: what a show costs whatever the log's
    # size (the imports, the schemas, the caches) is left out.
    grown = peak_kib(home, "show", long.stem, *flags) - peak_kib(home, "show", short.stem, *flags)
    added = (long.stat().st_size - short.stat().st_size) / 1024
    # Every event held at once took four times the log; now only its bytes are held whole.
    assert grown <= 2 * added, f"{grown / added:.2f} times the {added / 1024:.1f} MB added"


@pytest.mark.parametrize("json", [True, False], ids=["json", "text"])
def test_a_corrupt_last_line_is_an_error_before_anything_is_printed(
    tmp_path: Path, json: bool
) -> None:
    home = tmp_path / "home"
    shutil.copytree(FIXTURES, home / "sessions")
    path = home / "sessions" / f"{SESSION}.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    lines[-2] = b'{"type":"turn/end","seq":1,"stopReason":"end_turn"}\n'
    path.write_bytes(b"".join(lines))
    shown = tether_in_process(home, "show", SESSION, *(["--json"] if json else []))
    assert shown.returncode == 1
    assert shown.stdout == ""
    number = len(lines) - 1
    assert shown.stderr == (f"tether: error: {path}:{number}: event seq 1, expected {number - 1}\n")


def test_a_torn_last_line_is_dropped_and_the_rest_shown(tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(FIXTURES, home / "sessions")
    path = home / "sessions" / f"{SESSION}.jsonl"
    whole = tether_in_process(home, "show", SESSION, "--json")
    with path.open("ab") as handle:
        handle.write(b'{"type":"turn/start","se')
    torn = tether_in_process(home, "show", SESSION, "--json")
    assert torn.returncode == 0, torn.stderr
    assert torn.stdout == whole.stdout
