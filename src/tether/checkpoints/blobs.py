"""Reading a snapshot's blobs out of git: one at a time, or many through one process."""

from __future__ import annotations

import re
import subprocess

from tether.errors import CheckpointError

__all__ = ["BlobReader", "blob_id"]


def blob_id(oid: str) -> str:
    """`oid` when it is a blob id (40 hex digits); `CheckpointError` otherwise, before git
    is given it as an argument or on its input."""
    if not re.fullmatch(r"[0-9a-f]{40}", oid):
        raise CheckpointError(f"not a blob id: {oid!r}")
    return oid


class BlobReader:
    """Reads blobs one after another from a running `git cat-file --batch`."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self._process = process

    def read(self, oid: str) -> bytes:
        """The bytes of one blob."""
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(blob_id(oid).encode() + b"\n")
        stdin.flush()
        header = stdout.readline().split()
        if len(header) != 3 or header[1] != b"blob":
            raise CheckpointError(f"the snapshot store has no blob {oid}")
        data = stdout.read(int(header[2]))
        stdout.read(1)
        return data

    def close(self) -> None:
        """End the git process."""
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait()
        if self._process.stdout is not None:
            self._process.stdout.close()
