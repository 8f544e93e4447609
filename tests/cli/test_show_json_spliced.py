"""`tether show --json` writes read results' logged JSON with orjson, spliced into pydantic's
document (`tether.cli.show_json_spliced`), and holds the document in a temporary file sent
out by the kernel (`tether.cli.held_output`): the bytes must be those pydantic writes whole.

Each case writes a real log with read results (lines of any text, a stored meta with values
of every JSON type, integers past 64 bits among them), shows it, and compares with every
update dumped by `CLIENT_UPDATE` one at a time, indented as the document's elements are.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cli.in_process import tether_in_process
from tests.cli.support import TETHER, into_head
from tether.cli.show_json_spliced import with_marks
from tether.content import TextContent
from tether.session import SessionStore
from tether.session.log.events import ToolCallEvent, ToolResultEvent, TurnEnd, TurnStart
from tether.session.replay import replayed
from tether.session.updates import CLIENT_UPDATE, ToolCallFinished
from tether.tools.defaults import replay_tools
from tether.views import ReadResultView

TEXTS = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)
"""A line's text: anything JSON carries but a lone surrogate (no log could store one)."""

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXTS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXTS, inner, max_size=4),
    max_leaves=12,
)


def _logged(home: Path, ws: Path, windows: list[tuple[list[str], dict[str, Any]]]) -> str:
    """A session of one read result per window (its lines, numbered from 1, and more keys in
    its meta); its id."""
    log = SessionStore(home).create(ws)
    log.append(TurnStart())
    for number, (texts, more) in enumerate(windows):
        call = f"call_{number}"
        lines = [{"number": n, "text": text} for n, text in enumerate(texts, 1)]
        meta = {"path": str(ws / "f.py"), "offset": 1, "lines": lines}
        meta |= {"totalLines": len(texts), "lang": "python", **more}
        envelope = f"<path>{ws / 'f.py'}</path>\n<type>file</type>\n<content>\n"
        envelope += "".join(f"{n}: {text}\n" for n, text in enumerate(texts, 1))
        envelope += "\n(End of file)\n</content>"
        log.append(ToolCallEvent(tool_call_id=call, name="read", arguments='{"path": "f.py"}'))
        content = (TextContent(text=envelope),)
        log.append(ToolResultEvent(tool_call_id=call, content=content, meta=meta))
    log.append(TurnEnd(stop_reason="end_turn"))
    log.close()
    return log.path.stem


def _expected_updates(home: Path, session: str) -> str:
    """The document's updates as `CLIENT_UPDATE` dumps each one whole."""
    header, events = SessionStore(home).stream(session, check_first=True)
    updates = list(replayed(events, replay_tools(), header.cwd))
    reads = [u for u in updates if isinstance(u, ToolCallFinished)]
    assert reads and all(isinstance(u.view, ReadResultView) for u in reads)
    dumped = [CLIENT_UPDATE.dump_json(u, by_alias=True, indent=2).decode() for u in updates]
    return ",\n    ".join(text.replace("\n", "\n    ") for text in dumped)


def _shown_updates(home: Path, session: str) -> str:
    shown = tether_in_process(home, "show", session, "--json", encoding="utf-8")
    assert shown.returncode == 0, shown.stderr
    head, _, updates = shown.stdout.partition('  "updates": [\n    ')
    assert head.startswith("{\n") and updates.endswith("\n  ]\n}\n")
    return updates.removesuffix("\n  ]\n}\n")


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    windows=st.lists(
        st.tuples(st.lists(TEXTS, min_size=1, max_size=30), st.dictionaries(TEXTS, JSON)),
        min_size=1,
        max_size=3,
    ),
    pad=st.integers(0, 6000),
)
def test_read_results_are_written_as_pydantic_writes_them(
    tmp_path_factory: Any, windows: list[tuple[list[str], dict[str, Any]]], pad: int
) -> None:
    root = tmp_path_factory.mktemp("spliced")
    (root / "ws").mkdir()
    # A long line puts the window past what is left to pydantic, or not.
    windows = [([*texts, "p" * pad], more) for texts, more in windows]
    session = _logged(root / "home", root / "ws", windows)
    assert _shown_updates(root / "home", session) == _expected_updates(root / "home", session)


def test_what_orjson_cannot_write_is_written_by_pydantic(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    big = ["x" * 100] * 100
    windows = [(big, {"huge": 2**64}), (big, {"low": -(2**63) - 1}), (big, {"fine": 2**63})]
    windows += [(["small"], {})]
    session = _logged(home, ws, windows)
    assert _shown_updates(home, session) == _expected_updates(home, session)
    # Which were marked for orjson: the large window it can write; not those it refuses, nor
    # a small one (splicing it would cost more than pydantic's writing it).
    header, events = SessionStore(home).stream(session, check_first=True)
    updates = list(replayed(events, replay_tools(), header.cwd))
    reads = [u for u in updates if isinstance(u, ToolCallFinished)]
    marked, texts = with_marks(reads)
    assert [m is u for m, u in zip(marked, reads, strict=True)] == [True, True, False, True]
    assert len(texts) == 2


def test_a_document_past_what_is_held_in_memory_reaches_a_file_and_a_pipe_whole(
    tmp_path: Path, ws: Path
) -> None:
    home = tmp_path / "home"
    windows = [([f"line {n} " + "y" * 80 for n in range(400)], {}) for _ in range(40)]
    session = _logged(home, ws, windows)
    env = {"TETHER_HOME": str(home), "NO_COLOR": "1", "PATH": "/usr/bin:/bin"}
    target = tmp_path / "out.json"
    with target.open("wb") as out:
        done = subprocess.run(
            [str(TETHER), "show", session, "--json"], env=env, stdout=out, check=False
        )
    assert done.returncode == 0
    piped = subprocess.run(
        [str(TETHER), "show", session, "--json"], env=env, capture_output=True, check=True
    )
    written = target.read_bytes()
    assert len(written) > 4 * (1 << 20)  # past the 1 MiB held in memory: a temporary file
    assert written == piped.stdout
    updates = written.decode().partition('  "updates": [\n    ')[2].removesuffix("\n  ]\n}\n")
    assert updates == _expected_updates(home, session)
    # A reader that leaves early ends the command quietly, as every other write does.
    into_head(env, "show", session, "--json")
