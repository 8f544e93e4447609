"""Modules' bytecode read from one table (`tether.module_code`).

Each case runs a fresh interpreter that imports a few modules the test writes, with the table
in place or without it. Their bytecode (and the table) goes under the interpreter's own
`sys.pycache_prefix`, a temporary folder, so the suite's bytecode and the checkout's table are
left alone.
"""

from __future__ import annotations

import importlib.util
import json
import marshal
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.fresh import ran
from tests.nobody import AS_NOBODY, skip_unless_nobody_runs_the_checkout

_PROBE = """
import json, sys
from tether.module_code import module_table_path, reuse_module_code
prefix, folder, mode, table = sys.argv[1:5]
if prefix != "-":
    sys.pycache_prefix = prefix
sys.path.insert(0, folder)
if "hash" in sys.argv[5:]:  # alpha's bytecode checked by a hash of its source
    import py_compile
    from importlib.util import cache_from_source
    alpha = folder + "/alpha.py"
    py_compile.compile(alpha, cache_from_source(alpha), doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
if "count" in sys.argv[5:]:  # how much bytecode a save reads, said after it
    import atexit
    import tether.module_code as module_code
    read = []
    bytecode = module_code._bytecode
    module_code._bytecode = lambda source: read.append(source) or bytecode(source)
    atexit.register(lambda: print("bytecode read:", len(read), file=sys.stderr))
if mode == "table":
    reuse_module_code(None if table == "-" else table)
import alpha
import pkg.beta
print(json.dumps({
    "alpha": alpha.VALUE,
    "beta": pkg.beta.VALUE,
    "file": alpha.where.__code__.co_filename,
    "loader": type(alpha.__loader__).__name__,
    "table": module_table_path() if table == "-" else table,
}))
"""
"""Imports `alpha` and `pkg.beta` from a folder (with the table when told) and prints what
they hold, the file `alpha`'s code names, and where the table is."""

_FORMAT = 1
_VERSIONS = (importlib.util.MAGIC_NUMBER,)


def _modules(folder: Path, value: int = 1) -> Path:
    """The probe's modules in `folder`; `alpha.VALUE` is `value`."""
    (folder / "pkg").mkdir(parents=True)
    _alpha(folder, value)
    (folder / "pkg" / "__init__.py").write_text("")
    beta = "from alpha import VALUE as ALPHA\n\nVALUE = ALPHA * 2\n"
    (folder / "pkg" / "beta.py").write_text(beta)
    return folder


def _alpha(folder: Path, value: int) -> Path:
    """`alpha` written again, its `VALUE` being `value`."""
    alpha = folder / "alpha.py"
    alpha.write_text(f"VALUE = {value}\n\n\ndef where():\n    pass\n")
    return alpha


@pytest.fixture
def writing_env() -> dict[str, str]:
    """The environment with bytecode written, whatever the suite's own setting."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _probe(
    prefix: Path | None,
    folder: Path,
    env: dict[str, str],
    mode: str = "table",
    table: Path | None = None,
    *more: str,
) -> dict[str, object]:
    argv = (str(prefix or "-"), str(folder), mode, str(table or "-"), *more)
    answer: dict[str, object] = json.loads(ran(_PROBE, *argv, env=env, timeout=60).stdout)
    return answer


def _entries(table: Path) -> dict[str, tuple[int, int, bytes]]:
    """The table's entries: source path -> (mtime, size, code's bytes)."""
    data = table.read_bytes()
    length = int.from_bytes(data[:8], "little")
    layout, versions, index = marshal.loads(data[8 : 8 + length])
    assert (layout, versions) == (_FORMAT, _VERSIONS)
    base = 8 + length
    return {
        source: (mtime, size, data[base + start : base + start + length_])
        for source, (mtime, size, start, length_) in index.items()
    }


def _bytecode(prefix: Path, source: Path) -> Path:
    """Where Python writes `source`'s bytecode under `prefix`."""
    name = f"{source.stem}.{sys.implementation.cache_tag}.pyc"
    return prefix / source.parent.relative_to(source.anchor) / name


def _is_its_bytecode(entry: tuple[int, int, bytes], source: Path, bytecode: Path) -> bool:
    """Whether `entry` is what Python wrote for `source` as it is now."""
    mtime, size, code = entry
    found = source.stat()
    data = bytecode.read_bytes()
    return (
        (mtime, size) == (int(found.st_mtime) & 0xFFFFFFFF, found.st_size)
        and data[8:12] == mtime.to_bytes(4, "little")
        and data[16:] == code
    )


def test_modules_come_from_the_table_once_it_holds_them(
    tmp_path: Path, writing_env: dict[str, str]
) -> None:
    folder = _modules(tmp_path / "modules")
    prefix = tmp_path / "cache"
    plain = _probe(prefix / "plain", folder, writing_env, "plain")
    assert plain["loader"] == "SourceFileLoader"
    first = _probe(prefix, folder, writing_env)  # loaded as Python loads them; kept at exit
    table = Path(str(first["table"]))
    assert table.is_relative_to(prefix)
    assert table.name == f"modules.{sys.implementation.cache_tag}.table"
    sources = [folder / "alpha.py", folder / "pkg" / "__init__.py", folder / "pkg" / "beta.py"]
    entries = _entries(table)
    assert set(entries) == {str(source) for source in sources}
    for source in sources:
        assert _is_its_bytecode(entries[str(source)], source, _bytecode(prefix, source))
    # Without their bytecode files, the modules still load, from the table: Python's loader
    # would have compiled them and written the files again.
    for source in sources:
        _bytecode(prefix, source).unlink()
    stored = table.stat()
    second = _probe(prefix, folder, writing_env)
    expected = {**plain, "loader": "_TableLoader", "table": str(table)}
    assert first == second == expected
    assert plain == {**expected, "loader": "SourceFileLoader", "table": plain["table"]}
    assert (plain["alpha"], plain["beta"], plain["file"]) == (1, 2, str(folder / "alpha.py"))
    assert not any(_bytecode(prefix, source).exists() for source in sources)
    again = table.stat()  # nothing new: not written again
    assert (again.st_ino, again.st_mtime_ns) == (stored.st_ino, stored.st_mtime_ns)


def test_a_changed_source_is_loaded_as_it_is_now_and_kept(
    tmp_path: Path, writing_env: dict[str, str]
) -> None:
    folder = _modules(tmp_path / "modules")
    prefix = tmp_path / "cache"
    table = Path(str(_probe(prefix, folder, writing_env)["table"]))
    beta = _entries(table)[str(folder / "pkg" / "beta.py")]
    alpha = _alpha(folder, 20)  # a byte longer
    assert _probe(prefix, folder, writing_env)["alpha"] == 20
    assert _is_its_bytecode(_entries(table)[str(alpha)], alpha, _bytecode(prefix, alpha))
    # As long as before, but later: its time tells it apart (as it does for Python).
    _alpha(folder, 30)
    later = alpha.stat().st_mtime + 10
    os.utime(alpha, (later, later))
    answer = _probe(prefix, folder, writing_env)
    assert (answer["alpha"], answer["beta"]) == (30, 60)
    entries = _entries(table)
    assert _is_its_bytecode(entries[str(alpha)], alpha, _bytecode(prefix, alpha))
    assert entries[str(folder / "pkg" / "beta.py")] == beta  # unchanged, kept as it was


def _spoiled(table: Path, how: str) -> bytes:
    """The table at `table`, spoiled as `how` says."""
    entries = _entries(table)
    index: dict[Any, Any] = {}
    start = 0
    for source, (mtime, size, code) in entries.items():
        index[source] = (mtime, size, start, len(code))
        start += len(code)
    blob = b"".join(code for _, _, code in entries.values())
    layout: Any = _FORMAT
    versions: Any = _VERSIONS
    if how == "magic":
        versions = (b"\x00\x00\r\n",)
    elif how == "layout":
        layout = 0
    elif how == "past-end":
        index = {source: (m, s, a + len(blob), n) for source, (m, s, a, n) in index.items()}
    elif how == "huge":  # read whole, it would be more memory than there is
        index = {source: (m, s, a, 1 << 40) for source, (m, s, a, n) in index.items()}
    elif how == "negative":
        index = {source: (m, s, -1, n) for source, (m, s, a, n) in index.items()}
    elif how == "not-code":
        blob = marshal.dumps("not code")
        index = {source: (m, s, 0, len(blob)) for source, (m, s, a, n) in index.items()}
    elif how == "not-marshal":
        blob = b"\xff" * 64
        index = {source: (m, s, 0, len(blob)) for source, (m, s, a, n) in index.items()}
    elif how == "types":
        index = {1: (0, 0, 0, 0), **dict.fromkeys(index, ("x", None))}
    elif how == "index":
        index = dict.fromkeys(["not", "a", "dict"])
        head = marshal.dumps((layout, versions, list(index)))
        return len(head).to_bytes(8, "little") + head + blob
    head = marshal.dumps((layout, versions, index))
    if how == "short":
        return len(head).to_bytes(8, "little") + head[:-1]
    return len(head).to_bytes(8, "little") + head + blob


@pytest.mark.parametrize(
    "how",
    [
        "empty",
        "garbage",
        "short",
        "magic",
        "layout",
        "index",
        "types",
        "past-end",
        "huge",
        "negative",
        "not-code",
        "not-marshal",
    ],
)
def test_a_table_that_does_not_read_back_is_ignored_and_written_afresh(
    tmp_path: Path, writing_env: dict[str, str], how: str
) -> None:
    folder = _modules(tmp_path / "modules")
    prefix = tmp_path / "cache"
    table = Path(str(_probe(prefix, folder, writing_env)["table"]))
    if how == "empty":
        table.write_bytes(b"")
    elif how == "garbage":
        table.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00not a table at all")
    else:
        table.write_bytes(_spoiled(table, how))
    answer = _probe(prefix, folder, writing_env)
    assert (answer["alpha"], answer["beta"], answer["loader"]) == (1, 2, "_TableLoader")
    entries = _entries(table)  # written afresh, and read back
    for source in (folder / "alpha.py", folder / "pkg" / "beta.py"):
        assert _is_its_bytecode(entries[str(source)], source, _bytecode(prefix, source))


def test_a_pipe_where_the_table_goes_holds_nothing_up(
    tmp_path: Path, writing_env: dict[str, str]
) -> None:
    folder = _modules(tmp_path / "modules")
    table = tmp_path / "table"
    os.mkfifo(table)
    answer = _probe(tmp_path / "cache", folder, writing_env, "table", table)
    assert (answer["alpha"], answer["beta"]) == (1, 2)


def test_nothing_is_written_where_bytecode_is_not(
    tmp_path: Path, writing_env: dict[str, str]
) -> None:
    env = {**writing_env, "PYTHONDONTWRITEBYTECODE": "1"}
    answer = _probe(tmp_path / "cache", _modules(tmp_path / "modules"), env)
    assert (answer["alpha"], answer["beta"]) == (1, 2)
    assert not Path(str(answer["table"])).exists()


def test_bytecode_checked_by_hash_is_not_kept(tmp_path: Path, writing_env: dict[str, str]) -> None:
    folder = _modules(tmp_path / "modules")
    prefix = tmp_path / "cache"
    answer = _probe(prefix, folder, writing_env, "table", None, "hash")
    table = Path(str(answer["table"]))
    assert str(folder / "alpha.py") not in _entries(table)
    assert str(folder / "pkg" / "beta.py") in _entries(table)
    stored = table.stat()
    # Loaded as Python loads it each time, and nothing new to keep: the table stays.
    assert _probe(prefix, folder, writing_env) == answer
    again = table.stat()
    assert (again.st_ino, again.st_mtime_ns) == (stored.st_ino, stored.st_mtime_ns)


def test_a_moved_source_s_code_names_where_it_is_now(
    tmp_path: Path, writing_env: dict[str, str]
) -> None:
    # Bytecode beside its source (no prefix), moved with it: its code still names the place
    # it was compiled at, which Python mends as it loads it, and so must the table.
    there = _modules(tmp_path / "there")
    _probe(None, there, writing_env, "plain")
    here = there.rename(tmp_path / "here")
    table = tmp_path / "table"
    first = _probe(None, here, writing_env, "table", table)
    moved = _entries(table)[str(here / "alpha.py")][2]
    assert str(there / "alpha.py").encode() in moved  # the code as it was compiled
    second = _probe(None, here, writing_env, "table", table)
    assert first["file"] == second["file"] == str(here / "alpha.py")
    assert second["loader"] == "_TableLoader"


def test_a_save_keeps_what_others_saved_while_its_sources_are_unchanged(
    tmp_path: Path, writing_env: dict[str, str]
) -> None:
    prefix = tmp_path / "cache"
    table = tmp_path / "table"
    one = _modules(tmp_path / "one")
    two = _modules(tmp_path / "two", value=5)
    _probe(prefix, one, writing_env, "table", table)
    assert _probe(prefix, two, writing_env, "table", table)["beta"] == 10
    assert {str(one / "alpha.py"), str(two / "alpha.py")} <= set(_entries(table))
    (one / "pkg" / "beta.py").unlink()
    _probe(prefix, _modules(tmp_path / "three"), writing_env, "table", table)
    kept = set(_entries(table))
    assert str(one / "pkg" / "beta.py") not in kept  # its source is gone
    assert {str(one / "alpha.py"), str(two / "pkg" / "beta.py")} <= kept  # unchanged: kept
    assert str(tmp_path / "three" / "alpha.py") in kept


def test_no_bytecode_is_read_for_a_table_no_one_may_write(writing_env: dict[str, str]) -> None:
    # An installation its user may not write to (installed by root): each run loads its
    # modules as Python does, and reads no bytecode at exit for a table it cannot save.
    skip_unless_nobody_runs_the_checkout()
    shared = Path(tempfile.mkdtemp(prefix="tether-module-code-"))
    try:
        shared.chmod(0o755)
        folder = _modules(shared / "modules")
        for path in (folder, folder / "pkg"):
            path.chmod(0o755)
        prefix = shared / "cache"
        prefix.mkdir(mode=0o777)
        prefix.chmod(0o777)  # Python writes the modules' bytecode; the table is another's
        readonly = shared / "installed"
        readonly.mkdir(mode=0o755)
        argv = [str(prefix), str(folder), "table", str(readonly / "table"), "count"]
        done = ran(_PROBE, *argv, env=writing_env, user=tuple(AS_NOBODY), timeout=60)
        assert json.loads(done.stdout)["beta"] == 2
        assert "bytecode read: 0" in done.stderr
        assert not (readonly / "table").exists()
        # Where it may write, the same run keeps what it loaded.
        readonly.chmod(0o777)
        done = ran(_PROBE, *argv, env=writing_env, user=tuple(AS_NOBODY), timeout=60)
        assert "bytecode read: 3" in done.stderr
        assert str(folder / "alpha.py") in _entries(readonly / "table")
    finally:
        shutil.rmtree(shared)
