"""A conflict's diff reads the file as it is now; the workspace may have made it hostile
between the check and the read: a FIFO no one writes, a huge file, a link out of it. The
restore journal, in tether's data directory, is read as warily."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tether.checkpoints import open_store, recover
from tether.checkpoints.files import Blob
from tether.errors import CheckpointError
from tether.session.rewind.plan import _short_diff


def test_a_swapped_file_is_named_never_read(tmp_path: Path, ws: Path) -> None:
    (ws / "sub").mkdir()
    (ws / "sub" / "a.py").write_text("x = 1\n")
    store = open_store(tmp_path / "home", ws)
    tree = store.snapshot(None).tree
    wanted = store.states(tree, ["sub/a.py"])["sub/a.py"]
    assert isinstance(wanted, Blob)
    (ws / "sub" / "a.py").write_text("x = 'mine'\n")
    now = Blob("0" * 40, "100644")  # what the check saw, a moment before the read
    assert "-x = 'mine'" in _short_diff(store, "sub/a.py", now, wanted)

    # A FIFO: a plain read would block for ever.
    os.unlink(ws / "sub" / "a.py")
    os.mkfifo(ws / "sub" / "a.py")
    assert _short_diff(store, "sub/a.py", now, wanted) == "(not shown: not a regular file (a FIFO))"

    # A huge file is not read into memory.
    os.unlink(ws / "sub" / "a.py")
    with open(ws / "sub" / "a.py", "wb") as huge:
        huge.truncate(1 << 30)
    diff = _short_diff(store, "sub/a.py", now, wanted)
    assert diff == f"(not shown: {1 << 30} bytes, more than the 262144 allowed)"

    # The file, or a folder on its way, swapped for a link out of the workspace.
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "a.py").write_text("SECRET = 'outside the workspace'\n")
    os.unlink(ws / "sub" / "a.py")
    (ws / "sub" / "a.py").symlink_to(outside / "a.py")
    assert _short_diff(store, "sub/a.py", now, wanted) == "(not shown: a symbolic link)"
    os.unlink(ws / "sub" / "a.py")
    os.rmdir(ws / "sub")
    (ws / "sub").symlink_to(outside)
    assert _short_diff(store, "sub/a.py", now, wanted) == "(not shown: behind a symbolic link)"


def test_a_journal_that_is_a_fifo_or_a_link_is_refused_not_waited_on(
    tmp_path: Path, ws: Path
) -> None:
    store = open_store(tmp_path / "home", ws)
    journal = tmp_path / "session.restore.json"
    os.mkfifo(journal)
    with pytest.raises(CheckpointError, match=r"not a regular file \(a FIFO\)"):
        recover(store, journal)
    journal.unlink()
    (tmp_path / "elsewhere.json").write_text("{}")
    journal.symlink_to(tmp_path / "elsewhere.json")
    with pytest.raises(CheckpointError, match="a symbolic link, which is not followed"):
        recover(store, journal)
    journal.unlink()
    assert recover(store, journal) is None
