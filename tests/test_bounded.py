"""The one reader for files a workspace controls: hostile files are refused, never followed."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from tether.bounded import read_bounded, read_bounded_json, read_bounded_text
from tether.errors import UnreadableFile


def test_reads_a_regular_file(tmp_path: Path) -> None:
    path = tmp_path / "AGENTS.md"
    path.write_bytes(b"\xef\xbb\xbfhello\n")
    assert read_bounded_text(path) == "hello\n"
    assert read_bounded(path) == b"\xef\xbb\xbfhello\n"


def test_a_missing_file_is_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_bounded(tmp_path / "absent")
    (tmp_path / "dangling").symlink_to(tmp_path / "absent")
    with pytest.raises(FileNotFoundError):
        read_bounded(tmp_path / "dangling")


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null", "/dev/stdin"])
def test_a_link_to_a_device_is_refused(tmp_path: Path, target: str) -> None:
    link = tmp_path / "commands.md"
    link.symlink_to(target)
    with pytest.raises(UnreadableFile, match="not a regular file"):
        read_bounded(link)


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "AGENTS.md"
    os.mkfifo(fifo)
    with pytest.raises(UnreadableFile, match=r"not a regular file \(a FIFO\)"):
        read_bounded(fifo)


def test_a_socket_and_a_directory_are_refused(tmp_path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "s"))
        with pytest.raises(UnreadableFile, match="a socket"):
            read_bounded(tmp_path / "s")
    with pytest.raises(UnreadableFile, match="a directory"):
        read_bounded(tmp_path)


def test_a_file_over_the_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b"x" * 101)
    with pytest.raises(UnreadableFile, match="101 bytes, more than the 100 allowed"):
        read_bounded(path, limit=100)
    assert read_bounded(path, limit=101) == b"x" * 101


def test_a_symlink_is_refused_where_none_is_expected(tmp_path: Path) -> None:
    (tmp_path / "real").write_text("{}")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert read_bounded_json(tmp_path / "link") == {}
    with pytest.raises(UnreadableFile, match="symbolic link"):
        read_bounded(tmp_path / "link", follow_symlinks=False)


def test_text_and_json_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / ".mcp.json"
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(UnreadableFile, match=r"\.mcp\.json: not UTF-8"):
        read_bounded_text(path)
    path.write_text("[" * 100_000)
    with pytest.raises(UnreadableFile, match=r"\.mcp\.json: not valid JSON: .*nested too deeply"):
        read_bounded_json(path)
    path.write_text("{'a': NaN}")
    with pytest.raises(UnreadableFile, match="not valid JSON"):
        read_bounded_json(path)


def test_an_unreadable_file_names_why(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads files whatever their mode")
    path = tmp_path / "secret"
    path.write_text("x")
    path.chmod(0)
    with pytest.raises(UnreadableFile, match="Permission denied"):
        read_bounded(path)
