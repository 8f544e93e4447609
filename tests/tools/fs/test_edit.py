"""The edit tool on real files: matching, encodings, line endings, hunks and the gates."""

from __future__ import annotations

import codecs
import os
from pathlib import Path

import pytest

from tether.policy import PolicyGate
from tether.tools import Workspace, file_version
from tether.tools.card_context import CardContext
from tether.tools.fs.change_diff import MAX_DIFF_CHARS
from tether.tools.fs.edit import EditArgs, EditTool
from tether.tools.result import ToolResult
from tether.views import DiffCallView, DiffResultView, FileDiff, Location

from .edit_support import context, observe, run

TOOL = EditTool()

TEN = "".join(f"line {n}\n" for n in range(1, 11))


async def edit(root: Path, name: str, old: str, new: str, **extra: object) -> ToolResult:
    """Read `name` in a fresh session, then edit it."""
    ctx = context(root)
    await observe(ctx, root / name)
    return await run(TOOL, ctx, path=name, old_string=old, new_string=new, **extra)


def view_of(result: ToolResult) -> DiffResultView:
    """The result card; it must exist."""
    view = TOOL.present_result(
        EditArgs(path="x", old_string="a", new_string="b"), result, CardContext()
    )
    assert view is not None
    return view


async def test_replaces_a_unique_string_and_shows_the_hunk(tmp_path: Path) -> None:
    target = tmp_path / "ten.txt"
    target.write_text(TEN)
    result = await edit(tmp_path, "ten.txt", "line 5\n", "five\nand a half\n")
    assert result.text() == f"Edited {target}: replaced 1 occurrence"
    assert target.read_text() == TEN.replace("line 5\n", "five\nand a half\n")
    hunk_old = "line 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\n"
    hunk_new = "line 2\nline 3\nline 4\nfive\nand a half\nline 6\nline 7\nline 8\n"
    assert view_of(result) == DiffResultView(
        title=f"Edit {target}",
        diffs=(FileDiff(path=str(target), old_text=hunk_old, new_text=hunk_new),),
        locations=(Location(path=str(target), line=2),),
    )


async def test_far_apart_replacements_are_separate_hunks(tmp_path: Path) -> None:
    target = tmp_path / "many.txt"
    lines = [f"row {n}\n" for n in range(1, 31)]
    lines[1] = lines[25] = "marker\n"
    target.write_text("".join(lines))
    result = await edit(tmp_path, "many.txt", "marker", "MARK", replace_all=True)
    assert result.text() == f"Edited {target}: replaced 2 occurrences"
    view = view_of(result)
    assert [loc.line for loc in view.locations or ()] == [1, 23]
    assert view.diffs[0].old_text == "row 1\nmarker\nrow 3\nrow 4\nrow 5\n"
    assert view.diffs[0].new_text == "row 1\nMARK\nrow 3\nrow 4\nrow 5\n"
    assert view.diffs[1].new_text == "row 23\nrow 24\nrow 25\nMARK\nrow 27\nrow 28\nrow 29\n"


async def test_zero_or_several_matches_say_how_many(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("a x b x c x\n")
    result = await edit(tmp_path, "f.txt", "nowhere", "y")
    assert result.is_error
    assert result.text() == f"old_string not found in {target}"
    result = await edit(tmp_path, "f.txt", "x", "y")
    assert result.text() == (
        f"old_string matches 3 times in {target}; add more context to make it unique, "
        "or set replace_all"
    )
    assert target.read_text() == "a x b x c x\n"
    result = await edit(tmp_path, "f.txt", "x", "y", replace_all=True)
    assert result.text() == f"Edited {target}: replaced 3 occurrences"
    assert target.read_text() == "a y b y c y\n"


async def test_identical_strings_are_an_error(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("a\n")
    result = await edit(tmp_path, "f.txt", "a", "a")
    assert result.text() == "old_string and new_string are the same; there is nothing to change"


async def test_needs_a_read_and_an_unchanged_file(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("alpha\n")
    ctx = context(tmp_path)
    result = await run(TOOL, ctx, path="f.txt", old_string="alpha", new_string="beta")
    assert result.text() == f"edit requires reading {target} first"
    await observe(ctx, target)
    target.write_text("alpha, changed on disk\n")
    result = await run(TOOL, ctx, path="f.txt", old_string="alpha", new_string="beta")
    assert result.text() == f"{target} changed since it was read; read it again"
    assert target.read_text() == "alpha, changed on disk\n"
    await observe(ctx, target)
    await run(TOOL, ctx, path="f.txt", old_string="alpha", new_string="beta")
    # The session saw its own edit: a second edit needs no new read.
    result = await run(TOOL, ctx, path="f.txt", old_string="beta", new_string="gamma")
    assert not result.is_error
    assert target.read_text() == "gamma, changed on disk\n"


async def test_missing_file_is_an_error_unless_old_string_is_empty(tmp_path: Path) -> None:
    ctx = context(tmp_path)
    missing = tmp_path / "nope.txt"
    result = await run(TOOL, ctx, path="nope.txt", old_string="a", new_string="b")
    assert result.text() == f"File not found: {missing}"
    created = tmp_path / "new" / "deep" / "file.py"
    result = await run(TOOL, ctx, path="new/deep/file.py", old_string="", new_string="x = 1\ny\n")
    assert result.text() == f"Created {created} (2 lines)"
    # The card shows the whole new file, from its first line.
    assert view_of(result) == DiffResultView(
        title=f"Edit {created}",
        diffs=(FileDiff(path=str(created), old_text=None, new_text="x = 1\ny\n"),),
        locations=(Location(path=str(created), line=1),),
    )
    assert created.read_bytes() == b"x = 1\ny\n"
    view = view_of(result)
    assert view.diffs == (FileDiff(path=str(created), old_text=None, new_text="x = 1\ny\n"),)
    result = await run(TOOL, ctx, path="one.txt", old_string="", new_string="solo")
    assert result.text() == f"Created {tmp_path / 'one.txt'} (1 line)"
    result = await run(TOOL, ctx, path="bad.txt", old_string="", new_string="\ud800")
    assert (
        result.text()
        == f"Cannot edit {tmp_path / 'bad.txt'}: new_string cannot be encoded as utf-8"
    )


async def test_empty_old_string_fills_an_empty_file_only(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "full.txt").write_text("content\n")
    result = await edit(tmp_path, "empty.txt", "", "now\n")
    assert result.text() == f"Edited {tmp_path / 'empty.txt'}: replaced 1 occurrence"
    assert (tmp_path / "empty.txt").read_text() == "now\n"
    assert view_of(result).diffs[0].new_text == "now\n"
    result = await edit(tmp_path, "full.txt", "", "x")
    assert result.text() == (
        f"old_string is empty but {tmp_path / 'full.txt'} is not; an empty old_string only "
        "creates a new file or fills an empty one"
    )


async def test_binary_and_undecodable_files_are_refused(tmp_path: Path) -> None:
    blob = tmp_path / "blob.bin"
    blob.write_bytes(b"\x7fELF\x00\x00abc")
    odd = tmp_path / "odd.txt"
    odd.write_bytes(codecs.BOM_UTF16_LE + b"a\x00b")
    ctx = context(tmp_path)
    for path in (blob, odd):
        ctx.observations.record(file_version(path))
    result = await run(TOOL, ctx, path="blob.bin", old_string="abc", new_string="xyz")
    assert result.text() == f"Cannot edit binary file: {blob}"
    result = await run(TOOL, ctx, path="odd.txt", old_string="a", new_string="z")
    assert result.text() == f"Cannot edit {odd}: it is not valid utf-16-le text"
    assert blob.read_bytes() == b"\x7fELF\x00\x00abc"


async def test_a_directory_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    result = await run(TOOL, context(tmp_path), path="d", old_string="a", new_string="b")
    assert result.text() == f"{tmp_path / 'd'} is a directory"


async def test_crlf_file_matched_with_lf_keeps_crlf(tmp_path: Path) -> None:
    target = tmp_path / "win.txt"
    target.write_bytes(b"one\r\ntwo\r\nthree\r\nfour\r\n")
    result = await edit(tmp_path, "win.txt", "two\nthree\n", "2\n3\n3.5\n")
    assert not result.is_error
    assert target.read_bytes() == b"one\r\n2\r\n3\r\n3.5\r\nfour\r\n"
    # Cards show LF, whatever the file uses.
    assert view_of(result).diffs[0].old_text == "one\ntwo\nthree\nfour\n"


async def test_crlf_edit_that_only_changes_line_endings_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "win.txt"
    target.write_bytes(b"a\r\nb\r\n")
    result = await edit(tmp_path, "win.txt", "a\r\n", "a\n")
    assert result.text() == f"The edit would leave {target} unchanged"
    assert target.read_bytes() == b"a\r\nb\r\n"


async def test_lf_file_matched_with_crlf_strings_stays_lf(tmp_path: Path) -> None:
    target = tmp_path / "unix.txt"
    target.write_bytes(b"a\nb\nc\n")
    await edit(tmp_path, "unix.txt", "a\r\nb\r\n", "A\r\nB\r\n")
    assert target.read_bytes() == b"A\nB\nc\n"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # Found as given: only that spot changes.
        ("b\r\nc\n", "B\r\nC\n", b"a\nB\r\nC\nd\r\n"),
        # Each line break matches either kind; as many lines keep their own endings.
        ("c\nd\n", "C\nD\n", b"a\nb\r\nC\nD\r\n"),
        ("a\r\nb", "A\r\nB", b"A\nB\r\nc\nd\r\n"),
        # More lines than the match: the style most of the match uses.
        ("b\nc\nd\n", "1\n2\n", b"a\n1\r\n2\r\n"),
        ("a\nb\n", "1\n2\n3\n", b"1\n2\n3\nc\nd\r\n"),
    ],
)
async def test_mixed_line_endings_are_left_as_they_are(
    tmp_path: Path, old: str, new: str, expected: bytes
) -> None:
    target = tmp_path / "mixed.txt"
    target.write_bytes(b"a\nb\r\nc\nd\r\n")
    result = await edit(tmp_path, "mixed.txt", old, new)
    assert not result.is_error, result.text()
    assert target.read_bytes() == expected


async def test_one_line_grown_to_several_takes_the_files_style(tmp_path: Path) -> None:
    target = tmp_path / "mostly.txt"
    target.write_bytes(b"x\r\ny\r\nz\n")
    await edit(tmp_path, "mostly.txt", "y", "y1\ny2")
    assert target.read_bytes() == b"x\r\ny1\r\ny2\r\nz\n"


async def test_a_trailing_cr_does_not_split_a_crlf(tmp_path: Path) -> None:
    target = tmp_path / "win.txt"
    target.write_bytes(b"a\r\nb\r\n")
    result = await edit(tmp_path, "win.txt", "a\r", "c")
    assert result.text() == f"old_string not found in {target}"


async def test_utf16_le_bom_crlf_round_trips_byte_exact(tmp_path: Path) -> None:
    target = tmp_path / "u16.txt"
    text = "first ☃\r\nsecond\r\nthird 𝄞\r\n"
    target.write_bytes(codecs.BOM_UTF16_LE + text.encode("utf-16-le"))
    result = await edit(tmp_path, "u16.txt", "second\n", "zweite\n")
    assert not result.is_error
    expected = codecs.BOM_UTF16_LE + text.replace("second", "zweite").encode("utf-16-le")
    assert target.read_bytes() == expected


async def test_utf16_be_and_utf32_files_keep_their_encoding(tmp_path: Path) -> None:
    for name, bom, codec in (
        ("be.txt", codecs.BOM_UTF16_BE, "utf-16-be"),
        ("u32.txt", codecs.BOM_UTF32_LE, "utf-32-le"),
    ):
        target = tmp_path / name
        target.write_bytes(bom + "x = 1\ny = 2\n".encode(codec))
        await edit(tmp_path, name, "y = 2", "y = 3")
        assert target.read_bytes() == bom + "x = 1\ny = 3\n".encode(codec)


async def test_utf8_bom_and_invalid_bytes_elsewhere_survive(tmp_path: Path) -> None:
    target = tmp_path / "bom.txt"
    original = codecs.BOM_UTF8 + b"caf\xc3\xa9\nbad \xff\xfe byte\nend\n"
    target.write_bytes(original)
    result = await edit(tmp_path, "bom.txt", "end", "fin")
    assert not result.is_error
    assert target.read_bytes() == original.replace(b"end", b"fin")
    # The card replaces the invalid bytes rather than carrying lone surrogates.
    assert "bad \ufffd\ufffd byte" in view_of(result).diffs[0].old_text  # type: ignore[operator]


async def test_new_string_that_cannot_be_encoded_is_an_error(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("abc\n")
    result = await edit(tmp_path, "f.txt", "b", "\ud800")
    assert result.text() == f"Cannot edit {target}: new_string cannot be encoded as utf-8"
    assert target.read_text() == "abc\n"


async def test_mode_bits_survive_an_edit(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o755)
    await edit(tmp_path, "run.sh", "hi", "there")
    assert script.stat().st_mode & 0o777 == 0o755
    assert script.read_text() == "#!/bin/sh\necho there\n"


async def test_symlink_out_of_the_workspace_asks_and_auto_allows(tmp_path: Path) -> None:
    root, outside = tmp_path / "ws", tmp_path / "elsewhere"
    root.mkdir()
    outside.mkdir()
    secret = outside / "secret.txt"
    secret.write_text("token = 1\n")
    (root / "link.txt").symlink_to(secret)
    gate = PolicyGate(Workspace.at(root), mode="ask")
    ctx = context(root, gate)
    ctx.observations.record(file_version(secret))
    result = await run(TOOL, ctx, path="link.txt", old_string="1", new_string="2")
    assert result.is_error
    assert result.text() == (
        f"Permission to edit {secret} needs approval (it is outside the workspace), but there "
        "is no one to ask in this session; run with --mode auto to allow it"
    )
    assert secret.read_text() == "token = 1\n"
    gate.mode = "accept-edits"
    result = await run(TOOL, ctx, path="link.txt", old_string="1", new_string="2")
    assert result.is_error
    gate.mode = "auto"
    result = await run(TOOL, ctx, path="link.txt", old_string="1", new_string="2")
    assert result.text() == f"Edited {secret}: replaced 1 occurrence"
    assert secret.read_text() == "token = 2\n"
    assert (root / "link.txt").is_symlink()


async def test_dotdot_escape_is_outside(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "above.txt").write_text("a\n")
    ctx = context(root, PolicyGate(Workspace.at(root), mode="accept-edits"))
    ctx.observations.record(file_version(tmp_path / "above.txt"))
    result = await run(TOOL, ctx, path="sub/../../above.txt", old_string="a", new_string="b")
    assert "outside the workspace" in result.text()
    assert (tmp_path / "above.txt").read_text() == "a\n"


async def test_call_view_and_serial_key() -> None:
    args = EditArgs(path="src/a.py", old_string="x = 1", new_string="x = 2")
    assert TOOL.present_call(args, CardContext()) == DiffCallView(
        title="Edit src/a.py",
        diffs=(FileDiff(path="src/a.py", old_text="x = 1", new_text="x = 2"),),
        locations=(Location(path="src/a.py"),),
    )
    assert TOOL.serial_key(args) == "src/a.py"
    assert (
        TOOL.present_result(args, ToolResult.error("old_string not found in x"), CardContext())
        is None
    )
    assert set(TOOL.parameters_schema()["properties"]) == {
        "path",
        "old_string",
        "new_string",
        "replace_all",
    }


async def test_a_huge_edit_is_stored_without_a_diff(tmp_path: Path) -> None:
    target = tmp_path / "big.txt"
    target.write_text("x\n")
    result = await edit(tmp_path, "big.txt", "x", "y" * (MAX_DIFF_CHARS + 1))
    assert not result.is_error
    assert result.meta is None
    assert (
        TOOL.present_result(
            EditArgs(path="big.txt", old_string="x", new_string="y"), result, CardContext()
        )
        is None
    )


async def test_a_name_too_long_is_an_error_result(tmp_path: Path) -> None:
    name = "x" * 300
    result = await run(TOOL, context(tmp_path), path=name, old_string="", new_string="x")
    assert result.is_error
    assert result.text() == f"Cannot access {tmp_path / name}: File name too long"
    assert os.listdir(tmp_path) == []
