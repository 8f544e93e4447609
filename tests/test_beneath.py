"""Walking a checked path without following symlinks: what opens, and what is refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tether.beneath import open_file, opened_dir, opener_below
from tether.bounded import UnreadableFile, read_bounded
from tether.errors import ToolError
from tether.tools.fs.atomic import atomic_write
from tether.tools.fs.change_checks import current_version, read_unchanged
from tether.tools.observations import file_version


def _read(path: Path, roots: tuple[Path, ...] = ()) -> bytes:
    fd = open_file(path, os.O_RDONLY, roots)
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path.resolve() / "ws"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f.txt").write_text("inside")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "f.txt").write_text("outside")
    return root


def test_a_real_path_opens_from_its_root_or_from_slash(tree: Path) -> None:
    target = tree / "a" / "b" / "f.txt"
    assert _read(target, (tree / "a", tree)) == b"inside"
    assert _read(target) == b"inside"  # no root holds it: walked from /


def test_a_folder_above_a_nested_root_swapped_for_a_link_is_refused(tree: Path) -> None:
    # A root inside another (a directory added below the workspace): the walk starts at the
    # outer one, so a folder between them that a command swapped for a link after the check
    # is refused, never followed out of the workspace, whatever order the roots come in.
    (tree / "a").rename(tree / "kept")
    outside = tree.parent / "out"
    (outside / "b").mkdir()
    (outside / "b" / "f.txt").write_text("outside")
    (tree / "a").symlink_to(outside)
    target = tree / "a" / "b" / "f.txt"
    for roots in ((tree, tree / "a" / "b"), (tree / "a" / "b", tree)):
        with pytest.raises(ToolError, match=r"\(a is now a symbolic link\); try again"):
            _read(target, roots)
        with pytest.raises(ToolError, match=r"\(a is now a symbolic link\); try again"):
            atomic_write(target, b"clobbered", roots)
    assert (outside / "b" / "f.txt").read_text() == "outside"
    # Roots apart from each other: each path is walked from the one that holds it.
    assert _read(tree / "kept" / "b" / "f.txt", (outside, tree)) == b"inside"
    assert _read(outside / "f.txt", (tree, outside)) == b"outside"


def test_a_root_is_opened_by_its_name_and_only_below_it_are_links_refused(
    tmp_path: Path,
) -> None:
    # What is above a root is the user's, not the workspace's: a folder there that became a
    # link (the workspace moved and linked back) still leads to it; walked from `/`, refused.
    home = tmp_path.resolve() / "home"
    root = home / "ws"
    root.mkdir(parents=True)
    (root / "f.txt").write_text("inside")
    home.rename(tmp_path / "moved")
    home.symlink_to(tmp_path / "moved")
    assert _read(root / "f.txt", (root,)) == b"inside"
    with pytest.raises(ToolError, match=r"\(home is now a symbolic link\); try again"):
        _read(root / "f.txt")


def test_a_symlink_on_the_way_or_at_the_end_is_refused(tree: Path) -> None:
    (tree / "link").symlink_to(tree.parent / "out")
    (tree / "a" / "last.txt").symlink_to(tree.parent / "out" / "f.txt")
    with pytest.raises(ToolError, match=r"ws/link changed while it was being opened \(link is now"):
        _read(tree / "link" / "f.txt", (tree,))
    with pytest.raises(ToolError, match=r"\(last.txt is now a symbolic link\); try again"):
        _read(tree / "a" / "last.txt", (tree,))


def test_what_is_missing_or_not_a_directory_fails_as_os_open_would(tree: Path) -> None:
    with pytest.raises(FileNotFoundError):
        _read(tree / "nope" / "f.txt", (tree,))
    with pytest.raises(NotADirectoryError):
        _read(tree / "a" / "b" / "f.txt" / "inner", (tree,))


def test_missing_directories_are_made_on_the_way(tree: Path) -> None:
    with opened_dir(tree / "a" / "new" / "deeper", (tree,), create=True) as fd:
        assert os.path.samestat(os.fstat(fd), os.stat(tree / "a" / "new" / "deeper"))


def test_the_version_and_content_checks_refuse_a_swapped_or_changed_file(tree: Path) -> None:
    target = tree / "a" / "b" / "f.txt"
    before = file_version(target)
    assert current_version(target, (tree,)) == before
    assert read_unchanged(target, before, (tree,)) == b"inside"
    target.write_text("changed!")
    with pytest.raises(ToolError, match="changed since it was read"):
        read_unchanged(target, before, (tree,))
    target.unlink()
    with pytest.raises(ToolError, match=r"Cannot read .*f.txt: No such file"):
        read_unchanged(target, before, (tree,))
    target.symlink_to(tree.parent / "out" / "f.txt")
    with pytest.raises(ToolError, match="is now a symbolic link"):
        current_version(target, (tree,))
    with pytest.raises(ToolError, match="is now a symbolic link"):
        atomic_write(target, b"x", (tree,))
    assert (tree.parent / "out" / "f.txt").read_text() == "outside"


def test_opener_below_reads_inside_and_refuses_a_folder_swapped_for_a_link(tree: Path) -> None:
    opener = opener_below((tree,))
    target = tree / "a" / "b" / "f.txt"
    assert read_bounded(target, opener=opener) == b"inside"
    # The folder the path was checked through becomes a link to the outside.
    (tree / "a" / "b").rename(tree / "a" / "moved")
    (tree / "a" / "b").symlink_to(tree.parent / "out")
    with pytest.raises(
        UnreadableFile, match=r"ws/a/b changed while it was being opened \(b is now a symbolic"
    ):
        read_bounded(target, opener=opener)
    fd = opener(tree / "a" / "moved" / "f.txt", os.O_RDONLY)
    with os.fdopen(fd, "rb") as handle:
        assert handle.read() == b"inside"
