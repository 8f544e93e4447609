"""`ls` on real trees: a tree in path order, .gitignore and `ignore` respected, capped."""

from __future__ import annotations

from pathlib import Path

from tests.tools.search.support import context, write
from tether.tools import invoke
from tether.tools.card_context import CardContext
from tether.tools.search import LsArgs, LsTool
from tether.tools.search.ls import MAX_LISTED
from tether.views import SearchPathsResultView


async def test_a_tree_in_path_order_without_what_git_ignores(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            ".gitignore": "dist/\n",
            "src/pkg/b.py": "",
            "src/pkg/a.py": "",
            "src/main.py": "",
            "README.md": "",
            "dist/out.js": "",
            "logs/x.log": "",
        },
    )
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git/HEAD").write_text("ref\n")
    tool = LsTool()
    args = LsArgs(ignore=["*.log"])
    result = await invoke(tool, args, context(tmp_path))
    assert result.text() == "\n".join(
        [
            f"- {tmp_path}/",
            "  - .gitignore",
            "  - README.md",
            "  - src/",
            "    - main.py",
            "    - pkg/",
            "      - a.py",
            "      - b.py",
        ]
    )
    assert tool.present_result(args, result, CardContext()) == SearchPathsResultView(
        title="List . (ignoring *.log)",
        paths=(".gitignore", "README.md", "src/main.py", "src/pkg/a.py", "src/pkg/b.py"),
        truncated=False,
        total=5,
    )


async def test_a_long_listing_keeps_the_first_paths_and_counts_the_rest(tmp_path: Path) -> None:
    write(tmp_path, {f"d/f{n:04d}": "" for n in range(MAX_LISTED + 20)})
    result = await invoke(LsTool(), LsArgs(path="d"), context(tmp_path))
    lines = result.text().splitlines()
    assert lines[1] == "  - f0000"
    assert lines[MAX_LISTED] == f"  - f{MAX_LISTED - 1:04d}"
    assert lines[-1] == (
        f"(Showing the first {MAX_LISTED} of {MAX_LISTED + 20} files. List a subdirectory, "
        "or use glob or grep, to see the rest.)"
    )
