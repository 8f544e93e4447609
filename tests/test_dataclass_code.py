"""Dataclasses' methods and forward references compiled once per installation
(`tether.dataclass_code`).

Each case runs a fresh interpreter that sends the table under its own `sys.pycache_prefix`
(a temporary folder), so the suite's bytecode and the installation's tables are left alone.
"""

from __future__ import annotations

import importlib.util
import json
import marshal
import os
import re
import sys
from pathlib import Path

import pytest

from tests.fresh import ran
from tether import __version__
from tether.dataclass_code import MAX_ENTRIES

LAYOUT = 2
"""A table file's layout: `(LAYOUT, VERSIONS, {(mode, text): marshalled code})`."""

VERSIONS = (importlib.util.MAGIC_NUMBER, __version__)
"""What a table is made for: the interpreter's bytecode and tether's release."""

_PROBE = """
from __future__ import annotations
import dataclasses, json, sys, typing
from tether.dataclass_code import code_table_path, reuse_dataclass_code
# The table goes under the prefix. The modules are imported first, from the installation's
# own bytecode: under a new prefix each would be compiled from its source again.
sys.pycache_prefix = sys.argv[1]
if sys.argv[2] == "table":
    reuse_dataclass_code("probe")

@dataclasses.dataclass(frozen=True, order=True)
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = dataclasses.field(default=(), compare=False)

@dataclasses.dataclass(kw_only=True, slots=True)
class Box:
    name: str
    items: list[int] = dataclasses.field(default_factory=list)
    def __post_init__(self) -> None:
        self.items.append(len(self.name))

@dataclasses.dataclass(frozen=True, order=True)
class Twin:  # every method's text is Point's
    x: int
    y: int = 0
    tags: tuple[str, ...] = dataclasses.field(default=(), compare=False)

p, q = Point(1, 2, ("a",)), Point(1, 2)
try:
    p.x = 3
    frozen = "assigned"
except dataclasses.FrozenInstanceError as exc:
    frozen = type(exc).__name__
box = Box(name="abc")
hints = typing.get_type_hints(Box)  # its annotations are strings: forward references
try:
    typing.ForwardRef("not an expression(")
    bad = "compiled"
except SyntaxError as exc:
    bad = str(exc)
import re
# Patterns made once the table is in place: their programs are kept in it too.
if "varying" in sys.argv[3:]:  # a text in hash order, which differs between processes
    re.compile("|".join({"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}))
words = re.compile(r"(?P<word>[a-z]+)-(\\d+)", re.IGNORECASE)
comments = re.compile(r"^\\s*#(.*)$", re.MULTILINE)
try:
    re.compile("(unclosed")
    broken = "compiled"
except re.error as exc:
    broken = str(exc)
patterns = [
    [words.pattern, int(words.flags), words.groups, dict(words.groupindex),
     words.findall("Ab-12 x-3"), words.sub("<\\g<word>>", "ab-1")],
    [comments.pattern, int(comments.flags), comments.findall("x\\n  # one\\n#two")],
    broken,
]
print(json.dumps({
    "patterns": patterns,
    "repr": [repr(p), repr(box)],
    "eq": p == q, "lt": Point(0, 9) < p, "hash": hash(p) == hash(q), "twin": repr(Twin(1)),
    "frozen": frozen, "items": box.items, "slots": Box.__slots__,
    "init": Point.__init__.__code__.co_varnames,
    "hints": {name: repr(hint) for name, hint in hints.items()}, "bad": bad,
    "table": str(code_table_path("probe")),
}))
"""
"""Makes a few dataclasses and prints what they do (with the table when argv[2] is `table`; a
pattern whose text each process orders its own way when `varying` follows)."""


def _probe(
    prefix: Path, mode: str, env: dict[str, str] | None = None, *more: str
) -> dict[str, object]:
    answer: dict[str, object] = json.loads(ran(_PROBE, str(prefix), mode, *more, env=env).stdout)
    return answer


def _is_what_compiling_gives(mode: str, text: str, raw: bytes) -> bool:
    """Whether a table entry is what compiling its text gives: a pattern's program makes the
    pattern `re` makes (patterns compare by text, flags and program); other code is compared
    as code, not as bytes (marshal writes a string the process has interned as a reference,
    so the same code dumps to other bytes after other tests ran)."""
    if mode.startswith("re:"):
        made = importlib.import_module("_sre").compile(text, *marshal.loads(raw))
        return bool(made == re.compile(text, int(mode.removeprefix("re:"))))
    return bool(marshal.loads(raw) == compile(text, "<string>", mode, dont_inherit=True))


def _table(path: Path) -> dict[tuple[str, str], bytes]:
    layout, versions, table = marshal.loads(path.read_bytes())
    assert (layout, versions) == (LAYOUT, VERSIONS)
    assert isinstance(table, dict)
    return table


@pytest.fixture
def writing_env() -> dict[str, str]:
    """The environment with bytecode written, whatever the suite's own setting."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def test_classes_from_the_table_are_the_classes_dataclasses_makes(
    tmp_path: Path, writing_env: dict[str, str]
) -> None:
    plain = _probe(tmp_path / "plain", "plain", writing_env)
    first = _probe(tmp_path / "cache", "table", writing_env)  # compiles, and saves at exit
    table = Path(str(first["table"]))
    assert table.is_relative_to(tmp_path / "cache")
    assert table.name == f"dataclasses-probe.{sys.implementation.cache_tag}.marshal"
    stored = table.stat()
    second = _probe(tmp_path / "cache", "table", writing_env)  # every method from the table
    assert {**first, "table": None} == {**second, "table": None} == {**plain, "table": None}
    assert plain["frozen"] == "FrozenInstanceError"
    assert plain["items"] == [3]
    assert plain["hints"] == {"name": "<class 'str'>", "items": "list[int]"}
    assert plain["bad"] == "Forward reference must be an expression -- got 'not an expression('"
    assert plain["twin"] == "Twin(x=1, y=0, tags=())"
    words, comments, broken = plain["patterns"]  # type: ignore[misc]
    assert words[2:] == [2, {"word": 1}, [["Ab", "12"], ["x", "3"]], "<ab>"]
    assert comments[2] == [" one", "two"]
    assert broken == "missing ), unterminated subpattern at position 0"
    # The second run compiled nothing new (not even Twin's, whose texts it had met with
    # Point), so it did not write the table again.
    again = table.stat()
    assert (again.st_ino, again.st_mtime_ns) == (stored.st_ino, stored.st_mtime_ns)


def test_the_table_holds_exactly_what_compiling_each_text_gives(
    tmp_path: Path, writing_env: dict[str, str]
) -> None:
    table = Path(str(_probe(tmp_path, "table", writing_env)["table"]))
    entries = _table(table)
    assert len(entries) >= 8  # both classes' methods: __init__, __repr__, __eq__, ...
    assert any(mode == "exec" and "def __init__(" in text for mode, text in entries)
    assert {("eval", "str"), ("eval", "list[int]")} <= set(entries)
    assert not any("not an expression" in text for _, text in entries)
    assert {("re:2", r"(?P<word>[a-z]+)-(\d+)"), ("re:8", r"^\s*#(.*)$")} <= set(entries)
    assert not any("unclosed" in text for _, text in entries)
    for (mode, text), raw in entries.items():
        assert _is_what_compiling_gives(mode, text, raw), (mode, text)


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not marshal at all",
        marshal.dumps([1, 2, 3]),
        marshal.dumps((LAYOUT, (b"\x00\x00\r\n", __version__), {})),  # another interpreter's
        marshal.dumps((1, VERSIONS, {"x": b"y"})),  # an earlier layout
        marshal.dumps((LAYOUT, VERSIONS, {"x": 1, 2: b"y", ("run", "x"): b""})),
        "BAD",  # a text whose stored code is not code: compiled afresh
        "NUMBER",  # a text whose entry is not bytes at all: compiled afresh
    ],
    ids=["empty", "garbage", "list", "magic", "layout", "types", "not-code", "not-bytes"],
)
def test_a_table_that_does_not_read_back_is_ignored_and_written_afresh(
    tmp_path: Path, writing_env: dict[str, str], content: bytes | str
) -> None:
    expected = _probe(tmp_path / "plain", "plain", writing_env)
    table = Path(str(_probe(tmp_path / "cache", "table", writing_env)["table"]))
    if content == "BAD":
        entries = _table(table)
        spoiled = {key: marshal.dumps("not code") for key in entries}
        content = marshal.dumps((LAYOUT, VERSIONS, spoiled))
    if content == "NUMBER":
        numbers = dict.fromkeys(_table(table), 7)
        content = marshal.dumps((LAYOUT, VERSIONS, numbers))
    assert isinstance(content, bytes)
    table.write_bytes(content)
    again = _probe(tmp_path / "cache", "table", writing_env)
    assert {**again, "table": None} == {**expected, "table": None}
    # Written afresh: every text compiled again reads back as its code.
    for (mode, text), raw in _table(table).items():
        assert _is_what_compiling_gives(mode, text, raw), (mode, text)


def test_nothing_is_written_where_bytecode_is_not(
    tmp_path: Path, writing_env: dict[str, str]
) -> None:
    env = {**writing_env, "PYTHONDONTWRITEBYTECODE": "1"}
    answer = _probe(tmp_path, "table", env)
    assert not Path(str(answer["table"])).exists()
    assert answer == {**_probe(tmp_path, "plain", env), "table": answer["table"]}


def test_a_table_past_its_limit_starts_afresh(tmp_path: Path, writing_env: dict[str, str]) -> None:
    table = Path(str(_probe(tmp_path, "table", writing_env)["table"]))
    # Texts no class of the probe makes: the probe compiles its own, and the table is too full.
    empty = marshal.dumps(compile("", "", "exec"))
    stale = {("exec", f"# {n}\n"): empty for n in range(MAX_ENTRIES)}
    table.write_bytes(marshal.dumps((LAYOUT, VERSIONS, stale)))
    _probe(tmp_path, "table", writing_env)
    kept = _table(table)
    assert kept and not any(text.startswith("# ") for _, text in kept)


def test_another_releases_table_is_not_read_and_is_replaced(
    tmp_path: Path, writing_env: dict[str, str]
) -> None:
    expected = _probe(tmp_path / "plain", "plain", writing_env)
    table = Path(str(_probe(tmp_path / "cache", "table", writing_env)["table"]))
    made = _table(table)
    # As an upgrade in place leaves it: the earlier release's table, this interpreter's, with
    # texts of classes the new release no longer makes (and every text the probe makes, so
    # that a table read would be left as it is: nothing new compiled, nothing written).
    earlier = {**made, ("exec", "# a class of the earlier release\n"): made[next(iter(made))]}
    table.write_bytes(marshal.dumps((LAYOUT, (importlib.util.MAGIC_NUMBER, "0.0.1"), earlier)))
    again = _probe(tmp_path / "cache", "table", writing_env)
    assert {**again, "table": None} == {**expected, "table": None}
    # Not read: the probe compiled its texts again, and the table it saved is this release's,
    # without the earlier release's texts.
    assert _table(table).keys() == made.keys()


def test_a_pattern_a_later_process_does_not_make_is_not_kept(
    tmp_path: Path, writing_env: dict[str, str]
) -> None:
    made = set()
    for seed in range(6):
        env = {**writing_env, "PYTHONHASHSEED": str(seed)}
        answer = _probe(tmp_path, "table", env, "varying")
        kept = [text for _, text in _table(Path(str(answer["table"]))) if "alpha" in text]
        assert len(kept) == 1, kept  # this process's order only, not every earlier one's
        made.update(kept)
    assert len(made) > 1  # the orders did differ
    # What the other patterns and the classes left in the table is still there.
    entries = _table(Path(str(answer["table"])))
    assert ("re:2", r"(?P<word>[a-z]+)-(\d+)") in entries
    assert any(mode == "exec" and "def __init__(" in text for mode, text in entries)


_CHECKS = """
from __future__ import annotations
import json, sys
from tether.dataclass_code import COMPILED_CHECKS, code_table_path, reuse_code_in
from tether.dataclass_code import reuse_dataclass_code
from tether.lazy import before_run
sys.pycache_prefix = sys.argv[1]
if sys.argv[2] == "table":
    reuse_dataclass_code("checks")
    before_run(COMPILED_CHECKS, reuse_code_in)
from typing import Annotated, ClassVar
from typing_inspection import typing_objects
checks = [typing_objects.is_annotated(Annotated), typing_objects.is_classvar(ClassVar)]
checks.append(typing_objects.is_annotated(ClassVar))
namespace = {}
run = getattr(typing_objects, "exec", exec)  # the table's when given, else the builtin
run("def later(x: int) -> str: pass", namespace)  # this module's own `annotations`
def local():
    y = 1
    run("z = y + 1")  # no namespaces: the caller's
    return "z" in locals()
print(json.dumps({
    "checks": checks,
    "names": sorted(typing_objects.is_annotated.__code__.co_names),
    "annotations": namespace["later"].__annotations__,
    "local": local(),
    "table": str(code_table_path("checks")),
}))
"""


def test_typing_inspection_s_checks_are_compiled_from_the_table(
    tmp_path: Path, writing_env: dict[str, str]
) -> None:
    def checked(mode: str) -> dict[str, object]:
        done = ran(_CHECKS, str(tmp_path / mode), mode, env=writing_env)
        answer: dict[str, object] = json.loads(done.stdout)
        return answer

    plain, first, second = checked("plain"), checked("table"), checked("table")
    assert {**first, "table": None} == {**second, "table": None} == {**plain, "table": None}
    assert plain["checks"] == [True, True, False]
    assert plain["annotations"] == {"x": "int", "return": "str"}  # the caller's features
    entries = _table(Path(str(first["table"])))
    made = [text for mode, text in entries if mode == "exec" and "def is_annotated(" in text]
    assert len(made) == 1
    assert not any("def later(" in text for _, text in entries)  # compiled with its features


_THREADS = """
import dataclasses, json, sys, threading
from tether.dataclass_code import code_table_path, reuse_dataclass_code
sys.pycache_prefix = sys.argv[1]
reuse_dataclass_code("threads")
made = {}
start = threading.Barrier(8)
def make(n):
    start.wait()
    for i in range(40):
        fields = [(f"f{j}", int, dataclasses.field(default=j)) for j in range(i % 5)]
        cls = dataclasses.make_dataclass(f"C{n}_{i}", fields, frozen=bool(i % 2))
        shown = ", ".join(f"f{j}={j}" for j in range(i % 5))
        made[(n, i)] = repr(cls()) == f"C{n}_{i}({shown})"
threads = [threading.Thread(target=make, args=(n,)) for n in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
table = str(code_table_path("threads"))
print(json.dumps({"made": len(made), "right": all(made.values()), "table": table}))
"""
"""Makes dataclasses of the same texts from eight threads at once, with the table in place."""


def test_threads_making_the_same_texts_at_once_get_their_classes(
    tmp_path: Path, writing_env: dict[str, str]
) -> None:
    def run() -> dict[str, object]:
        answer: dict[str, object] = json.loads(ran(_THREADS, str(tmp_path), env=writing_env).stdout)
        return answer

    first = run()  # compiled, and kept at exit
    assert first["made"] == 320 and first["right"] is True
    table = Path(str(first["table"]))
    assert any(mode == "exec" and "def __init__(" in text for mode, text in _table(table))
    stored = table.stat()
    second = run()  # every text from the table: nothing new to write
    assert {**second, "table": None} == {**first, "table": None}
    again = table.stat()
    assert (again.st_ino, again.st_mtime_ns) == (stored.st_ino, stored.st_mtime_ns)
