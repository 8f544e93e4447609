"""What `tether --version` says: the release (`tether.__version__`) and the commit it was
built from, when that is known."""

from __future__ import annotations

import os

import tether
from tether.gitenv import GIT_ENV, SAFE_CONFIG, find_git, isolated_environment

__all__ = ["COMMIT_FILE", "build_commit", "read_head", "version_line"]

COMMIT_FILE = "_commit"
"""Written into the package by the build backend: the commit a wheel or sdist was made from."""

_PACKAGE = os.path.dirname(os.path.realpath(__file__))


def build_commit() -> str | None:
    """The commit these sources come from: the one stamped at build, else the checkout's own.

    An editable install runs the checkout itself, so its commit is the checkout's HEAD now;
    `None` when neither is known (no stamp, no git, not a repository).
    """
    try:
        with open(os.path.join(_PACKAGE, COMMIT_FILE), encoding="ascii") as stamp:
            stamped = stamp.read().strip()
    except (OSError, UnicodeDecodeError):
        stamped = ""
    if stamped:
        return stamped[:12]
    if os.environ.get(GIT_ENV) in ("", "off"):
        return None  # no git wanted: no commit, as when git is missing
    return read_head(_PACKAGE) or _head_from_git(_PACKAGE)


def _head_from_git(folder: str) -> str | None:
    """The HEAD of the checkout holding `folder` as `git rev-parse` gives it, if it can."""
    import subprocess

    git = find_git()
    if git is None:
        return None
    try:
        done = subprocess.run(
            [git, *_configs(), "rev-parse", "--short=12", "HEAD"],
            cwd=folder,
            env=isolated_environment(),
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else None


def version_line() -> str:
    """`tether 0.1.0 (commit 1f5f007a9b3c)`, or without the commit when it is not known."""
    commit = build_commit()
    suffix = f" (commit {commit})" if commit else ""
    return f"tether {tether.__version__}{suffix}"


def _configs() -> list[str]:
    return [arg for setting in SAFE_CONFIG for arg in ("-c", setting)]


def read_head(folder: str) -> str | None:
    """The HEAD commit (12 digits) of the checkout holding `folder`, read from its git files.

    Read as git resolves it, or `None` whenever that is not plain (then git is asked): running
    git costs `--version` half its time. Only the usual layout is read: a `.git` folder, or a
    `.git` file naming a linked worktree's folder (whose branches are in its `commondir`); a
    branch as a loose file or a line of `packed-refs`; a detached HEAD. A git directory owned
    by someone else is left to git, which may refuse it.
    """
    gitdir = _git_directory(folder)
    if gitdir is None:
        return None
    head = _first_line(os.path.join(gitdir, "HEAD"))
    if head is None or _is_object_id(head):
        return head[:12] if head else None
    ref = head.removeprefix("ref: ")
    parts = ref.split("/")
    if parts[:2] != ["refs", "heads"] or len(parts) < 3 or {"", ".", ".."} & set(parts):
        return None
    common = _first_line(os.path.join(gitdir, "commondir"))
    common = os.path.join(gitdir, common) if common else gitdir
    loose = _first_line(os.path.join(common, *parts))
    if loose is None:
        loose = _packed(os.path.join(common, "packed-refs"), ref)
    return loose[:12] if loose and _is_object_id(loose) else None


def _git_directory(start: str) -> str | None:
    """The git directory of the working tree holding `start`, if it is plainly one."""
    device = os.stat(start).st_dev
    folder = start
    while True:
        marker = os.path.join(folder, ".git")
        if os.path.isdir(marker):
            gitdir = marker
            break
        if os.path.isfile(marker):
            linked = (_first_line(marker) or "").removeprefix("gitdir: ")
            if not linked or linked.startswith("gitdir:"):
                return None
            gitdir = os.path.join(folder, linked)
            break
        parent = os.path.dirname(folder)
        if parent == folder or os.stat(parent).st_dev != device:
            return None  # git stops at a file system's edge too
        folder = parent
    try:
        owner = os.stat(gitdir).st_uid
    except OSError:
        return None
    return gitdir if owner == os.getuid() else None


def _packed(path: str, ref: str) -> str | None:
    """The object `ref` names in a `packed-refs` file (`OBJECT REF` lines), if it is there."""
    try:
        with open(path, encoding="utf-8") as file:
            for line in file:
                found, _, name = line.rstrip("\n").partition(" ")
                if name == ref:
                    return found
    except (OSError, UnicodeDecodeError):
        pass
    return None


def _first_line(path: str) -> str | None:
    """A small file's first line, stripped, or `None` when it cannot be read."""
    try:
        with open(path, encoding="utf-8") as file:
            return file.readline(4096).strip()
    except (OSError, UnicodeDecodeError):
        return None


def _is_object_id(text: str) -> bool:
    """Whether `text` is a full object name in hex (SHA-1 or SHA-256)."""
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)
