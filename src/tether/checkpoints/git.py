"""Running git on a snapshot repository: its own GIT_DIR and index, the workspace as work tree.

Nothing of the person's git setup reaches these commands: the environment's `GIT_*`
variables are dropped, the system and global config files are not read, and the repository's
own config turns off what would run code or rewrite content (filters, hooks, fsmonitor).
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

from tether.errors import CheckpointError
from tether.gitenv import isolated_environment

__all__ = ["Git"]


class Git:
    """git with a fixed GIT_DIR, index file and work tree."""

    def __init__(self, binary: str, git_dir: Path, work_tree: Path, index: Path) -> None:
        self.binary = binary
        self.git_dir = git_dir
        self.work_tree = work_tree
        env = isolated_environment()
        env.update(
            GIT_DIR=str(git_dir),
            GIT_WORK_TREE=str(work_tree),
            GIT_INDEX_FILE=str(index),
            GIT_LITERAL_PATHSPECS="1",
        )
        self._env = env
        self.held: int | None = None
        """The store's lock, handed to every git so that it holds the lock while it runs."""

    def run(self, *args: str, stdin: bytes | None = None, ok: Sequence[int] = (0,)) -> bytes:
        """Run `git ARGS` in the work tree; its stdout, or `CheckpointError` with its stderr."""
        try:
            done = subprocess.run(
                [self.binary, *args],
                input=stdin,
                capture_output=True,
                cwd=self.work_tree,
                env=self._env,
                check=False,
                pass_fds=self._held(),
                process_group=0,  # Ctrl-C at the terminal cancels the turn, not a snapshot
            )
        except OSError as exc:
            raise CheckpointError(f"cannot run {self.binary}: {exc.strerror}") from exc
        if done.returncode not in ok:
            message = done.stderr.decode(errors="replace").strip() or f"exit {done.returncode}"
            raise CheckpointError(f"git {args[0]} failed: {message}")
        return done.stdout

    def _held(self) -> tuple[int, ...]:
        return () if self.held is None else (self.held,)

    def popen(self, *args: str) -> subprocess.Popen[bytes]:
        """`git ARGS` with pipes for stdin and stdout (a `cat-file --batch` reader)."""
        try:
            return subprocess.Popen(
                [self.binary, *args],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                cwd=self.work_tree,
                env=self._env,
                pass_fds=self._held(),
                process_group=0,
            )
        except OSError as exc:
            raise CheckpointError(f"cannot run {self.binary}: {exc.strerror}") from exc
