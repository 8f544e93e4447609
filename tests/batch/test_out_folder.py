"""What a task file and an output folder can make `tether batch` do: ids are plain names, a
removal never leaves `OUT/workspaces`, a workspace is never trusted, and an output folder
that is not what a batch writes is a clear error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.batch.tasks import git_repo, results, run_batch, work, write_tasks
from tests.nobody import AS_NOBODY, skip_unless_nobody_runs_the_checkout
from tests.sandbox.users import NOBODY, ROOT, outside
from tether.batch.removal import remove_entry
from tether.errors import RemovalError
from tether.settings.trust import TrustStore, workspace_fingerprint

__all__ = ["outside"]  # the fixture: a folder `nobody` may enter


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("mine\n")
    return victim


def test_ids_that_are_not_plain_names_are_bad_lines_and_remove_nothing(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "notes.md").write_text("status: draft\n")
    model = work(tmp_path / "m.json", "notes.md", "draft", "final")
    ids = ["../../victim", "a/b", ".hidden", "x\n..", "\x1b[2J\x1b]0;owned\x07x", "-dash"]
    lines: list[dict[str, object] | str] = [
        {"id": id_, "prompt": "p", "cwd": "folder", "model": model} for id_ in ids
    ]
    lines.append({"id": "fine.1", "prompt": "p", "cwd": "folder", "model": model})
    out = tmp_path / "out"
    done = run_batch(
        tmp_path / "home", [str(write_tasks(tmp_path / "t.jsonl", lines)), "--out", str(out)]
    )
    assert done.returncode == 1, done.stderr
    by_id = {line["id"]: line for line in results(out)}
    assert by_id["fine.1"]["status"] == "done"
    for number in range(1, len(ids) + 1):
        line = by_id[f"line-{number}"]
        assert line["status"] == "error" and "an id is 1 to 128 letters" in line["error"], line
    assert (victim / "keep.txt").read_text() == "mine\n"
    assert sorted(os.listdir(victim)) == ["keep.txt"]
    assert not (tmp_path / "a").exists() and not (out / "workspaces" / "a").exists()
    assert "\x1b" not in done.stderr and "\x1b" not in done.stdout


def test_a_ref_is_never_an_option_of_git(tmp_path: Path) -> None:
    git_repo(tmp_path / "repo", {"a.txt": "x\n"})
    model = work(tmp_path / "m.json", "a.txt", "x", "y")
    lines: list[dict[str, object] | str] = [
        {"id": "opt", "prompt": "p", "repo": "repo", "ref": "--orphan=evil", "model": model},
        {"id": "plain", "prompt": "p", "repo": "repo", "ref": "HEAD", "model": model},
    ]
    out = tmp_path / "out"
    done = run_batch(
        tmp_path / "home", [str(write_tasks(tmp_path / "t.jsonl", lines)), "--out", str(out)]
    )
    by_id = {line["id"]: line for line in results(out)}
    assert by_id["plain"]["status"] == "done", done.stderr
    assert by_id["opt"]["status"] == "error"
    assert "cannot start with '-'" in by_id["opt"]["error"]


def test_removal_stays_inside_the_folder_of_workspaces(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    workspaces = tmp_path / "out" / "workspaces"
    workspaces.mkdir(parents=True)
    for name in ("..", ".", "", "a/b", "../victim"):
        with pytest.raises(RemovalError):
            remove_entry(workspaces, name)
    # A workspace that is a link to a folder outside: the link goes, never what it points to.
    (workspaces / "linked").symlink_to(victim)
    remove_entry(workspaces, "linked")
    assert not os.path.lexists(workspaces / "linked")
    # A tree the task left read-only, closed, deep, with links out.
    tree = workspaces / "t"
    deep = tree.joinpath(*["d"] * 300)
    deep.mkdir(parents=True)
    (deep / "f").write_text("x")
    (tree / "out").symlink_to(victim)
    (tree / "closed").mkdir()
    (tree / "closed" / "f").write_text("x")
    (tree / "closed").chmod(0)
    (deep.parent).chmod(0o500)
    remove_entry(workspaces, "t")
    assert os.listdir(workspaces) == []
    remove_entry(workspaces, "t")  # gone already: nothing to do
    assert sorted(os.listdir(victim)) == ["keep.txt"]


def test_a_workspace_under_out_that_is_the_folder_copied_does_not_copy_itself(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.md").write_text("status: draft\n")
    model = work(tmp_path / "m.json", "notes.md", "draft", "final")
    write_tasks(project / "t.jsonl", [{"id": "t1", "prompt": "p", "cwd": ".", "model": model}])
    for attempt in range(2):  # the second run copies a folder that holds the first's output
        done = run_batch(
            tmp_path / "home", ["t.jsonl", "--out", ".", "--keep-workspaces"], cwd=project
        )
        assert done.returncode == 0, done.stderr
        if attempt == 0:
            (project / "results.jsonl").unlink()
    kept = project / "workspaces" / "t1"
    assert sorted(os.listdir(kept)) == ["notes.md", "ran.txt", "t.jsonl"]
    line = results(project)[0]
    assert line["status"] == "done" and "workspaces/" not in line["diff"]


@pytest.mark.parametrize("kind", ["fifo", "device", "sessions-file", "workspaces-file"])
def test_an_output_folder_that_holds_something_else_is_a_clear_error(
    tmp_path: Path, kind: str
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    match kind:
        case "fifo":
            os.mkfifo(out / "results.jsonl")
            said = f"{out / 'results.jsonl'} is not a regular file"
        case "device":
            (out / "results.jsonl").symlink_to("/dev/zero")
            said = f"{out / 'results.jsonl'} is not a regular file"
        case "sessions-file":
            (out / "sessions").write_text("x")
            said = f"{out / 'sessions'} is not a directory"
        case _:
            (out / "workspaces").write_text("x")
            said = f"{out / 'workspaces'} is not a directory"
    folder = tmp_path / "folder"
    folder.mkdir()
    tasks = write_tasks(tmp_path / "t.jsonl", [{"id": "t", "prompt": "p", "cwd": "folder"}])
    done = run_batch(tmp_path / "home", [str(tasks), "--out", str(out)])
    assert done.returncode == 2, done.stderr
    assert said in " ".join(done.stderr.split()), done.stderr
    assert "Traceback" not in done.stderr


def test_a_batch_workspace_is_never_trusted(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    marker = tmp_path / "hook-ran"
    folder = tmp_path / "folder"
    (folder / ".tether").mkdir(parents=True)
    (folder / "notes.md").write_text("status: draft\n")
    # Outside the sandbox, so that the marker shows whether it ran at all.
    hook = {"type": "command", "command": f"touch {marker}", "sandbox": False}
    (folder / ".tether" / "settings.json").write_text(
        json.dumps({"hooks": {"SessionStart": [{"hooks": [hook]}]}})
    )
    out = tmp_path / "out"
    # The path the task's workspace will have was trusted once, with these very files.
    TrustStore(home).trust((out / "workspaces" / "t1").resolve(), workspace_fingerprint(folder))
    model = work(tmp_path / "m.json", "notes.md", "draft", "final")
    tasks = write_tasks(
        tmp_path / "t.jsonl", [{"id": "t1", "prompt": "p", "cwd": "folder", "model": model}]
    )
    done = run_batch(home, [str(tasks), "--out", str(out)])
    assert done.returncode == 0, done.stderr
    assert results(out)[0]["status"] == "done"
    assert not marker.exists()


_REMOVE = """
import sys
from pathlib import Path
from tether.batch.removal import remove_entry
remove_entry(Path(sys.argv[1]), sys.argv[2])
"""


def test_a_tree_left_closed_is_removed_by_its_owner_too(outside: Path) -> None:
    # Root opens every folder; an ordinary user (here `nobody`, when the tests run as root)
    # must open up what the task closed, through the descriptors it holds.
    workspaces = outside / "workspaces"
    tree = workspaces / "t"
    (tree / "closed" / "inner").mkdir(parents=True)
    (tree / "closed" / "inner" / "f").write_text("x")
    (tree / "readonly").mkdir()
    (tree / "readonly" / "f").write_text("x")
    prefix: list[str] = []
    if ROOT:
        skip_unless_nobody_runs_the_checkout()
        for path in (workspaces, *workspaces.rglob("*")):
            os.chown(path, NOBODY, NOBODY)
        prefix = AS_NOBODY
    (tree / "closed" / "inner").chmod(0)
    (tree / "closed").chmod(0)
    (tree / "readonly").chmod(0o500)
    done = subprocess.run(
        [*prefix, sys.executable, "-c", _REMOVE, str(workspaces), "t"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert os.listdir(workspaces) == []
