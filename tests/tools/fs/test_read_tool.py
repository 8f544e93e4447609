"""The `read` tool end to end: arguments, policy, observations, meta and both cards."""

from __future__ import annotations

import codecs
import json
import os
from pathlib import Path

import pytest

from tether.content import ImageContent, TextContent
from tether.errors import PermissionDenied
from tether.tools import (
    Access,
    FileAccess,
    ToolContext,
    ToolResult,
    Workspace,
    file_version,
    invoke,
    parse_arguments,
    result_view,
)
from tether.tools.access import HookVerdict
from tether.tools.card_context import CardContext
from tether.tools.fs.read import ReadArgs, ReadTool
from tether.tools.fs.read_file import SEGMENT_BYTES
from tether.tools.observations import HASHED_UP_TO
from tether.views import (
    GenericCallView,
    GenericResultView,
    Location,
    ReadFileLine,
    ReadResultView,
    dump_view,
)

TOOL = ReadTool()


class RecordingGate:
    """A gate that records every access and refuses those whose path ends with `refuse`."""

    def __init__(self, refuse: str = "\0") -> None:
        self.accesses: list[Access] = []
        self.refuse = refuse

    async def authorize(self, access: Access, hook: HookVerdict | None = None) -> None:
        """Record, then allow or refuse."""
        self.accesses.append(access)
        assert isinstance(access, FileAccess)
        if str(access.path).endswith(self.refuse):
            raise PermissionDenied(f"Reading {access.path} was rejected")


async def read(ctx: ToolContext, **arguments: object) -> ToolResult:
    """One call as the session makes it: raw JSON arguments, parsed, then invoked."""
    args = parse_arguments(TOOL, json.dumps(arguments))
    assert isinstance(args, ReadArgs)
    return await invoke(TOOL, args, ctx)


def context(root: Path, **kwargs: object) -> ToolContext:
    """A context on a real workspace."""
    return ToolContext(workspace=Workspace.at(root), **kwargs)  # type: ignore[arg-type]


async def test_meta_and_result_card(tmp_path: Path) -> None:
    (tmp_path / "a.ts").write_text("let a = 1;\nlet b = 2;\nlet c = 3;\n")
    result = await read(context(tmp_path), path="a.ts", offset=2, limit=1)
    path = str(tmp_path.resolve() / "a.ts")
    assert result.meta == {
        "path": path,
        "offset": 2,
        "lines": [{"number": 2, "text": "let b = 2;"}],
        "totalLines": 3,
        "lang": "typescript",
    }
    args = ReadArgs(path="a.ts", offset=2, limit=1)
    view = result_view(TOOL, args, result, CardContext())
    assert view == ReadResultView(
        title="Read a.ts",
        path=path,
        offset=2,
        lines=(ReadFileLine(number=2, text="let b = 2;"),),
        total_lines=3,
        lang="typescript",
        content="2: let b = 2;\n\n(Showing lines 2-2 of 3. Use offset=3 to continue.)",
    )
    assert dump_view(view)["totalLines"] == 3
    # The stored result alone gives the same card (replay).
    stored = ToolResult(**{"content": result.content, "is_error": False, "meta": result.meta})
    assert TOOL.present_result(args, stored, CardContext()) == view


async def test_a_window_the_byte_cap_cut_says_so_in_meta_and_card(tmp_path: Path) -> None:
    (tmp_path / "wide.txt").write_text("".join(f"{n:04} {'.' * 60}\n" for n in range(100)))
    result = await read(context(tmp_path, read_byte_cap=1024), path="wide.txt")
    assert isinstance(result.meta, dict)
    assert result.meta["byteCap"] == 1024
    view = result_view(TOOL, ReadArgs(path="wide.txt"), result, CardContext())
    assert isinstance(view, ReadResultView)
    assert view.byte_cap == 1024 and len(view.lines) < 100
    assert dump_view(view)["byteCap"] == 1024


async def test_meta_leaves_out_an_unknown_lang(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("x\n")
    result = await read(context(tmp_path), path="notes")
    assert isinstance(result.meta, dict)
    assert "lang" not in result.meta
    view = TOOL.present_result(ReadArgs(path="notes"), result, CardContext())
    assert isinstance(view, ReadResultView)
    assert view.lang is None
    assert "lang" not in dump_view(view)


def text_result(text: str, meta: object, is_error: bool = False) -> ToolResult:
    """A stored result with one text block."""
    return ToolResult(content=(TextContent(text=text),), is_error=is_error, meta=meta)  # type: ignore[arg-type]


ENVELOPE = (
    "<path>/w/a</path>\n<type>file</type>\n<content>\n"
    "1: a\n\n(End of file - total 1 lines)\n</content>"
)
META = {"path": "/w/a", "offset": 1, "lines": [{"number": 1, "text": "a"}], "totalLines": 1}


@pytest.mark.parametrize(
    "result",
    [
        text_result(ENVELOPE, META, is_error=True),
        text_result("File not found: /w/a", None, is_error=True),
        ToolResult(content=(), meta=META),
        ToolResult(content=(TextContent(text=ENVELOPE), TextContent(text="more")), meta=META),
        ToolResult(content=(ImageContent(data="AA==", mime_type="image/png"),), meta=META),
        text_result("1: a", META),
        text_result(ENVELOPE, None),
        text_result(ENVELOPE, {**META, "totalLines": 0}),
        text_result(ENVELOPE, {**META, "offset": 1.0}),
    ],
)
def test_present_result_declines(result: ToolResult) -> None:
    assert TOOL.present_result(ReadArgs(path="a"), result, CardContext()) is None
    assert isinstance(
        result_view(TOOL, ReadArgs(path="a"), result, CardContext()), GenericResultView
    )


def test_present_result_accepts_a_stored_window() -> None:
    view = TOOL.present_result(ReadArgs(path="a"), text_result(ENVELOPE, META), CardContext())
    assert view == ReadResultView(
        title="Read a",
        path="/w/a",
        offset=1,
        lines=(ReadFileLine(number=1, text="a"),),
        total_lines=1,
        content="1: a\n\n(End of file - total 1 lines)",
    )


@pytest.mark.parametrize(
    ("arguments", "title"),
    [
        ({"path": "src/a.py"}, "Read src/a.py"),
        ({"path": "src/a.py", "offset": 10, "limit": 20}, "Read src/a.py (lines 10-29)"),
        ({"path": "src/a.py", "offset": 10}, "Read src/a.py (from line 10)"),
        ({"path": "src/a.py", "limit": 20}, "Read src/a.py (lines 1-20)"),
        ({"path": "/abs/b.txt", "offset": 1}, "Read /abs/b.txt (from line 1)"),
    ],
)
def test_present_call(arguments: dict[str, object], title: str) -> None:
    args = ReadArgs.model_validate(arguments)
    view = TOOL.present_call(args, CardContext())
    assert view == GenericCallView(
        title=title,
        kind="read",
        raw_input=arguments,
        locations=(Location(path=str(arguments["path"]), line=args.offset),),
    )
    assert dump_view(view)["rawInput"] == arguments


def test_serial_key_is_the_path() -> None:
    assert TOOL.serial_key(ReadArgs(path="src/a.py", offset=3)) == "src/a.py"


def test_schema_the_model_sees() -> None:
    schema = TOOL.parameters_schema()
    assert schema["required"] == ["path"]
    assert schema["properties"]["offset"]["minimum"] == 1
    assert schema["properties"]["offset"]["default"] == 1
    assert schema["properties"]["limit"]["minimum"] == 1
    assert schema["properties"]["limit"]["default"] == 2000
    assert all(p["description"] for p in schema["properties"].values())
    assert TOOL.name == "read"
    assert "offset" in TOOL.description


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ('{"path": "a", "offset": 0}', "offset: Input should be greater than or equal to 1"),
        ('{"path": "a", "limit": 0}', "limit: Input should be greater than or equal to 1"),
        ("{}", "path: Field required"),
    ],
)
def test_bad_arguments_are_error_results(raw: str, message: str) -> None:
    result = parse_arguments(TOOL, raw)
    assert isinstance(result, ToolResult)
    assert result.is_error
    assert message in result.text()


async def test_the_gate_is_asked_first_with_the_resolved_path(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "o.txt").write_text("o\n")
    root = tmp_path / "ws"
    root.mkdir()
    gate = RecordingGate(refuse="secret")
    ctx = context(root, gate=gate, tool_call_id="call-7")
    assert not (await read(ctx, path="../outside/o.txt")).is_error
    denied = await read(ctx, path="secret")
    assert denied.is_error
    assert denied.text() == f"Reading {root.resolve() / 'secret'} was rejected"
    assert gate.accesses == [
        FileAccess(
            action="read",
            title=f"Read {outside.resolve() / 'o.txt'}",
            path=outside.resolve() / "o.txt",
            inside=False,
            tool_call_id="call-7",
            tool="read",
        ),
        FileAccess(
            action="read",
            title=f"Read {root.resolve() / 'secret'}",
            path=root.resolve() / "secret",
            inside=True,
            tool_call_id="call-7",
            tool="read",
        ),
    ]


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("a.py", b"x = 1\n"),
        ("u16.txt", codecs.BOM_UTF16_LE + "hé\n".encode("utf-16-le")),
        ("bom.txt", codecs.BOM_UTF8 + b"a\n"),
        ("empty.txt", b""),
        ("dot.gif", b"GIF89a\x01\x00\x01\x00"),
    ],
)
async def test_a_read_records_the_version_edit_compares_against(
    tmp_path: Path, name: str, data: bytes
) -> None:
    target = tmp_path / name
    target.write_bytes(data)
    ctx = context(tmp_path)
    assert not (await read(ctx, path=name)).is_error
    assert ctx.observations.get(target.resolve()) == file_version(target)


async def test_a_huge_file_is_recorded_without_a_hash(tmp_path: Path) -> None:
    target = tmp_path / "huge.log"
    with target.open("wb") as handle:
        handle.write(b"start\n" + b"." * 5000 + b"\n")
        # A sparse tail: past the hashing limit without writing 64 MB.
        handle.seek(HASHED_UP_TO)
        handle.write(b"end\n")
    ctx = context(tmp_path)
    result = await read(ctx, path="huge.log", limit=1)
    assert "(Showing lines 1-1 of 3. Use offset=2 to continue.)" in result.text()
    version = ctx.observations.get(target.resolve())
    assert version is not None
    assert version.sha256 == ""
    assert version == file_version(target)


async def test_a_huge_file_with_a_bom_is_read_across_segments(tmp_path: Path) -> None:
    target = tmp_path / "huge.txt"
    boundary = HASHED_UP_TO + SEGMENT_BYTES
    with target.open("wb") as handle:
        handle.write(codecs.BOM_UTF8 + "first é\n".encode() + b"x" * 5000 + b"\n")
        # Sparse again; the line "ab" + "cd" straddles the boundary between two segments.
        handle.seek(boundary - 2)
        handle.write(b"ab\ncd\r\nlast")
    result = await read(context(tmp_path), path="huge.txt", offset=4)
    assert result.text().endswith(
        "<content>\n4: cd\n5: last\n\n(End of file - total 5 lines)\n</content>"
    )
    first = await read(context(tmp_path), path="huge.txt", limit=1)
    assert "\n1: first é\n" in first.text()


async def test_a_huge_file_of_many_lines_is_windowed_exactly(tmp_path: Path) -> None:
    # 8M numbered lines of 10 bytes: past the hashing limit, over many segments.
    count = 8_000_000
    assert count * 10 > HASHED_UP_TO + 2 * SEGMENT_BYTES
    target = tmp_path / "numbers.txt"
    with target.open("wb") as handle:
        # Lines `n` of 100,000 at a time: each block is one template of the low five digits
        # (1..99999, then 0 for the block's last line, whose high digits are one more), its high
        # four digits set per block by slices (formatting 8M numbers one by one took a second).
        block = bytearray(b"".join(b"0000%05d\n" % (n % 100_000) for n in range(1, 100_001)))
        for high in range(count // 100_000):
            digits = b"%04d" % high
            for place in range(4):
                block[place::10] = digits[place : place + 1] * 100_000
            block[-10:-6] = b"%04d" % (high + 1)
            handle.write(block)
    ctx = context(tmp_path)
    # A window that crosses a segment boundary (line 419431 ends at byte 4194310).
    result = await read(ctx, path="numbers.txt", offset=419_430, limit=3)
    assert result.text().endswith(
        "<content>\n419430: 000419430\n419431: 000419431\n419432: 000419432\n\n"
        f"(Showing lines 419430-419432 of {count}. Use offset=419433 to continue.)\n</content>"
    )
    last = await read(ctx, path="numbers.txt", offset=count)
    assert f"\n{count}: {count:09d}\n\n(End of file - total {count} lines)" in last.text()
    beyond = await read(ctx, path="numbers.txt", offset=count + 1)
    assert beyond.text() == (
        f'offset {count + 1} is out of range for "{target.resolve()}" ({count} lines)'
    )


async def test_failed_reads_record_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\n")
    ctx = context(tmp_path)
    assert (await read(ctx, path="a.txt", offset=3)).is_error
    assert (await read(ctx, path="nope")).is_error
    assert ctx.observations.get(tmp_path.resolve() / "a.txt") is None


async def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    result = await read(context(tmp_path), path="pipe")
    assert result.is_error
    assert result.text() == f"Cannot read {tmp_path.resolve() / 'pipe'}: not a regular file"


async def test_an_unopenable_path_says_why(tmp_path: Path) -> None:
    name = "n" * 300
    result = await read(context(tmp_path), path=name)
    assert result.is_error
    assert result.text() == f"Cannot read {tmp_path.resolve() / name}: File name too long"


async def test_a_file_under_a_file_is_not_found(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    result = await read(context(tmp_path), path="plain/inner.txt")
    assert result.text() == f"File not found: {tmp_path.resolve() / 'plain' / 'inner.txt'}"


async def test_symlinks_are_followed_and_the_target_named(tmp_path: Path) -> None:
    (tmp_path / "real.md").write_text("# Title\n")
    (tmp_path / "link.md").symlink_to(tmp_path / "real.md")
    result = await read(context(tmp_path), path="link.md")
    assert result.text().startswith(f"<path>{tmp_path.resolve() / 'real.md'}</path>")
    assert isinstance(result.meta, dict)
    assert result.meta["lang"] == "markdown"


async def test_an_image_has_no_meta_and_the_generic_card(tmp_path: Path) -> None:
    (tmp_path / "photo.JPG").write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    result = await read(context(tmp_path), path="photo.JPG")
    assert result.content == (
        ImageContent(data="/9j/4CBub3QgcmVhbGx5IGEganBlZw==", mime_type="image/jpeg"),
    )
    assert result.meta is None
    assert TOOL.present_result(ReadArgs(path="photo.JPG"), result, CardContext()) is None


async def test_suggestions_are_at_most_three(tmp_path: Path) -> None:
    for name in ("app.py", "app.pyc", "app_test.py", "app2.py", "application.py"):
        (tmp_path / name).write_text("x")
    result = await read(context(tmp_path), path="app")
    lines = result.text().splitlines()
    assert lines[:3] == [
        f"File not found: {tmp_path.resolve() / 'app'}",
        "",
        "Did you mean one of these?",
    ]
    assert lines[3:] == [
        str(tmp_path.resolve() / "app.py"),
        str(tmp_path.resolve() / "app.pyc"),
        str(tmp_path.resolve() / "app2.py"),
    ]


async def test_an_empty_image_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "blank.webp").write_bytes(b"")
    result = await read(context(tmp_path), path="blank.webp")
    assert result.is_error
    assert (
        result.text() == f"Cannot read image {tmp_path.resolve() / 'blank.webp'}: the file is empty"
    )


async def test_an_error_while_reading_is_a_result_naming_the_path(tmp_path: Path) -> None:
    # /proc/self/mem is a regular file whose first bytes cannot be read (EIO).
    result = await read(context(tmp_path), path="/proc/self/mem")
    assert result.is_error
    assert result.text() == f"Cannot read {Path('/proc/self/mem').resolve()}: Input/output error"
