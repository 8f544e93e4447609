"""A task's own workspace: a copy of its folder or a clone of its repository, never the original.

The change a task made is a diff between two snapshots of the workspace taken in a git
directory of our own beside it (so the agent sees the workspace as it was given, its own
`.git` included, and a diff needs no cooperation from it): one before the prompt, one after.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tether.batch.removal import remove_entry
from tether.batch.tasks import BatchTask
from tether.errors import RemovalError, SetupTimeout, WorkspaceError
from tether.gitenv import SAFE_CONFIG, VERBATIM_ATTRIBUTES, isolated_environment

__all__ = [
    "BATCH_OUTPUTS",
    "GIT_TIMEOUT_S",
    "MAX_DIFF_BYTES",
    "Change",
    "Workspace",
    "prepare_workspace",
]

BATCH_OUTPUTS = ("results.jsonl", "sessions", "workspaces")
"""What a batch writes in its output folder (never copied into a task's workspace)."""

GIT_TIMEOUT_S = 600
"""How long one git command may take (a clone of a large repository included)."""


MAX_DIFF_BYTES = 8 * 1024 * 1024
"""The largest diff a result line carries (a bigger one is listed by file instead)."""


@dataclass(frozen=True)
class Change:
    """What a task changed: a unified diff, or when too big, its files (`truncated`)."""

    text: str
    truncated: bool


@dataclass(frozen=True)
class Workspace:
    """A task's folder and the snapshot it started from."""

    path: Path
    """Where the task works."""
    snapshots: Path
    """Our git directory for the before and after trees (outside `path`)."""
    base: str
    """The tree the workspace started as (after its setup command)."""

    def diff(self) -> Change:
        """The workspace's change since `base`, as a unified diff (git's format); past
        `MAX_DIFF_BYTES`, the files changed and their line counts instead."""
        after = _snapshot(self.snapshots, self.path)
        flags = ("--no-color", "--no-ext-diff", "--no-renames")
        whole = self.snapshots / "change.diff"
        try:
            _git(self.snapshots, self.path, "diff", *flags, self.base, after, into=whole)
            size = whole.stat().st_size
            if size <= MAX_DIFF_BYTES:
                return Change(whole.read_bytes().decode(errors="replace"), truncated=False)
        finally:
            whole.unlink(missing_ok=True)
        stat = _git(self.snapshots, self.path, "diff", *flags, "--stat=200", self.base, after)
        note = f"(the diff is {size} bytes, more than the {MAX_DIFF_BYTES} kept: files only)\n"
        return Change(note + stat, truncated=True)

    def remove(self) -> None:
        """Delete the workspace and its snapshots (nothing outside their folder)."""
        remove_entry(self.path.parent, self.path.name)
        remove_entry(self.snapshots.parent, self.snapshots.name)


def prepare_workspace(task: BatchTask, root: Path, leave_out: Path | None = None) -> Workspace:
    """The task's workspace under `root` (any earlier one of the same id removed), set up, with
    its starting snapshot. A copied folder leaves out `root` and, when given, the batch's
    output folder `leave_out` and what the batch writes there. Raises `WorkspaceError`."""
    path = root / task.id
    snapshots = root / f".{task.id}.snapshots"
    try:
        remove_entry(root, path.name)
        remove_entry(root, snapshots.name)
    except RemovalError as exc:
        raise WorkspaceError(str(exc)) from exc
    root.mkdir(parents=True, exist_ok=True)
    if task.repo is not None:
        _clone(task.repo, task.ref, path)
    else:
        assert task.cwd is not None  # a task has one or the other (see `read_tasks`)
        skipped = [root]
        if leave_out is not None:
            skipped += [leave_out, *(leave_out / name for name in BATCH_OUTPUTS)]
        _copy(Path(task.cwd), path, skipped)
    if task.setup is not None:
        _setup(task.setup, path, task.timeout_s)
    _git(snapshots, None, "init", "--quiet")
    (snapshots / "info").mkdir(exist_ok=True)
    (snapshots / "info" / "attributes").write_text(VERBATIM_ATTRIBUTES, encoding="utf-8")
    return Workspace(path=path, snapshots=snapshots, base=_snapshot(snapshots, path))


def _clone(repo: str, ref: str | None, path: Path) -> None:
    """A clone of `repo` at `ref` (a local one shares the original's objects, read only)."""
    local = Path(repo).is_dir()
    shared = ["--shared"] if local else []
    _git(None, None, "clone", "--quiet", "--no-checkout", *shared, "--", repo, str(path))
    # Resolved first, after `--end-of-options`: a ref is never read as an option of git's.
    commit = _git(
        None, path, "rev-parse", "--verify", "--end-of-options", f"{ref or 'HEAD'}^{{commit}}"
    )
    _git(None, path, "checkout", "--quiet", "--detach", commit.strip(), "--")


def _copy(source: Path, path: Path, leave_out: Sequence[Path]) -> None:
    """A copy of `source`: folders, regular files and symlinks as links (FIFOs, sockets and
    devices are left out: reading one could block or never end), without the entries that
    are one of `leave_out` (the batch's own folders: a copy inside the folder copied would
    copy itself, each copy one level deeper)."""
    outside = {os.path.realpath(p) for p in leave_out}

    def special(folder: str, names: list[str]) -> set[str]:
        skipped = set()
        for name in names:
            entry = os.path.join(folder, name)
            if os.path.realpath(entry) in outside:
                skipped.add(name)
                continue
            try:
                mode = os.lstat(entry).st_mode
            except OSError:
                skipped.add(name)
                continue
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
                skipped.add(name)
        return skipped

    try:
        shutil.copytree(source, path, symlinks=True, ignore=special)
    except (OSError, shutil.Error) as exc:
        raise WorkspaceError(f"cannot copy {source}: {exc}") from exc


def _setup(command: str, path: Path, timeout_s: float | None) -> None:
    """Run the task's setup command in its workspace; a failure is a `WorkspaceError`."""
    try:
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=path,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout_s,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise SetupTimeout(f"setup did not finish in {timeout_s:g} s") from exc
    if done.returncode != 0:
        said = (done.stderr or done.stdout).decode(errors="replace").strip()[-2000:]
        raise WorkspaceError(f"setup exited with {done.returncode}: {said}")


def _snapshot(snapshots: Path, path: Path) -> str:
    """The tree of everything in `path` that git would not ignore, stored in `snapshots`."""
    _git(snapshots, path, "add", "--all", ".")
    return _git(snapshots, path, "write-tree").strip()


def _git(git_dir: Path | None, work_tree: Path | None, *args: str, into: Path | None = None) -> str:
    """Run git; its output (written to `into` instead, when given), or a `WorkspaceError`
    with what it said.

    With `git_dir` (our snapshot repository) git reads the workspace after the model
    wrote it, so it reads no config but ours and runs nothing a config or the workspace's
    `.gitattributes` names (filters, fsmonitor, hooks, an external diff); a clone or
    checkout before the task uses the person's config (credentials, URL rewrites)."""
    command = ["git"]
    if git_dir is not None:
        command.append(f"--git-dir={git_dir}")
        for setting in SAFE_CONFIG:
            command += ["-c", setting]
        env = isolated_environment()
    else:
        # A clone that needs a password fails instead of waiting.
        env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1"}
    if work_tree is not None:
        command += [f"--work-tree={work_tree}"] if git_dir is not None else ["-C", str(work_tree)]
    try:
        with contextlib.ExitStack() as files:
            out = files.enter_context(into.open("wb")) if into is not None else subprocess.PIPE
            done = subprocess.run(
                [*command, *args],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.PIPE,
                timeout=GIT_TIMEOUT_S,
                check=False,
                env=env,
                # Not in the terminal's group: Ctrl-C cancels the task, not a snapshot half made.
                process_group=0,
            )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise WorkspaceError(f"git {args[0]}: {exc}") from exc
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip()[-2000:]
        raise WorkspaceError(f"git {args[0]} failed: {said}")
    return done.stdout.decode(errors="replace") if into is None else ""
