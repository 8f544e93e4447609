"""A task's snapshots read the workspace after the model wrote it: git runs nothing that a
config, the environment or the workspace's `.gitattributes` names, and saves the bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tether.batch.tasks import BatchTask
from tether.batch.workspaces import prepare_workspace


def test_snapshots_run_no_filter_fsmonitor_or_external_diff(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = tmp_path / "ran"
    script = tmp_path / "program"
    script.write_text(f'#!/bin/sh\necho "$0 $*" >> {ran}\ncat\n')
    script.chmod(0o755)
    # Configuration and variables that would run `program` on the workspace's files.
    config = tmp_path / "gitconfig"
    config.write_text(
        f"[core]\n\tfsmonitor = {script}\n\tautocrlf = true\n"
        f'[filter "x"]\n\tclean = {script}\n\tsmudge = {script}\n'
        f'[diff "x"]\n\tcommand = {script}\n\ttextconv = {script}\n'
    )
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", str(script))
    source = tmp_path / "source"
    source.mkdir()
    (source / "a.txt").write_bytes(b"one\r\n")
    task = BatchTask(id="t1", prompt="p", cwd=str(source))
    workspace = prepare_workspace(task, tmp_path / "workspaces")
    # What the model writes: attributes that name the filter and the diff driver.
    (workspace.path / ".gitattributes").write_text("* text eol=lf filter=x diff=x\n")
    (workspace.path / "a.txt").write_bytes(b"one\r\ntwo\r\n")
    change = workspace.diff()
    assert not ran.exists(), ran.read_text()
    assert "+two\r\n" in change.text and "+* text eol=lf filter=x diff=x" in change.text
    workspace.remove()
