"""The gitlinks of real git indexes, of every format, and of files that are no index."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.gitrepo import git
from tether.sandbox.gitindex import gitlinks


@pytest.mark.parametrize("form", ["sha1", "sha256"])
def test_the_gitlinks_of_each_index_version(tmp_path: Path, form: str) -> None:
    git("init", "-q", f"--object-format={form}", cwd=tmp_path)
    for name in ("lib", "deep/er/a-module-name-long-enough-to-share-a-prefix"):
        (tmp_path / name).mkdir(parents=True)
        git("init", "-q", f"--object-format={form}", cwd=tmp_path / name)
        git("commit", "-q", "--allow-empty", "-m", "x", cwd=tmp_path / name)
    (tmp_path / "deep" / "er" / "a-module-name.txt").write_text("shares the prefix\n")
    (tmp_path / "a.txt").write_text("a\n")
    git("add", "-A", cwd=tmp_path)
    expected = ("deep/er/a-module-name-long-enough-to-share-a-prefix", "lib")
    index = tmp_path / ".git" / "index"
    assert gitlinks(index) == expected
    git("update-index", "--index-version", "3", "--skip-worktree", "a.txt", cwd=tmp_path)
    assert gitlinks(index) == expected  # an extended entry (its flags take two more bytes)
    git("update-index", "--index-version", "4", cwd=tmp_path)
    assert gitlinks(index) == expected  # prefix-compressed names


def test_what_is_no_index_has_no_gitlinks(tmp_path: Path) -> None:
    assert gitlinks(tmp_path / "missing") == ()
    (tmp_path / "short").write_bytes(b"DIRC\0\0\0\2\0\0\0\5" + b"\1" * 70)
    assert gitlinks(tmp_path / "short") == ()
    (tmp_path / "text").write_text("not an index\n")
    assert gitlinks(tmp_path / "text") == ()
    os.mkfifo(tmp_path / "fifo")
    assert gitlinks(tmp_path / "fifo") == ()  # not read: it would block
    (tmp_path / "link").symlink_to(tmp_path / "text")
    assert gitlinks(tmp_path / "link") == ()
