"""Model-facing text of `read`, pinned in golden files (`TETHER_SNAPSHOT=refresh` rewrites them).

Each case writes real files into a fresh workspace and reads them through `invoke`, as the
session does; the workspace path is written `{{cwd}}`.
"""

from __future__ import annotations

import base64
import codecs
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.golden import check_golden
from tether.tools import ToolContext, ToolResult, Workspace, invoke
from tether.tools.fs.read import ReadArgs, ReadTool
from tether.tools.fs.read_file import CHUNK_BYTES, MAX_IMAGE_BYTES
from tether.tools.result import TOOL_RESULT

GOLDEN = Path(__file__).parent / "read_golden"

# The smallest valid PNG: one transparent pixel.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


def write(root: Path, name: str, data: bytes) -> None:
    """A file in the workspace, parents created."""
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def numbered(count: int, width: int = 0) -> bytes:
    """`line N` lines, padded to `width` characters."""
    return b"".join(f"line {n}".ljust(width, ".").encode() + b"\n" for n in range(1, count + 1))


def split_invalid_utf8() -> bytes:
    """Short lines up to a chunk boundary, then a broken sequence cut by that boundary."""
    filler = numbered(1, 99) * (CHUNK_BYTES // 100)
    pad = CHUNK_BYTES - len(filler) - 1
    return filler + b"y" * pad + b"\xe2" + b"\x82\xff" + "z€\n".encode() + b"after\n"


@dataclass(frozen=True)
class Case:
    """Files to create, the read's arguments and an optional byte cap."""

    files: dict[str, bytes]
    path: str
    args: dict[str, Any] = field(default_factory=dict)
    cap: int | None = None


def one(path: str, data: bytes, cap: int | None = None, **args: Any) -> Case:
    """A case reading the one file it writes."""
    return Case({path: data}, path, args, cap)


BOM8, BOM16LE, BOM16BE = codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE
BOM32LE, BOM32BE = codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE
SIBLINGS = dict.fromkeys(("config.yaml", "Config.yml", "conf.json", "other"), b"x")

CASES: dict[str, Case] = {
    "normal": one("src/app.py", b"import os\n\nprint(os.getcwd())\n"),
    "window": one("n.txt", numbered(30), offset=10, limit=5),
    "window-to-end": one("n.txt", numbered(12), offset=10),
    "limit-only": one("n.txt", numbered(12), limit=3),
    "no-final-newline": one("n.txt", b"one\ntwo"),
    "byte-cap": one("wide.txt", numbered(1000, 100)),
    "byte-cap-configured": one("n.txt", numbered(10, 20), cap=64),
    "empty-file": one("empty.txt", b""),
    "empty-window": one("n.txt", numbered(3, 40), cap=10, offset=2),
    "offset-out-of-range": one("n.txt", numbered(3), offset=4),
    "offset-out-of-range-empty": one("e.txt", b"", offset=2),
    "crlf": one("dos.txt", b"one\r\ntwo\r\n\r\nthree\r\r\n"),
    "long-line": one("long.txt", b"a" * 2500 + b"\nshort\n"),
    "utf8-bom": one("bom.txt", BOM8 + "héllo\nwörld\n".encode()),
    "utf16-le": one("le.txt", BOM16LE + "héllo\r\n€\n".encode("utf-16-le")),
    "utf16-be": one("be.txt", BOM16BE + "héllo\n😀 end".encode("utf-16-be")),
    "utf32-le": one("u32.txt", BOM32LE + "héllo\n€\n".encode("utf-32-le")),
    "utf32-be": one("u32be.txt", BOM32BE + "a\nb".encode("utf-32-be")),
    "utf16-broken": one("odd.txt", BOM16LE + "ok\n".encode("utf-16-le") + b"\x00\xd8x"),
    "invalid-utf8-across-chunks": one(
        "split.txt", split_invalid_utf8(), offset=CHUNK_BYTES // 100, limit=2
    ),
    "binary-nul": one("blob", b"abc\x00def\n"),
    "binary-control": one("ctl.txt", b"\x01\x02\x03\x04ab\n" * 10),
    "binary-extension": one("lib.so", b"plain text really\n"),
    "missing-with-suggestions": Case(SIBLINGS, "config.yml"),
    "missing-no-suggestions": Case({"zzz": b"x"}, "abc.txt"),
    "missing-parent": Case({}, "no/such/dir/file.txt"),
    "directory": Case({"pkg/a.py": b""}, "pkg"),
    "image": one("dot.png", PNG),
    "image-too-large": one("big.jpg", b"\xff" * (MAX_IMAGE_BYTES + 1)),
}


def golden_text(result: ToolResult, root: Path) -> str:
    """The result as pinned: the text itself, or the stored JSON when it holds an image."""
    if result.text() and not result.is_error:
        body = result.text()
    else:
        stored = TOOL_RESULT.dump_python(result, mode="json", by_alias=True)
        body = json.dumps(stored, indent=2, ensure_ascii=False)
    return body.replace(str(root), "{{cwd}}") + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
async def test_golden(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    root = tmp_path.resolve()
    for path, data in case.files.items():
        write(root, path, data)
    args = ReadArgs.model_validate({"path": case.path, **case.args})
    ctx = ToolContext(workspace=Workspace.at(root))
    if case.cap is not None:
        ctx.read_byte_cap = case.cap
    result = await invoke(ReadTool(), args, ctx)
    check_golden(GOLDEN / f"{name}.txt", golden_text(result, root))
