"""`grep` on real trees: ignore rules, filters, caps, the exact total and the model's text."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.policy.support import Always
from tests.tools.search.support import context, grep, policy, write
from tether.policy.modes import PolicyMode
from tether.tools.card_context import CardContext
from tether.tools.fs.read_window import TRUNCATION_SUFFIX
from tether.tools.search import GrepArgs, GrepTool
from tether.tools.search.grep import MAX_MATCHES
from tether.views import GenericCallView, SearchFile, SearchMatch, SearchMatchesResultView


def paths(meta: object) -> list[str]:
    assert isinstance(meta, dict)
    return [f["path"] for f in meta["files"]]


async def test_matches_are_grouped_by_file_in_path_order(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "b.py": "needle = 1\nother\nneedle = 2\n",
            "a/z.py": "needle\n",
            "a.py": "x\nneedle here\n",
        },
    )
    result = await grep(tmp_path, pattern="needle")
    assert not result.is_error
    assert result.text() == (
        "a/z.py\n  1: needle\n\n"
        "a.py\n  2: needle here\n\n"
        "b.py\n  1: needle = 1\n  3: needle = 2\n\n"
        "(4 matches in 3 files)"
    )
    assert result.meta == {
        "files": [
            {"path": "a/z.py", "matches": [{"lineNumber": 1, "line": "needle"}]},
            {"path": "a.py", "matches": [{"lineNumber": 2, "line": "needle here"}]},
            {
                "path": "b.py",
                "matches": [
                    {"lineNumber": 1, "line": "needle = 1"},
                    {"lineNumber": 3, "line": "needle = 2"},
                ],
            },
        ],
        "truncated": False,
        "total": 4,
        "totalFiles": 3,
    }


async def test_gitignore_is_respected_without_a_repository(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            ".gitignore": "build/\n*.log\n",
            "src/app.py": "token\n",
            "build/out.py": "token\n",
            "debug.log": "token\n",
        },
    )
    result = await grep(tmp_path, pattern="token")
    assert paths(result.meta) == ["src/app.py"]


async def test_gitignore_is_respected_in_a_repository(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    write(tmp_path, {".gitignore": "gen/\n", "gen/x.py": "token\n", "y.py": "token\n"})
    assert paths((await grep(tmp_path, pattern="token")).meta) == ["y.py"]


async def test_hidden_files_and_directories_are_skipped(tmp_path: Path) -> None:
    write(tmp_path, {".env": "token\n", ".config/x.py": "token\n", "shown.py": "token\n"})
    assert paths((await grep(tmp_path, pattern="token")).meta) == ["shown.py"]


async def test_include_filters_by_one_glob(tmp_path: Path) -> None:
    write(
        tmp_path,
        {"a.py": "hit\n", "b.js": "hit\n", "c.jsx": "hit\n", "d.txt": "hit\n", "s/e.py": "hit\n"},
    )
    assert paths((await grep(tmp_path, pattern="hit", include="*.py")).meta) == ["a.py", "s/e.py"]
    braces = await grep(tmp_path, pattern="hit", include="*.{js,jsx}")
    assert paths(braces.meta) == ["b.js", "c.jsx"]


async def test_path_narrows_to_a_directory_or_one_file(tmp_path: Path) -> None:
    write(tmp_path, {"src/a.py": "hit\n", "lib/b.py": "hit\n"})
    assert paths((await grep(tmp_path, pattern="hit", path="src")).meta) == ["src/a.py"]
    assert paths((await grep(tmp_path, pattern="hit", path="lib/b.py")).meta) == ["lib/b.py"]
    missing = await grep(tmp_path, pattern="hit", path="nope")
    assert missing.is_error and missing.text() == "Path not found: nope"


async def test_a_pattern_that_looks_like_a_flag_is_a_pattern(tmp_path: Path) -> None:
    write(tmp_path, {"a.sh": "run --force now\n"})
    result = await grep(tmp_path, pattern="--force")
    assert paths(result.meta) == ["a.sh"]


async def test_at_most_250_matches_inline_and_the_exact_total(tmp_path: Path) -> None:
    write(tmp_path, {f"f{i:02}.txt": "hit\n" * 20 for i in range(30)})
    write(tmp_path, {"big.txt": "hit\n" * 400})
    result = await grep(tmp_path, pattern="hit")
    meta = result.meta
    assert isinstance(meta, dict)
    assert meta["total"] == 30 * 20 + 400
    # Every file with a match is counted, though only big.txt is listed.
    assert meta["totalFiles"] == 31
    assert meta["truncated"] is True
    shown = [(f["path"], m["lineNumber"]) for f in meta["files"] for m in f["matches"]]
    assert len(shown) == MAX_MATCHES
    # In path order: big.txt's first 250 lines come before every f*.txt.
    assert shown == [("big.txt", n) for n in range(1, 251)]
    assert result.text().endswith(
        "(Showing 250 of 1000 matches. Narrow the search with a more specific pattern, "
        "`path` or `include` to see the rest.)"
    )


async def test_the_cap_keeps_the_first_files_whatever_order_ripgrep_finds_them(
    tmp_path: Path,
) -> None:
    write(tmp_path, {f"d{i % 7}/f{i:03}.txt": "hit\nhit\nhit\n" for i in range(200)})
    meta = (await grep(tmp_path, pattern="hit")).meta
    assert isinstance(meta, dict) and meta["total"] == 600
    expected = sorted((f"d{i % 7}", f"f{i:03}.txt") for i in range(200))
    listed = [tuple(f["path"].split("/")) for f in meta["files"]]
    assert listed == expected[: len(listed)]
    assert sum(len(f["matches"]) for f in meta["files"]) == MAX_MATCHES


async def test_no_match_is_a_normal_result(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": "nothing\n"})
    result = await grep(tmp_path, pattern="absent")
    assert not result.is_error
    assert result.text() == "No matches for absent"
    assert result.meta == {"files": [], "truncated": False, "total": 0, "totalFiles": 0}


async def test_a_bad_regex_is_an_error_quoting_ripgrep(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": "x\n"})
    result = await grep(tmp_path, pattern="foo(")
    assert result.is_error
    assert result.text().startswith("ripgrep failed: rg: regex parse error:")
    assert "unclosed group" in result.text()
    assert result.meta is None


async def test_a_bad_include_glob_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": "x\n"})
    result = await grep(tmp_path, pattern="x", include="[")
    assert result.is_error and "error parsing glob" in result.text()


async def test_binary_files_are_skipped(tmp_path: Path) -> None:
    late_nul = b"hit early\n" + b"a" * 200_000 + b"\0\nhit late\n"
    write(tmp_path, {"blob.bin": b"hit\0hit\n", "late.dat": late_nul, "text.txt": "hit\n"})
    result = await grep(tmp_path, pattern="hit")
    assert paths(result.meta) == ["text.txt"]
    assert isinstance(result.meta, dict) and result.meta["total"] == 1
    named = await grep(tmp_path, pattern="hit", path="blob.bin")
    assert named.text() == "No matches for hit"


async def test_a_3000_character_line_is_cut_at_2000_bytes(tmp_path: Path) -> None:
    ascii_line = "hit" + "x" * 2997
    # Two-byte characters straddling byte 2000: the cut must not split one.
    wide_line = "hit" + "é" * 1500
    write(tmp_path, {"a.txt": ascii_line + "\n", "b.txt": wide_line + "\r\n"})
    meta = (await grep(tmp_path, pattern="hit")).meta
    assert isinstance(meta, dict)
    first = meta["files"][0]["matches"][0]["line"]
    second = meta["files"][1]["matches"][0]["line"]
    assert first == ascii_line[:2000] + TRUNCATION_SUFFIX
    assert second == wide_line[: 3 + 998] + TRUNCATION_SUFFIX
    assert len(second.removesuffix(TRUNCATION_SUFFIX).encode()) == 1999


async def test_invalid_utf8_is_shown_with_replacement_characters(tmp_path: Path) -> None:
    write(tmp_path, {"a.txt": b"hit \xff\xfe there\n"})
    meta = (await grep(tmp_path, pattern="hit")).meta
    assert isinstance(meta, dict)
    assert meta["files"][0]["matches"][0]["line"] == "hit \ufffd\ufffd there"


async def test_paths_ripgrep_escapes_or_cannot_spell_in_utf8_are_named_as_they_are(
    tmp_path: Path,
) -> None:
    # ripgrep's JSON escapes a quote, a backslash and a newline, and gives a path that is not
    # UTF-8 as base64; a plain name (accents too) is read straight from the line.
    names = ['quo"te.txt', "back\\slash.txt", "new\nline.txt", "é plain.txt", "plain.txt"]
    for name in names:
        (tmp_path / name).write_text("hit\n")
    (tmp_path / os.fsdecode(b"latin\xe9.txt")).write_text("hit\n")
    meta = (await grep(tmp_path, pattern="hit")).meta
    expected = [*names, os.fsdecode(b"latin\xe9.txt")]
    assert sorted(paths(meta)) == sorted(expected)


@pytest.mark.parametrize("mode", ["ask", "accept-edits", "auto"])
async def test_inside_the_workspace_it_never_asks(tmp_path: Path, mode: PolicyMode) -> None:
    write(tmp_path, {"a.py": "hit\n"})
    asker = Always("reject")
    result = await grep(tmp_path, context(tmp_path, policy(tmp_path, mode, asker)), pattern="hit")
    assert not result.is_error and asker.requests == []


@pytest.mark.parametrize(("mode", "asks"), [("ask", True), ("accept-edits", True), ("auto", False)])
async def test_outside_the_workspace_it_asks_as_a_read_does(
    tmp_path: Path, mode: PolicyMode, asks: bool
) -> None:
    ws, out = tmp_path / "ws", tmp_path / "out"
    write(out, {"secret.txt": "hit\n"})
    ws.mkdir()
    asker = Always("allow_once")
    result = await grep(ws, context(ws, policy(ws, mode, asker)), pattern="hit", path=str(out))
    assert not result.is_error
    assert paths(result.meta) == [str(out.resolve() / "secret.txt")]
    assert len(asker.requests) == (1 if asks else 0)
    if asks:
        access = asker.requests[0].subject
        assert (access.action, access.path, access.inside) == ("read", out.resolve(), False)
    rejected = await grep(
        ws, context(ws, policy(ws, mode, Always("reject"))), pattern="hit", path="../out"
    )
    assert rejected.is_error == asks
    headless = await grep(ws, context(ws, policy(ws, mode, None)), pattern="hit", path="../out")
    assert headless.is_error == asks
    if asks:
        assert "needs approval (it is outside the workspace)" in headless.text()


def test_call_card_titles() -> None:
    tool = GrepTool()
    assert tool.present_call(GrepArgs(pattern="a+b"), CardContext()) == GenericCallView(
        title="Grep a+b", kind="search", raw_input={"pattern": "a+b"}
    )
    full = tool.present_call(GrepArgs(pattern="x", path="src", include="*.py"), CardContext())
    assert isinstance(full, GenericCallView) and full.title == "Grep x in src (*.py)"


async def test_result_card_is_built_from_the_stored_meta(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": "x = 1\n"})
    args = GrepArgs(pattern="x")
    result = await grep(tmp_path, pattern="x")
    assert GrepTool().present_result(args, result, CardContext()) == SearchMatchesResultView(
        title="Grep x",
        files=(SearchFile(path="a.py", matches=(SearchMatch(line_number=1, line="x = 1"),)),),
        truncated=False,
        total=1,
        total_files=1,
    )
    failed = await grep(tmp_path, pattern="(")
    assert GrepTool().present_result(args, failed, CardContext()) is None


async def test_a_pattern_no_process_can_take_is_an_error(tmp_path: Path) -> None:
    for pattern in ("a\0b",):
        result = await grep(tmp_path, pattern=pattern)
        assert result.is_error and result.text().startswith("Cannot run ripgrep:")
