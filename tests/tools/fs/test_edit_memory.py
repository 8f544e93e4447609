"""Edit and write stay bounded in memory on any file: a huge file is refused, not loaded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tether.tools import ToolContext, Workspace, file_version, invoke
from tether.tools.fs.change_checks import MAX_EDIT_BYTES
from tether.tools.fs.edit import EditArgs, EditTool
from tether.tools.fs.write import WriteArgs, WriteTool

GIB = 1 << 30

_CHILD = """
import asyncio, json, resource, sys
from pathlib import Path
from tether.tools import ToolContext, Workspace, file_version, invoke
from tether.tools.fs.edit import EditArgs, EditTool
from tether.tools.fs.write import WriteArgs, WriteTool

# A bound on the address space: loading the file whole fails here instead of exhausting
# the machine.
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

async def main() -> None:
    root, name, tool = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    ctx = ToolContext(workspace=Workspace.at(root))
    path = (root / name).resolve()
    ctx.observations.record(file_version(path))  # as a read of it would have
    if tool == "edit":
        args = EditArgs(path=name, old_string="hello", new_string="bye")
        result = await invoke(EditTool(), args, ctx)
    else:
        result = await invoke(WriteTool(), WriteArgs(path=name, content="new"), ctx)
    peak_kib = int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1])
    print(json.dumps({"peak_kib": peak_kib, "text": result.text()}))

asyncio.run(main())
"""


@pytest.mark.parametrize("tool", ["edit", "write"])
def test_an_8_gib_file_is_refused_in_bounded_memory(tmp_path: Path, tool: str) -> None:
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as handle:
        handle.write(b"hello\n")
        handle.truncate(8 * GIB)  # sparse: no disk space used
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(tmp_path), "huge.txt", tool],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout)
    verb = "edit" if tool == "edit" else "overwrite"
    assert report["text"] == (
        f"Cannot {verb} {huge.resolve()}: the file is 8.0 GiB ({8 * GIB} bytes), "
        f"more than the {MAX_EDIT_BYTES >> 20} MiB ({MAX_EDIT_BYTES} bytes) {tool} takes; "
        "change a file this large with bash (e.g. sed -i)"
    )
    peak_mb = report["peak_kib"] / 1024
    print(f"{tool} on an 8 GiB file: peak RSS {peak_mb:.1f} MB")
    assert peak_mb < 150
    assert huge.stat().st_size == 8 * GIB


@pytest.mark.parametrize("verb", ["edit", "write"])
async def test_one_byte_over_the_limit_is_refused(tmp_path: Path, verb: str) -> None:
    big = tmp_path / "big.txt"
    with big.open("wb") as handle:
        handle.write(b"hello\n")
        handle.truncate(MAX_EDIT_BYTES + 1)
    ctx = ToolContext(workspace=Workspace.at(tmp_path))
    ctx.observations.record(file_version(big.resolve()))
    if verb == "edit":
        edit = EditArgs(path="big.txt", old_string="hello", new_string="bye")
        result = await invoke(EditTool(), edit, ctx)
    else:
        result = await invoke(WriteTool(), WriteArgs(path="big.txt", content="x"), ctx)
    assert result.is_error
    assert f"({MAX_EDIT_BYTES + 1} bytes), more than the 256 MiB" in result.text()
