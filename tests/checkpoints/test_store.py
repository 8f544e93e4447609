"""The git snapshot store on hostile and awkward workspaces: what is saved byte for byte,
what is left out, and what of the person's git setup is never used."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.gitrepo import git
from tether.checkpoints import MAX_SNAPSHOT_BYTES, Blob, Change, disk_state, open_store, restore
from tether.checkpoints.git_store import GitStore
from tether.checkpoints.preimage_store import PreimageStore
from tether.errors import CheckpointError


def test_bytes_are_saved_as_they_are_and_what_is_left_out(
    tmp_path: Path, ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = ws / ".tether-home"  # tether's own data inside the workspace
    # A global git config that would convert line endings and run a filter if it applied.
    config = tmp_path / "gitconfig"
    config.write_text('[core]\n\tautocrlf = true\n[filter "x"]\n\tclean = touch ../escaped\n')
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere"))
    (ws / ".gitattributes").write_text("* text=auto eol=crlf filter=x\n")
    (ws / "dos.txt").write_bytes(b"one\r\ntwo\n")
    (ws / "big.bin").write_bytes(b"\0" * (MAX_SNAPSHOT_BYTES + 1))
    os.mkfifo(ws / "pipe")
    nested = ws / "vendor" / "lib"
    nested.mkdir(parents=True)
    (nested / "inside.py").write_text("x = 1\n")
    who = ["-c", "user.name=t", "-c", "user.email=t@t"]
    for command in (["init", "-q"], ["add", "."], [*who, "commit", "-qm", "x"]):
        subprocess.run(
            ["git", *command],
            cwd=nested,
            check=True,
            env={**os.environ, "GIT_DIR": str(nested / ".git")},
        )
    (ws / "link").symlink_to("dos.txt")

    store = open_store(home, ws)
    first = store.snapshot(None)
    assert first.skipped == ("big.bin",)
    saved = store.states(first.tree, ["dos.txt", "big.bin", "pipe", "vendor/lib/inside.py", "link"])
    assert saved["big.bin"] is None and saved["pipe"] is None
    assert saved["vendor/lib/inside.py"] is None  # a nested repository is not covered
    assert saved["link"] == Blob(saved["link"].oid, "120000")  # type: ignore[union-attr]
    dos = saved["dos.txt"]
    assert dos is not None and store.content(dos.oid) == b"one\r\ntwo\n"
    assert not (tmp_path / "escaped").exists()
    assert store.states(first.tree, [".tether-home/snapshots"]) == {".tether-home/snapshots": None}

    # Back to a saved version, byte for byte; a file over the limit is never touched.
    (ws / "dos.txt").write_bytes(b"changed\n")
    later = store.snapshot(first.tree)
    assert later.changed == ("dos.txt",) and later.skipped == ("big.bin",)
    done = restore(store, [Change("dos.txt", disk_state(ws, "dos.txt"), dos)], tmp_path / "j")  # type: ignore[arg-type]
    assert done.restored == ("dos.txt",)
    assert (ws / "dos.txt").read_bytes() == b"one\r\ntwo\n"
    assert (ws / "big.bin").stat().st_size == MAX_SNAPSHOT_BYTES + 1


def test_a_restore_never_overwrites_a_file_changed_meanwhile(tmp_path: Path, ws: Path) -> None:
    (ws / "a.txt").write_text("v1\n")
    store = open_store(tmp_path / "home", ws)
    first = store.snapshot(None)
    (ws / "a.txt").write_text("v2\n")
    second = store.snapshot(first.tree)
    wanted, expected = store.states(first.tree, ["a.txt"]), store.states(second.tree, ["a.txt"])
    (ws / "a.txt").write_text("someone else\n")  # after the plan was made
    done = restore(store, [Change("a.txt", expected["a.txt"], wanted["a.txt"])], tmp_path / "j")
    assert done.kept == ("a.txt",) and (ws / "a.txt").read_text() == "someone else\n"


def test_no_store_for_a_home_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(CheckpointError, match="checkpoints are off in"):
        open_store(tmp_path / "data", tmp_path)


def test_the_workspace_git_config_and_attributes_run_nothing(tmp_path: Path, ws: Path) -> None:
    ran = tmp_path / "ran"
    script = tmp_path / "program"
    script.write_text(f'#!/bin/sh\necho "$0 $*" >> {ran}\ncat\n')
    script.chmod(0o755)
    git("init", "-q", cwd=ws)
    # What a model could have written into the workspace's own repository.
    with (ws / ".git" / "config").open("a") as config:
        config.write(
            f"[core]\n\tfsmonitor = {script}\n\thooksPath = {tmp_path}\n"
            f'[filter "x"]\n\tclean = {script}\n\tsmudge = {script}\n'
            f'[diff "x"]\n\tcommand = {script}\n\ttextconv = {script}\n'
        )
    (ws / ".gitattributes").write_text("* filter=x diff=x\n")
    (ws / "a.txt").write_text("v1\n")
    store = open_store(tmp_path / "home", ws)
    first = store.snapshot(None)
    (ws / "a.txt").write_text("v2\n")
    second = store.snapshot(first.tree)
    assert second.changed == ("a.txt",)
    assert [c.path for c in store.line_counts(first.tree, second.tree)] == ["a.txt"]
    wanted, now = store.states(first.tree, ["a.txt"]), store.states(second.tree, ["a.txt"])
    restore(store, [Change("a.txt", now["a.txt"], wanted["a.txt"])], tmp_path / "j")
    assert (ws / "a.txt").read_text() == "v1\n"
    assert not ran.exists(), ran.read_text()


def test_a_manifest_nested_too_deeply_is_a_checkpoint_error(tmp_path: Path, ws: Path) -> None:
    store = PreimageStore.open(tmp_path / "preimages", ws)
    tree = store.snapshot(None).tree
    manifest = tmp_path / "preimages" / "objects" / tree[:2] / tree[2:]
    manifest.chmod(0o644)
    manifest.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(CheckpointError, match=f"checkpoint {tree} is not in the pre-image store"):
        store.states(tree, ["a.txt"])


def test_the_files_tether_writes_itself_are_never_saved(tmp_path: Path, ws: Path) -> None:
    """`.tether/settings.local.json` (the person's remembered answers) is in no snapshot, also
    in a store that saved it before it was tether's own: no undo can take it away."""
    local = ws / ".tether" / "settings.local.json"
    local.parent.mkdir()
    local.write_text('{"permissions": {"allow": ["bash(ls)"]}}\n')
    (ws / ".tether" / "settings.json").write_text("{}\n")
    (ws / "a.txt").write_text("a\n")
    home = tmp_path / "home"
    older = open_store(home, ws)
    assert isinstance(older, GitStore)
    # The store as it was before: nothing of its own left out.
    older = GitStore.open(older.directory, ws, older.git.binary, excluded=[home])
    first = older.snapshot(None)
    assert older.states(first.tree, [".tether/settings.local.json"])[".tether/settings.local.json"]

    store = open_store(home, ws)
    local.write_text('{"permissions": {"allow": ["bash(ls)", "bash(pwd)"]}}\n')
    (ws / "a.txt").write_text("b\n")
    second = store.snapshot(first.tree)
    assert second.changed == (".tether/settings.local.json", "a.txt")  # it leaves the store
    (ws / "a.txt").write_text("c\n")
    local.write_text("{}\n")
    third = store.snapshot(second.tree)
    assert third.changed == ("a.txt",)
    saved = store.states(third.tree, [".tether/settings.local.json", ".tether/settings.json"])
    assert saved[".tether/settings.local.json"] is None
    assert saved[".tether/settings.json"] is not None  # the project's settings are a change
