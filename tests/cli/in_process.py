"""`tether ARGS` run by `tether.cli.main` inside the test's process, set up as `support.tether`
sets up a process of its own: the same environment, standard input closed, file descriptors
1 and 2 captured, the exit status returned.

A `tether` process costs half a second of CPU to import what a command needs; here that is
paid once per worker. It is for tests of what a command does (its output, its exit status,
the files it writes), not of the process itself: signals, a terminal, what a start loads, a
pipe that closes, `-v` logging and background jobs are tested with real processes.

What `main` changes in the process for its own run is put back afterwards: the environment,
the working directory, the standard streams and descriptors 0-2, the root logger (emptied
first, so `-v`'s `basicConfig` acts as in a new process) and `sys.meta_path` (the deferred
imports' finder).
"""

from __future__ import annotations

import io
import locale
import logging
import os
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from tether.cli import main

__all__ = ["tether_in_process"]


def tether_in_process(
    home: Path,
    *args: str,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    encoding: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """`support.tether(home, *args, cwd=cwd)`, run in this process: its status and output;
    `env` is added to its environment; `encoding` is its standard streams', as
    `PYTHONIOENCODING` sets them for a process (and what its output is decoded from, strictly)."""
    environ = {**os.environ, "TETHER_HOME": str(home), "COLUMNS": "120", "NO_COLOR": "1"}
    environ.pop("TETHER_MODEL", None)
    environ.update(env or {})
    chosen = encoding or locale.getpreferredencoding(False)
    if encoding is not None:
        environ["PYTHONIOENCODING"] = encoding
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        with _as_its_own_process(environ, cwd, out, err, chosen):
            status = _status(list(args))
        return subprocess.CompletedProcess(
            ["tether", *args], status, _text(out, chosen), _text(err, chosen)
        )


def _status(argv: list[str]) -> int:
    """The exit status `tether` would end with: what `main` returns or exits with, and 1 with
    a traceback on standard error for an exception it lets through."""
    try:
        return main(argv)
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
        return 1
    except Exception:
        traceback.print_exc()
        return 1


def _text(captured: BinaryIO, encoding: str) -> str:
    """What was written, decoded as `subprocess.run(text=True)` decodes it."""
    captured.seek(0)
    wrapper = io.TextIOWrapper(captured, encoding=encoding, newline=None)
    try:
        return wrapper.read()
    finally:
        wrapper.detach()


@contextmanager
def _as_its_own_process(
    env: dict[str, str], cwd: Path | None, out: BinaryIO, err: BinaryIO, encoding: str
) -> Iterator[None]:
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_streams = (sys.stdin, sys.stdout, sys.stderr)
    saved_fds = [os.dup(fd) for fd in (0, 1, 2)]
    saved_meta_path = list(sys.meta_path)
    root = logging.getLogger()
    saved_logging = (list(root.handlers), root.level)
    with open(os.devnull, "rb") as null:
        os.dup2(null.fileno(), 0)
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    # As Python opens them for a process whose standard output and error are pipes.
    sys.stdin = open(0, encoding=encoding, closefd=False)  # noqa: SIM115 (closed below)
    sys.stdout = open(1, "w", encoding=encoding, closefd=False)  # noqa: SIM115
    sys.stderr = open(  # noqa: SIM115
        2, "w", encoding=encoding, errors="backslashreplace", closefd=False, buffering=1
    )
    os.environ.clear()
    os.environ.update(env)
    if cwd is not None:
        os.chdir(cwd)
    root.handlers = []
    try:
        yield
    finally:
        for handler in root.handlers:
            if handler not in saved_logging[0]:
                handler.close()
        root.handlers, level = saved_logging
        root.setLevel(level)
        sys.meta_path[:] = saved_meta_path
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        sys.stdin.close()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            finally:
                stream.close()
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        for fd, saved in enumerate(saved_fds):
            os.dup2(saved, fd)
            os.close(saved)
