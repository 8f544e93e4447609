"""`tether --version`: the release is the package's, and a checkout's HEAD is read from git's
files exactly as `git rev-parse` gives it, in real repositories of each layout."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

import tether
from tests.conftest import REPO
from tests.gitrepo import git
from tether.version import read_head


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with two commits on `main` and a package folder two levels down."""
    top = tmp_path / "repo"
    (top / "src" / "pkg").mkdir(parents=True)
    git("init", "-q", "-b", "main", cwd=top)
    for text in ("one", "two"):
        (top / "src" / "pkg" / "a.py").write_text(text)
        git("add", "-A", cwd=top)
        git("commit", "-q", "-m", text, cwd=top)
    return top


def _head(folder: Path) -> str:
    return git("rev-parse", "--short=12", "HEAD", cwd=folder).strip()


def test_a_branch_in_a_loose_file_and_in_packed_refs(repo: Path) -> None:
    package = repo / "src" / "pkg"
    assert read_head(str(package)) == _head(package)
    git("pack-refs", "--all", cwd=repo)
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    assert read_head(str(package)) == _head(package)


def test_a_detached_head(repo: Path) -> None:
    git("checkout", "-q", "--detach", "HEAD~1", cwd=repo)
    assert read_head(str(repo / "src")) == _head(repo)


def test_a_linked_worktree_reads_its_own_head_and_the_shared_branches(
    repo: Path, tmp_path: Path
) -> None:
    linked = tmp_path / "linked"
    git("worktree", "add", "-q", "-b", "side", str(linked), "HEAD~1", cwd=repo)
    assert read_head(str(linked / "src" / "pkg")) == _head(linked)
    assert read_head(str(linked)) != read_head(str(repo))
    git("pack-refs", "--all", cwd=repo)
    assert read_head(str(linked / "src")) == _head(linked)


@pytest.mark.parametrize(
    "head",
    [
        "ref: refs/heads/none-such\n",  # an unborn branch: git has no answer either
        "ref: refs/remotes/origin/main\n",  # not a branch: left to git
        "ref: refs/heads/../../HEAD\n",
        "ref: refs/heads/.invalid\n",  # what a reftable repository's HEAD says
        "0123\n",
        "",
    ],
)
def test_anything_but_a_plain_head_is_left_togit(repo: Path, head: str) -> None:
    (repo / ".git" / "HEAD").write_text(head)
    assert read_head(str(repo)) is None


def test_no_repository_or_a_git_file_naming_nothing(tmp_path: Path) -> None:
    if not any((p / ".git").exists() for p in (tmp_path, *tmp_path.parents)):
        assert read_head(str(tmp_path)) is None
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / ".git").write_text("not a gitdir line\n")
    assert read_head(str(folder)) is None


@pytest.mark.skipif(os.getuid() != 0, reason="handing a folder to another user needs root")
def test_a_git_directory_owned_by_someone_else_is_left_togit(repo: Path) -> None:
    os.chown(repo / ".git", 65534, 65534)
    assert read_head(str(repo)) is None


def test_the_release_is_the_installed_metadatas() -> None:
    # pyproject.toml takes the version from the package, so the two cannot differ.
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "tether.__version__"}
    assert tether.__version__ == version(tether.DISTRIBUTION)


def test_no_commit_when_git_is_turned_off(tmp_path: Path) -> None:
    env = {**os.environ, "TETHER_GIT": "off"}
    done = subprocess.run(
        [sys.executable, "-m", "tether", "--version"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    assert done.stdout == f"tether {tether.__version__}\n"
