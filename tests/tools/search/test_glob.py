"""`glob` on real trees: files only, newest first, .gitignore respected unless asked, VCS stores
out, capped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.gitrepo import git
from tests.policy.support import Always
from tests.tools.search.support import context, glob, policy, write
from tether.policy.modes import PolicyMode
from tether.tools.card_context import CardContext
from tether.tools.search import GlobArgs, GlobTool
from tether.tools.search.glob import MAX_PATHS
from tether.views import GenericCallView, SearchPathsResultView


def age(root: Path, ages: dict[str, int]) -> None:
    """Set each file's modification time to `seconds` before a fixed moment."""
    for name, seconds in ages.items():
        stamp = 1_700_000_000 - seconds
        os.utime(root / name, (stamp, stamp))


def listed(meta: object) -> list[str]:
    assert isinstance(meta, dict)
    return list(meta["paths"])


async def test_newest_first_then_by_path(tmp_path: Path) -> None:
    write(tmp_path, {"old.py": "", "new.py": "", "mid/a.py": "", "mid/b.py": "", "c.txt": ""})
    age(tmp_path, {"old.py": 300, "new.py": 10, "mid/a.py": 100, "mid/b.py": 100, "c.txt": 0})
    result = await glob(tmp_path, pattern="*.py")
    assert result.text() == "new.py\nmid/a.py\nmid/b.py\nold.py"
    assert result.meta == {
        "paths": ["new.py", "mid/a.py", "mid/b.py", "old.py"],
        "truncated": False,
        "total": 4,
    }


async def test_hidden_files_are_listed_ignored_ones_when_asked_never_vcs_stores(
    tmp_path: Path,
) -> None:
    files = {
        ".gitignore": "build/\n*.log\n",
        "build/gen.py": "",
        "src/.gitignore": "cache.py\n",
        "src/cache.py": "",
        "debug.log": "",
        ".github/ci.py": "",
        "src/app.py": "",
        **{f"{vcs}/hooks/x.py": "" for vcs in (".git", ".hg", ".svn", ".jj")},
        "sub/.git/y.py": "",
    }
    write(tmp_path, files)
    # No repository needed: .gitignore files apply as they would in one.
    result = await glob(tmp_path, pattern="**/*.py")
    assert sorted(listed(result.meta)) == [".github/ci.py", "src/app.py"]
    assert listed((await glob(tmp_path, pattern="*.log")).meta) == []
    everything = await glob(tmp_path, pattern="**/*.py", include_ignored=True)
    assert sorted(listed(everything.meta)) == [
        ".github/ci.py",
        "build/gen.py",
        "src/app.py",
        "src/cache.py",
    ]
    assert listed((await glob(tmp_path, pattern="*.log", include_ignored=True)).meta) == [
        "debug.log"
    ]
    assert listed((await glob(tmp_path, pattern=".git/**", include_ignored=True)).meta) == []


async def test_a_repository_ignores_what_git_ignores(tmp_path: Path) -> None:
    write(tmp_path, {"keep.py": "", "dist/out.py": "", "secret.py": ""})
    git("init", "-q", cwd=tmp_path)
    (tmp_path / ".git" / "info" / "exclude").write_text("secret.py\n")
    (tmp_path / ".gitignore").write_text("dist/\n")
    assert listed((await glob(tmp_path, pattern="*.py")).meta) == ["keep.py"]


async def test_directories_are_never_listed(tmp_path: Path) -> None:
    write(tmp_path, {"pkg.d/file.txt": "", "x.d": ""})
    assert listed((await glob(tmp_path, pattern="*.d")).meta) == ["x.d"]


async def test_a_pattern_with_a_slash_starts_at_the_path(tmp_path: Path) -> None:
    write(tmp_path, {"src/a/x.ts": "", "src/b.ts": "", "lib/c.ts": ""})
    assert sorted(listed((await glob(tmp_path, pattern="src/**/*.ts")).meta)) == [
        "src/a/x.ts",
        "src/b.ts",
    ]
    assert listed((await glob(tmp_path, pattern="a/*.ts", path="src")).meta) == ["src/a/x.ts"]


async def test_at_most_100_paths_and_the_exact_total(tmp_path: Path) -> None:
    write(tmp_path, {f"f{i:03}.txt": "" for i in range(150)})
    age(tmp_path, {f"f{i:03}.txt": 1000 - i for i in range(150)})
    result = await glob(tmp_path, pattern="*.txt")
    meta = result.meta
    assert isinstance(meta, dict)
    assert (meta["total"], meta["truncated"], len(meta["paths"])) == (150, True, MAX_PATHS)
    assert meta["paths"] == [f"f{i:03}.txt" for i in range(149, 49, -1)]
    assert result.text().endswith(
        "(Showing the 100 most recently modified of 150 files. "
        "Use a more specific pattern or `path` to see the rest.)"
    )


async def test_names_with_newlines_survive(tmp_path: Path) -> None:
    write(tmp_path, {"odd\nname.txt": ""})
    assert listed((await glob(tmp_path, pattern="*.txt")).meta) == ["odd\nname.txt"]


async def test_no_match_and_errors(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": ""})
    none = await glob(tmp_path, pattern="*.rs")
    assert not none.is_error and none.text() == "No files matching *.rs"
    assert none.meta == {"paths": [], "truncated": False, "total": 0}
    bad = await glob(tmp_path, pattern="[")
    assert bad.is_error and bad.text() == "Invalid glob [: unclosed character class; missing ']'"
    file = await glob(tmp_path, pattern="*", path="a.py")
    assert file.is_error and file.text() == "Not a directory: a.py"
    missing = await glob(tmp_path, pattern="*", path="gone")
    assert missing.is_error and missing.text() == "Path not found: gone"


@pytest.mark.parametrize(("mode", "asks"), [("ask", True), ("accept-edits", True), ("auto", False)])
async def test_outside_asks_inside_never(tmp_path: Path, mode: PolicyMode, asks: bool) -> None:
    ws, out = tmp_path / "ws", tmp_path / "out"
    write(ws, {"in.py": ""})
    write(out, {"o.py": ""})
    asker = Always("allow_once")
    inside = await glob(ws, context(ws, policy(ws, mode, asker)), pattern="*.py")
    assert listed(inside.meta) == ["in.py"] and asker.requests == []
    outside = await glob(ws, context(ws, policy(ws, mode, asker)), pattern="*.py", path="../out")
    assert listed(outside.meta) == [str(out.resolve() / "o.py")]
    assert len(asker.requests) == (1 if asks else 0)
    headless = await glob(ws, context(ws, policy(ws, mode, None)), pattern="*.py", path=str(out))
    assert headless.is_error == asks


async def test_cards(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": ""})
    tool, args = GlobTool(), GlobArgs(pattern="*.py", path=".")
    assert tool.present_call(args, CardContext()) == GenericCallView(
        title="Glob *.py in .", kind="search", raw_input={"pattern": "*.py", "path": "."}
    )
    result = await glob(tmp_path, pattern="*.py", path=".")
    assert tool.present_result(args, result, CardContext()) == SearchPathsResultView(
        title="Glob *.py in .", paths=("a.py",), truncated=False, total=1
    )
    assert tool.present_result(args, await glob(tmp_path, pattern="["), CardContext()) is None
