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

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic_core import to_json

from tests.cli.in_process import tether_in_process
from tests.cli.support import TETHER, into_head
from tether.cli.show_json_spliced import _SHARED, _shared_text, with_marks
from tether.content import ImageContent, TextContent
from tether.session import SessionStore
from tether.session.log.events import ToolCallEvent, ToolResultEvent, TurnEnd, TurnStart
from tether.session.replay import replayed
from tether.session.updates import CLIENT_UPDATE, ToolCallFinished
from tether.tools.defaults import replay_tools
from tether.views import ReadResultView

TEXTS = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)
"""A line's text: anything JSON carries but a lone surrogate (no log could store one)."""

TEXTS_ANY = st.text(
    st.characters(exclude_categories=["Cs"]) | st.sampled_from('"\\\n\t\x00\x1f\x7f/é✓😀'),
    max_size=40,
)
"""A text with JSON's escapes more often at its edges."""

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXTS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXTS, inner, max_size=4),
    max_leaves=12,
)


READ_KEYS = frozenset({"path", "offset", "lines", "totalLines", "lang", "byteCap", "notebook"})
"""The keys a read result's meta says its card with (a `notebook` key makes a notebook's)."""

MORE_KEYS = TEXTS.filter(lambda key: key not in READ_KEYS)
"""Keys a read card leaves as they are: the window stays a window (hypothesis draws the
strings the code holds, so `notebook` and `lang` come up)."""


def _logged(home: Path, ws: Path, windows: list[tuple[list[str], dict[str, Any]]]) -> str:
    """A session of one read result per window (its lines, numbered from 1, and more keys in
    its meta, none a read card reads); its id."""
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
        st.tuples(st.lists(TEXTS, min_size=1, max_size=30), st.dictionaries(MORE_KEYS, JSON)),
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
    marked, splices = with_marks(reads)
    assert [m is u for m, u in zip(marked, reads, strict=True)] == [True, True, False, True]
    # Its lines and meta, and its card's text with the stored text that holds it.
    assert [splice.value for splice in splices.values()] == [
        reads[2].view.lines.logged,
        reads[2].view.content,
        reads[2].result.content[0].text,
        reads[2].result.meta,
    ]


@settings(max_examples=300, deadline=None)
@given(before=TEXTS_ANY, text=TEXTS_ANY, after=TEXTS_ANY)
def test_a_cards_text_is_written_from_the_stored_texts_json(
    before: str, text: str, after: str
) -> None:
    # A string's escapes do not depend on what is around it: the card's text, a part of the
    # stored text, is that part of the stored text's JSON, whatever its edges are.
    text = text + "t" * _SHARED + text
    block = TextContent(text=before + text + after)
    shared = _shared_text(text, (block, ImageContent(data="AA==", mime_type="image/png")))
    assert shared is not None
    found, card_json, block_json = shared
    assert found is block
    assert bytes(block_json) == to_json(block.text)
    assert b'"' + bytes(card_json) + b'"' == to_json(text)


def test_orjson_writes_every_code_point_as_pydantic_does() -> None:
    # The stored text is written by orjson in pydantic's place: every code point but the
    # surrogates (which both refuse alone), in one string (a string's escapes do not depend
    # on what is around them, so any difference would show).
    points = "".join(chr(n) for n in range(0x110000) if not 0xD800 <= n <= 0xDFFF)
    written = orjson.dumps(points)
    assert written == to_json(points)


def test_a_cards_text_not_in_the_stored_text_is_left_to_pydantic() -> None:
    text = "x" * _SHARED
    block = TextContent(text=f"<content>\n{text}\n</content>")
    assert _shared_text(text, (block,)) is not None
    assert _shared_text(None, (block,)) is None
    assert _shared_text(text[1:], (block,)) is None  # too short to be worth it
    assert _shared_text(text, ()) is None
    assert _shared_text(text, (ImageContent(data="AA==", mime_type="image/png"), block)) is None
    assert _shared_text(text + "y", (block,)) is None  # not in it
    assert _shared_text(text[:64] + "z" * _SHARED, (block,)) is None  # its start only
    # A lone surrogate (which pydantic refuses to write): the update is pydantic's to refuse.
    torn = TextContent(text=f"\ud800{text}")
    assert _shared_text(text, (torn,)) is None


def test_a_window_with_a_short_text_marks_its_lines_and_meta_only(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    session = _logged(home, ws, [([""] * 40, {})])  # 40 empty lines: a short text
    assert _shown_updates(home, session) == _expected_updates(home, session)
    header, events = SessionStore(home).stream(session, check_first=True)
    [read] = [
        u for u in replayed(events, replay_tools(), header.cwd) if u.kind == "tool_call_finished"
    ]
    _, splices = with_marks([read])
    assert [splice.value for splice in splices.values()] == [
        read.view.lines.logged,
        read.result.meta,
    ]


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
