"""The write tool on real files: creating, overwriting, encodings, read before overwrite."""

from __future__ import annotations

import codecs
import os
from pathlib import Path

from tests.policy.support import Asker
from tether.policy import PermissionQuestion, PolicyGate
from tether.tools import Workspace, file_version
from tether.tools.card_context import CardContext
from tether.tools.fs.change_diff import MAX_DIFF_CHARS
from tether.tools.fs.write import WriteArgs, WriteTool
from tether.tools.result import ToolResult
from tether.views import DiffCallView, DiffResultView, FileDiff, Location, dump_view

from .edit_support import context, observe, run

TOOL = WriteTool()


def result_view(path: str, content: str, result: ToolResult) -> DiffResultView | None:
    """The result card, as the session derives it."""
    return TOOL.present_result(WriteArgs(path=path, content=content), result, CardContext())


async def test_creates_a_file_and_its_parents(tmp_path: Path) -> None:
    ctx = context(tmp_path)
    result = await run(TOOL, ctx, path="a/b/new.py", content="one\ntwo\n")
    target = tmp_path / "a" / "b" / "new.py"
    assert not result.is_error
    assert target.read_bytes() == b"one\ntwo\n"
    assert result.text() == f"Wrote 2 lines to {target} (new file)"
    assert result.meta == {
        "path": str(target),
        "diffs": [{"path": str(target), "oldText": None, "newText": "one\ntwo\n"}],
        "lines": [1],
    }
    assert result_view("a/b/new.py", "one\ntwo\n", result) == DiffResultView(
        title=f"Write {target}",
        diffs=(FileDiff(path=str(target), old_text=None, new_text="one\ntwo\n"),),
        locations=(Location(path=str(target), line=1),),
    )
    # What was written counts as seen: writing again needs no read.
    again = await run(TOOL, ctx, path="a/b/new.py", content="x")
    assert again.text() == f"Wrote 1 line to {target}"
    assert target.read_bytes() == b"x"


async def test_overwrite_needs_a_read(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("old\n")
    result = await run(TOOL, context(tmp_path), path="f.txt", content="new\n")
    assert result.is_error
    assert result.text() == f"edit requires reading {target} first"
    assert target.read_text() == "old\n"


async def test_overwrite_after_a_read_shows_old_and_new(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("old\n")
    ctx = context(tmp_path)
    await observe(ctx, target)
    result = await run(TOOL, ctx, path="f.txt", content="new\nmore\n")
    assert result.text() == f"Wrote 2 lines to {target}"
    assert target.read_text() == "new\nmore\n"
    view = result_view("f.txt", "new\nmore\n", result)
    assert view is not None
    assert view.diffs == (FileDiff(path=str(target), old_text="old\n", new_text="new\nmore\n"),)
    assert ctx.observations.get(target) == file_version(target)


async def test_overwrite_refused_when_the_file_changed_since_the_read(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("old\n")
    ctx = context(tmp_path)
    await observe(ctx, target)
    target.write_text("someone else\n")
    result = await run(TOOL, ctx, path=str(target), content="new\n")
    assert result.text() == f"{target} changed since it was read; read it again"
    assert target.read_text() == "someone else\n"


async def test_crlf_file_stays_crlf(tmp_path: Path) -> None:
    target = tmp_path / "win.txt"
    target.write_bytes(b"a\r\nb\r\n")
    ctx = context(tmp_path)
    await observe(ctx, target)
    await run(TOOL, ctx, path="win.txt", content="x\ny\n")
    assert target.read_bytes() == b"x\r\ny\r\n"
    # Content that already has CRLF is written as given.
    await run(TOOL, ctx, path="win.txt", content="p\r\nq\n")
    assert target.read_bytes() == b"p\r\nq\n"


async def test_utf16_and_utf8_bom_files_keep_their_encoding(tmp_path: Path) -> None:
    utf16 = tmp_path / "u16.txt"
    utf16.write_bytes(codecs.BOM_UTF16_LE + "héllo\r\n".encode("utf-16-le"))
    bom8 = tmp_path / "bom8.txt"
    bom8.write_bytes(codecs.BOM_UTF8 + b"old\n")
    ctx = context(tmp_path)
    await observe(ctx, utf16)
    await observe(ctx, bom8)
    result = await run(TOOL, ctx, path="u16.txt", content="wörld\n")
    assert utf16.read_bytes() == codecs.BOM_UTF16_LE + "wörld\r\n".encode("utf-16-le")
    view = result_view("u16.txt", "wörld\n", result)
    assert view is not None
    assert view.diffs[0].old_text == "héllo\n"
    assert view.diffs[0].new_text == "wörld\n"
    await run(TOOL, ctx, path="bom8.txt", content="new\n")
    assert bom8.read_bytes() == codecs.BOM_UTF8 + b"new\n"


async def test_binary_or_undecodable_old_file_is_shown_as_replaced_whole(tmp_path: Path) -> None:
    binary = tmp_path / "blob.txt"
    binary.write_bytes(b"\x00\x01\x02")
    broken = tmp_path / "odd.txt"
    broken.write_bytes(codecs.BOM_UTF16_LE + b"a\x00b")  # a truncated UTF-16 code unit
    ctx = context(tmp_path)
    for path in (binary, broken):
        ctx.observations.record(file_version(path))
        result = await run(TOOL, ctx, path=str(path), content="text\n")
        assert path.read_bytes() == b"text\n"
        view = result_view(str(path), "text\n", result)
        assert view is not None
        assert view.diffs[0].old_text is None


async def test_directories_fifos_and_file_parents_are_errors(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "plain").write_text("x")
    ctx = context(tmp_path)
    result = await run(TOOL, ctx, path="dir", content="x")
    assert result.text() == f"{tmp_path / 'dir'} is a directory"
    result = await run(TOOL, ctx, path="pipe", content="x")
    assert result.text() == f"{tmp_path / 'pipe'} is not a regular file"
    result = await run(TOOL, ctx, path="plain/child.txt", content="x")
    assert result.is_error
    assert result.text().startswith(f"Cannot write {tmp_path / 'plain' / 'child.txt'}: ")
    assert (tmp_path / "plain").read_text() == "x"


async def test_content_that_cannot_be_encoded_is_an_error(tmp_path: Path) -> None:
    result = await run(TOOL, context(tmp_path), path="s.txt", content="bad \ud800 surrogate")
    assert result.text() == (
        f"Cannot write {tmp_path / 's.txt'}: the content cannot be encoded as utf-8"
    )
    assert not (tmp_path / "s.txt").exists()


async def test_mode_bits_survive_an_overwrite(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    ctx = context(tmp_path)
    await observe(ctx, script)
    await run(TOOL, ctx, path="run.sh", content="#!/bin/sh\necho hi\n")
    assert script.stat().st_mode & 0o777 == 0o755


async def test_headless_ask_mode_refuses_and_creates_nothing(tmp_path: Path) -> None:
    ctx = context(tmp_path, PolicyGate(Workspace.at(tmp_path)))
    result = await run(TOOL, ctx, path="new/dir/f.txt", content="x")
    target = tmp_path / "new" / "dir" / "f.txt"
    assert result.is_error
    assert result.text() == (
        f"Permission to edit {target} needs approval (edits need approval in ask mode), "
        "but there is no one to ask in this session; "
        "run with --mode accept-edits or --mode auto to allow edits"
    )
    assert not (tmp_path / "new").exists()


async def test_the_asker_sees_the_write_and_can_reject_it(tmp_path: Path) -> None:
    asker = Asker("reject", "allow_once")
    ctx = context(tmp_path, PolicyGate(Workspace.at(tmp_path), asker=asker))
    result = await run(TOOL, ctx, path="f.txt", content="x")
    target = tmp_path / "f.txt"
    assert result.text() == f"Permission to edit {target} was rejected"
    assert not target.exists()
    access = asker.requests[0].subject
    assert (access.action, access.title, access.path, access.inside, access.tool_call_id) == (
        "edit",
        f"Write {target}",
        target,
        True,
        "call-1",
    )
    result = await run(TOOL, ctx, path="f.txt", content="x")
    assert not result.is_error
    assert target.read_text() == "x"


async def test_a_file_that_appears_or_changes_while_asking_is_not_clobbered(
    tmp_path: Path,
) -> None:
    target = tmp_path / "f.txt"

    def create(_request: PermissionQuestion) -> None:
        target.write_text("created meanwhile\n")

    ctx = context(
        tmp_path,
        PolicyGate(Workspace.at(tmp_path), asker=Asker("allow_once", during=create)),
    )
    result = await run(TOOL, ctx, path="f.txt", content="mine\n")
    assert result.text() == f"edit requires reading {target} first"
    assert target.read_text() == "created meanwhile\n"

    await observe(ctx, target)

    def change(_request: PermissionQuestion) -> None:
        target.write_text("changed meanwhile\n")

    ctx.gate = PolicyGate(Workspace.at(tmp_path), asker=Asker("allow_once", during=change))
    result = await run(TOOL, ctx, path="f.txt", content="mine\n")
    assert result.text() == f"{target} changed since it was read; read it again"
    assert target.read_text() == "changed meanwhile\n"


async def test_views_and_serial_key(tmp_path: Path) -> None:
    args = WriteArgs(path="src/x.py", content="print(1)\n")
    assert TOOL.present_call(args, CardContext()) == DiffCallView(
        title="Write src/x.py",
        diffs=(FileDiff(path="src/x.py", old_text=None, new_text="print(1)\n"),),
        locations=(Location(path="src/x.py", line=1),),
    )
    assert dump_view(TOOL.present_call(args, CardContext()))["diffs"][0]["oldText"] is None
    assert TOOL.serial_key(args) == "src/x.py"
    assert TOOL.present_result(args, ToolResult.error("nope"), CardContext()) is None
    assert set(TOOL.parameters_schema()["properties"]) == {"path", "content"}


async def test_a_huge_write_is_stored_without_a_diff(tmp_path: Path) -> None:
    content = "x" * (MAX_DIFF_CHARS + 1)
    result = await run(TOOL, context(tmp_path), path="big.txt", content=content)
    assert not result.is_error
    assert result.meta is None
    assert result_view("big.txt", content, result) is None
    assert (tmp_path / "big.txt").read_text() == content


async def test_a_name_too_long_is_an_error_result(tmp_path: Path) -> None:
    name = "x" * 300
    result = await run(TOOL, context(tmp_path), path=name, content="x")
    assert result.is_error
    assert result.text() == f"Cannot access {tmp_path / name}: File name too long"
    assert os.listdir(tmp_path) == []


async def test_a_name_as_long_as_names_go_is_written_with_a_shorter_temporary_file(
    tmp_path: Path,
) -> None:
    name = "é" * 125  # 250 bytes: its temporary file beside it must be named shorter
    result = await run(TOOL, context(tmp_path), path=name, content="x")
    assert not result.is_error, result.text()
    assert os.listdir(tmp_path) == [name]
    assert (tmp_path / name).read_text() == "x"
