"""A symlink swapped in between the policy's check and the open never leads out of the workspace.

A second process flips `WS/flip` between a real directory and a symlink to a directory
outside, as fast as it can, while `read` and `write` run on paths under `flip/` in
accept-edits mode with no one to ask. Every result must be the inside file, a refusal or an
error: never the outside file's content, never a file written outside. The run is bounded
in time; the trial and escape counts are printed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.policy.support import Always
from tether.policy import PolicyGate
from tether.tools import ToolContext, Workspace, invoke, parse_arguments
from tether.tools.base import Tool
from tether.tools.fs.read import ReadTool
from tether.tools.fs.write import WriteTool
from tether.tools.result import ToolResult

RACE_S = float(os.environ.get("TETHER_RACE_SECONDS", "2"))
"""How long each tool races the flipper (both processes keep a core busy all along).

Two seconds give thousands of trials; with `beneath.py`'s walk replaced by a plain `open`,
one second gave 326 escaped reads and 117 escaped writes. `TETHER_RACE_SECONDS` races longer.
"""
SECRET = "SECRET outside the workspace"

_FLIPPER = """
import ctypes, os, sys, time
ws, out, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
flip, other = os.path.join(ws, "flip").encode(), os.path.join(ws, ".flip-other").encode()
os.symlink(out, other)
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
end = time.monotonic() + seconds
flips = 0
while time.monotonic() < end:
    # One atomic swap: `flip` is always there, a real directory or a symlink leading out.
    if libc.renameat2(AT_FDCWD, flip, AT_FDCWD, other, RENAME_EXCHANGE) != 0:
        raise OSError(ctypes.get_errno(), "renameat2")
    flips += 1
if os.path.islink(flip):
    libc.renameat2(AT_FDCWD, flip, AT_FDCWD, other, RENAME_EXCHANGE)
print(flips)
"""


def _layout(tmp_path: Path) -> tuple[Path, Path]:
    ws, out = tmp_path / "ws", tmp_path / "out"
    (ws / "flip").mkdir(parents=True)
    out.mkdir()
    (ws / "flip" / "x").write_text("inside\n")
    (out / "x").write_text(SECRET + "\n")
    return ws.resolve(), out.resolve()


async def _call(tool: Tool[object, object], ctx: ToolContext, raw: str) -> ToolResult:
    args = parse_arguments(tool, raw)
    assert not isinstance(args, ToolResult), args
    return await invoke(tool, args, ctx)


async def _race(tmp_path: Path, tool: str) -> tuple[int, int, Path]:
    ws, out = _layout(tmp_path)
    workspace = Workspace.at(ws)
    gate = PolicyGate(workspace, mode="accept-edits", asker=None)
    flipper = subprocess.Popen(
        [sys.executable, "-c", _FLIPPER, str(ws), str(out), str(RACE_S)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    trials = escapes = 0
    try:
        end = time.monotonic() + RACE_S
        while time.monotonic() < end and trials < 1_000_000:
            ctx = ToolContext(workspace=workspace, gate=gate)
            if tool == "read":
                result = await _call(ReadTool(), ctx, '{"path": "flip/x"}')
                escapes += SECRET in result.text()
            else:
                name = f"new-{trials}.txt"
                await _call(WriteTool(), ctx, f'{{"path": "flip/{name}", "content": "w\\n"}}')
                escapes += (out / name).exists()
            trials += 1
    finally:
        flips, errors = flipper.communicate(timeout=RACE_S + 30)
    assert flipper.returncode == 0, errors
    assert int(flips) > 100, "the flipper hardly ran"
    return trials, escapes, out


async def test_reads_never_return_the_outside_file(tmp_path: Path) -> None:
    trials, escapes, _ = await _race(tmp_path, "read")
    print(f"read race: {trials} trials, {escapes} escapes")
    assert trials > 50
    assert escapes == 0


async def test_writes_never_land_outside(tmp_path: Path) -> None:
    trials, escapes, out = await _race(tmp_path, "write")
    print(f"write race: {trials} trials, {escapes} escapes")
    assert trials > 50
    assert escapes == 0
    assert sorted(p.name for p in out.iterdir()) == ["x"]


async def test_an_approved_outside_path_still_works(tmp_path: Path) -> None:
    ws, out = _layout(tmp_path)
    asker = Always()
    workspace = Workspace.at(ws)
    ctx = ToolContext(workspace=workspace, gate=PolicyGate(workspace, "accept-edits", asker))
    read = await _call(ReadTool(), ctx, f'{{"path": "{out / "x"}"}}')
    assert SECRET in read.text()
    target = out / "deeper" / "made.txt"
    wrote = await _call(WriteTool(), ctx, f'{{"path": "{target}", "content": "ok\\n"}}')
    assert not wrote.is_error, wrote.text()
    assert target.read_text() == "ok\n"
    # Through a symlink that was there all along: resolved, asked for, then opened.
    (ws / "link").symlink_to(out)
    linked = await _call(ReadTool(), ctx, '{"path": "link/x"}')
    assert SECRET in linked.text()
    assert len(asker.requests) == 3
