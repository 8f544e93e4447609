"""grep and glob search what was checked: a path swapped for a symlink after the check is
refused, never followed; glob lists nothing inside a version-control store, whatever `path`.

The swap happens while the policy is asked, the window between the check and the search, so
each race is run deterministically rather than hoped for.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tools.search.support import context, glob, grep, write
from tether.tools import Access
from tether.tools.access import HookVerdict


class Swapper:
    """A gate that allows, and meanwhile replaces `path` with a symlink to `target`."""

    def __init__(self, path: Path, target: Path) -> None:
        self.path = path
        self.target = target

    async def authorize(self, access: Access, hook: HookVerdict | None = None) -> None:
        """Swap, then allow."""
        self.path.rename(self.path.with_name(self.path.name + ".old"))
        self.path.symlink_to(self.target)

    def hidden(self, root: Path, tool: str) -> tuple[str, ...]:
        """Nothing hidden."""
        return ()


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """Beside the workspace: a secret no search of the workspace may show."""
    write(tmp_path / "outside", {"secret.txt": "SECRET outside\n", "deep/key.txt": "SECRET\n"})
    return tmp_path / "outside"


@pytest.mark.parametrize("tool", ["grep", "glob"])
async def test_a_directory_swapped_for_a_symlink_after_the_check_is_refused(
    ws: Path, outside: Path, tool: str
) -> None:
    write(ws, {"src/a.txt": "SECRET inside\n"})
    ctx = context(ws, Swapper(ws / "src", outside))
    if tool == "grep":
        result = await grep(ws, ctx, pattern="SECRET", path="src")
    else:
        result = await glob(ws, ctx, pattern="*.txt", path="src")
    assert result.is_error
    assert result.text() == (
        f"{ws / 'src'} changed while it was being opened (src is now a symbolic link); try again"
    )


async def test_a_file_swapped_for_a_symlink_after_the_check_is_refused(
    ws: Path, outside: Path
) -> None:
    write(ws, {"a.txt": "SECRET inside\n"})
    ctx = context(ws, Swapper(ws / "a.txt", outside / "secret.txt"))
    result = await grep(ws, ctx, pattern="SECRET", path="a.txt")
    assert result.is_error
    assert "outside" not in result.text()
    assert "a.txt is now a symbolic link" in result.text()


async def test_a_single_file_is_shown_by_its_name(ws: Path) -> None:
    write(ws, {"src/a.txt": "one\nneedle\n"})
    result = await grep(ws, pattern="needle", path="src/a.txt")
    assert result.text().startswith("src/a.txt\n  2: needle"), result.text()
    listed = await grep(ws, pattern="needle", path="src/a.txt", output_mode="files_with_matches")
    assert listed.text().startswith("src/a.txt"), listed.text()


@pytest.mark.parametrize(
    ("path", "store"),
    [(".git", ".git"), (".git/hooks", ".git"), ("sub/.hg", ".hg"), ("sub/.git/refs", ".git")],
)
async def test_glob_never_lists_inside_a_version_control_store(
    ws: Path, path: str, store: str
) -> None:
    write(
        ws,
        {
            ".git/config": "[core]\n",
            ".git/hooks/pre-commit": "#!/bin/sh\n",
            "sub/.hg/hgrc": "[ui]\n",
            "sub/.git/refs/heads/main": "0\n",
            "sub/code.py": "x = 1\n",
        },
    )
    result = await glob(ws, pattern="*", path=path)
    assert result.is_error
    assert result.text() == f"{ws / path} is inside {store}, which is never listed"
    everything = await glob(ws, pattern="*")
    assert everything.text() == "sub/code.py"
