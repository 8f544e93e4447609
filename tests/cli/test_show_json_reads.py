"""`tether show --json` writes read results whole with orjson, from the plain values pydantic
makes of them (`tether.cli.show_json_reads`), and holds the document in a temporary file sent
out by the kernel (`tether.cli.held_output`): the bytes must be those pydantic writes whole.

Each case writes a real log with read results (lines of any text, a stored meta with values
of every JSON type, integers past 64 bits among them), shows it, and compares with every
update dumped by `CLIENT_UPDATE` one at a time, indented as the document's elements are.
"""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path
from typing import Any, Literal

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic_core import to_json

from tests.cli.in_process import tether_in_process
from tests.cli.support import TETHER, into_head
from tether.cli import show_json_reads
from tether.cli.show_json_reads import read_result_json
from tether.content import ImageContent, TextContent
from tether.session import SessionStore
from tether.session.log.events import ToolCallEvent, ToolResultEvent, TurnEnd, TurnStart
from tether.session.replay import replayed
from tether.session.updates import CLIENT_UPDATE, ToolCallFinished, call_finished
from tether.tools.defaults import replay_tools
from tether.tools.outcome import PERMISSION_DECISIONS, PermissionOutcome
from tether.tools.result import ToolResult
from tether.views import NotebookCell, NotebookView, ReadLines, ReadResultView

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


def _reads(home: Path, session: str) -> list[ToolCallFinished]:
    """The session's finished calls, replayed."""
    header, events = SessionStore(home).stream(session, check_first=True)
    updates = replayed(events, replay_tools(), header.cwd)
    return [u for u in updates if isinstance(u, ToolCallFinished)]


def _element(update: ToolCallFinished) -> bytes:
    """`update` as pydantic writes it whole, indented as an element of the document's list."""
    return CLIENT_UPDATE.dump_json(update, by_alias=True, indent=2).replace(b"\n", b"\n    ")


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    windows=st.lists(
        st.tuples(st.lists(TEXTS, max_size=30), st.dictionaries(MORE_KEYS, JSON)),
        min_size=1,
        max_size=3,
    ),
)
def test_read_results_are_written_as_pydantic_writes_them(
    tmp_path_factory: Any, windows: list[tuple[list[str], dict[str, Any]]]
) -> None:
    # Windows of any number of lines (none too), with any meta beside them.
    root = tmp_path_factory.mktemp("reads")
    (root / "ws").mkdir()
    session = _logged(root / "home", root / "ws", windows)
    assert _shown_updates(root / "home", session) == _expected_updates(root / "home", session)


def test_what_orjson_cannot_write_is_written_by_pydantic(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    big = ["x" * 100] * 100
    windows = [(big, {"huge": 2**64}), (big, {"low": -(2**63) - 1}), (big, {"fine": 2**63})]
    windows += [(["one"], {"float": 0.1}), ([], {})]
    session = _logged(home, ws, windows)
    assert _shown_updates(home, session) == _expected_updates(home, session)
    # Which orjson wrote: the windows it can write (however short), not those it refuses;
    # each as pydantic writes it.
    reads = _reads(home, session)
    written = [read_result_json(read) for read in reads]
    assert [text is not None for text in written] == [False, False, True, True, True]
    for read, text in zip(reads, written, strict=True):
        assert text is None or bytes(text) == _element(read)


@settings(max_examples=200, deadline=None)
@given(value=JSON)
def test_orjson_writes_any_json_value_as_pydantic_does(value: Any) -> None:
    # A read result's values are written by orjson in pydantic's place: the same numbers
    # (floats too), escapes and two-space layout, at any depth; only an integer past 64 bits
    # is refused (and left to pydantic).
    for nested in (value, [[value]], {"a": [{"b": value}]}):
        try:
            written = orjson.dumps(nested, option=orjson.OPT_INDENT_2)
        except TypeError as refused:
            assert "64-bit" in str(refused)
            continue
        assert written == to_json(nested, indent=2)


def test_orjson_writes_every_code_point_as_pydantic_does() -> None:
    # The stored text is written by orjson in pydantic's place: every code point but the
    # surrogates (which both refuse alone), in one string (a string's escapes do not depend
    # on what is around them, so any difference would show).
    points = "".join(chr(n) for n in range(0x110000) if not 0xD800 <= n <= 0xDFFF)
    written = orjson.dumps(points)
    assert written == to_json(points)


OPTIONAL_TEXT = st.none() | TEXTS
SIZE = st.integers(min_value=0, max_value=2**40)


@settings(max_examples=150, deadline=None)
@given(
    texts=st.lists(TEXTS, max_size=5),
    card=st.fixed_dictionaries(
        {"path": TEXTS, "offset": SIZE, "total_lines": SIZE},
        optional={
            "title": OPTIONAL_TEXT,
            "lang": OPTIONAL_TEXT,
            "content": OPTIONAL_TEXT,
            "byte_cap": st.none() | SIZE,
        },
    ),
    blocks=st.lists(TEXTS, max_size=3),
    is_error=st.booleans(),
    meta=JSON,
    status=st.sampled_from(["completed", "failed"]),
    permission=st.none() | st.sampled_from([*PERMISSION_DECISIONS, "refused"]),
)
def test_a_read_result_of_any_fields_is_written_as_pydantic_writes_it(
    *,
    texts: list[str],
    card: dict[str, Any],
    blocks: list[str],
    is_error: bool,
    meta: Any,
    status: Literal["completed", "failed"],
    permission: PermissionOutcome | None,
) -> None:
    # Every field of the card, the stored result and the update, set or not: the JSON put
    # together for orjson is pydantic's, key for key.
    lines = [{"number": number, "text": text} for number, text in enumerate(texts, 1)]
    window = ReadLines(lines, [line["number"] for line in lines])
    view = ReadResultView(lines=window, **card)
    content = tuple(TextContent(text=text) for text in blocks)
    result = ToolResult(content=content, is_error=is_error, meta=meta)
    update = call_finished("call_1", status, view, result, permission)
    written = read_result_json(update)
    if written is None:  # only an integer past 64 bits is refused
        with pytest.raises(TypeError, match="64-bit"):
            orjson.dumps(meta)
        return
    assert bytes(written) == _element(update)


def test_a_read_result_written_some_other_way_is_left_to_pydantic(
    tmp_path: Path, ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    [read] = _reads(home, _logged(home, ws, [(["line"] * 20, {})]))
    assert isinstance(read.view, ReadResultView)
    assert read_result_json(read) is not None
    # A notebook's cells, and a result block that is not text.
    cell = NotebookCell(id="c1", cell_type="code", source="1 + 1")
    notebook = NotebookView(language="python", cells=(cell,))
    assert (
        read_result_json(
            dataclasses.replace(read, view=dataclasses.replace(read.view, notebook=notebook))
        )
        is None
    )
    image = ImageContent(data="aGk=", mime_type="image/png")
    stored = dataclasses.replace(read.result, content=(*read.result.content, image))
    assert read_result_json(dataclasses.replace(read, result=stored)) is None
    # Classes of other fields than those it puts together (here: the card, said to have one
    # more): every read result is pydantic's.
    fields = {**show_json_reads._FIELDS}
    fields["ReadResultView"] += ("more",)
    monkeypatch.setattr(show_json_reads, "_FIELDS", fields)
    monkeypatch.setattr(show_json_reads, "_CARDS", [])
    assert read_result_json(read) is None


def test_a_lone_surrogate_is_left_to_pydantic(tmp_path: Path, ws: Path) -> None:
    # No log stores one, but a result made in the process may hold one: orjson refuses it,
    # and pydantic's refusal is the document's (which escapes the update's JSON).
    home = tmp_path / "home"
    [read] = _reads(home, _logged(home, ws, [(["line"] * 20, {})]))
    assert isinstance(read.view, ReadResultView)
    torn = dataclasses.replace(read.view, content="\ud800" + (read.view.content or ""))
    assert read_result_json(dataclasses.replace(read, view=torn)) is None
    meta = {**read.result.meta, "torn": "\udfff"}
    stored = dataclasses.replace(read.result, meta=meta)
    assert read_result_json(dataclasses.replace(read, result=stored)) is None


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
