"""Reading stays within bounded memory whatever the file: peak RSS of a real reading process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

# numpy is imported up front: the counter loads it lazily for large files only, and its code
# is a fixed cost, not memory that grows with the file.
_CHILD = """
import asyncio, json, sys
import numpy
from tether.tools import ToolContext, Workspace, invoke
from tether.tools.fs.read import ReadArgs, ReadTool

async def main() -> None:
    ctx = ToolContext(workspace=Workspace.at(sys.argv[1]))
    args = ReadArgs(path=sys.argv[2], offset=int(sys.argv[3]))
    result = await invoke(ReadTool(), args, ctx)
    # VmHWM, not ru_maxrss: after a fork the latter starts from the parent's peak.
    peak_kib = int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1])
    print(json.dumps({"peak_kib": peak_kib, "tail": result.text()[-120:]}))

asyncio.run(main())
"""

MIB = 1 << 20


def peak_read(root: Path, name: str, offset: int = 1) -> tuple[int, str]:
    """Read one file in a fresh interpreter; its peak RSS in KiB and the end of the result."""
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(root), name, str(offset)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    report = json.loads(out.stdout)
    return int(report["peak_kib"]), str(report["tail"])


def test_huge_files_are_read_in_bounded_memory(tmp_path: Path) -> None:
    (tmp_path / "small.txt").write_bytes(b"a\n")
    with (tmp_path / "one-line.txt").open("wb") as handle:
        block = b"z" * (8 * MIB)
        for _ in range(25):
            handle.write(block)
    with (tmp_path / "many.txt").open("wb") as handle:
        block = b"short line\n" * 400_000
        for _ in range(25):
            handle.write(block)

    baseline, _ = peak_read(tmp_path, "small.txt")
    one_line, one_tail = peak_read(tmp_path, "one-line.txt")
    many, many_tail = peak_read(tmp_path, "many.txt", offset=5_000_000)

    assert one_tail.endswith(
        "... (line truncated to 2000 chars)\n\n(End of file - total 1 lines)\n</content>"
    )
    assert many_tail.endswith(
        "(Showing lines 5000000-5001999 of 10000000. Use offset=5002000 to continue.)\n</content>"
    )
    # A 200 MB line and 110 MB of lines cost a few MB over reading a two-byte file.
    assert one_line - baseline < 16 * 1024, (baseline, one_line)
    assert many - baseline < 16 * 1024, (baseline, many)
