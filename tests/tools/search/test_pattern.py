"""glob's patterns, matched in Python, against ripgrep's own `--glob` on one real tree."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.tools.search.support import write
from tether.errors import GlobError
from tether.tools.search.pattern import PathPattern
from tether.tools.search.rg import rg_binary

NAMES = [
    "a.py", "b.txt", ".hidden.py", "src/app.py", "src/x/y/z.py", "src/x/y/z.ts", "src/b.tsx",
    "lib/src/c.py", "test_x.py", "tests/test_y.py", "tests/unit/test_z.py", "we ird/sp ace.md",
    "br[a]ck.txt", "star*.txt", "q?.md", "docs/readme.MD", "docs/a.b.c.json", "Makefile",
    ".github/wf/ci.yml", "pkg.d/file.txt", "x.d", "conf.toml", "conf.json", "src/{x}.py",
    "abc/abc", "abc/def/abc",
]  # fmt: skip
PATTERNS = [
    "*.py", "**/*.py", "src/**/*.py", "src/**", "**/test_*.py", "*.{json,toml}", "*.{ts,tsx}",
    "src/*.py", "/a.py", "a.py", "src", "src/", "**", "*", "[ab].py", "[!a].py", "[^a].py",
    "test_?.py", "docs/*.MD", "*.d", "x/y/*.ts", "src/x/**/z.py", "**/y/**", "abc",
    "abc/**/abc", "br\\[a\\]ck.txt", "star\\*.txt", "q\\?.md", "we ird/*", "*.b.*", "!*.py",
    "src/**/*.{py,ts}", "a**.py", "**.py", "src/{x}.py", "src/\\{x\\}.py", "**/wf/*",
    ".github/**", "*/app.py", "[a-c].py", "[]a].py", "**/*.MD", "lib/**/src/*.py",
]  # fmt: skip


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Files with every kind of name the patterns aim at."""
    root = tmp_path_factory.mktemp("names")
    write(root, dict.fromkeys(NAMES, ""))
    return root


def rg_files(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """ripgrep's own listing, ignore files aside."""
    command = [str(rg_binary()), "--files", "--no-config", "--no-ignore", "--hidden", *args]
    return subprocess.run(command, cwd=tree, capture_output=True, text=True, check=False)


def test_every_pattern_matches_what_ripgrep_matches(tree: Path) -> None:
    every = rg_files(tree).stdout.splitlines()
    assert len(every) == len(NAMES)
    for pattern in PATTERNS:
        expected = sorted(rg_files(tree, "--glob", pattern).stdout.splitlines())
        compiled = PathPattern.compile(pattern)
        assert sorted(p for p in every if compiled.matches(p)) == expected, pattern


@pytest.mark.parametrize(
    ("pattern", "error"),
    [
        ("[", "unclosed character class; missing ']'"),
        ("a[b", "unclosed character class; missing ']'"),
        ("a{b", "unclosed alternate group; missing '}'"),
        ("{a,{b,c}}", "nested alternate groups are not allowed"),
    ],
)
def test_what_ripgrep_refuses_is_refused_with_its_words(
    tree: Path, pattern: str, error: str
) -> None:
    assert error in rg_files(tree, "--glob", pattern).stderr
    with pytest.raises(GlobError, match=f"^{re.escape(error)}$"):
        PathPattern.compile(pattern)
