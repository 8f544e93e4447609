"""Disarming a git directory a sandboxed command made, on real repositories (no sandbox)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.gitrepo import git
from tether.sandbox.gitdefuse import defuse
from tether.sandbox.gitdefuse_keys import kept_key

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is needed")


def test_only_keys_known_to_run_nothing_are_kept() -> None:
    for key, value in [
        ("core.fsmonitor", "x"),
        ("core.hooksPath", "h"),
        ("diff.Weird.Sub.textconv", "cat"),
        ("filter.lfs.process", "x"),
        ("includeIf.gitdir:/x/.path", "p"),
        ("alias.x", "  !rm -rf /"),
        ("alias.st", "status"),
        ("pager.log", "less"),
        ("submodule.a.update", "!sh"),
        ("credential.https://h.helper", "store"),
        ("gpg.ssh.defaultKeyCommand", "touch x"),
        ("protocol.ext.allow", "always"),
        ("url.ext::sh -c x.insteadOf", "https://h/"),
        ("remote.o.url", "ext::sh -c touch% x"),
        ("remote.o.url", "fd::7"),
        ("remote.o.url", "EXT::sh"),
        ("remote.o.url", "evil::addr"),
        ("remote.o.url", "evil://host/x"),
        ("remote.o.pushurl", "-oProxyCommand=x"),
        ("remote.o.url", "https://h/x\nmore"),
        ("remote.o.uploadpack", "touch x"),
        ("branch.main.remote", "ext::sh -c x"),
        ("submodule.s.url", "ext::sh"),
        ("extensions.partialclone", "ext::sh"),
        ("core.sshCommand", "ssh"),
        ("commit.gpgsign", "true"),
        ("diff.algorithm", "histogram"),
        ("user", "x"),
    ]:
        assert not kept_key(key, value), (key, value)
    for key, value in [
        ("core.bare", "false"),
        ("core.repositoryformatversion", "1"),
        ("core.worktree", "../../../sub"),
        ("init.defaultBranch", "main"),
        ("extensions.objectFormat", "sha256"),
        ("user.name", "A"),
        ("user.email", "a@example.com"),
        ("branch.main.merge", "refs/heads/main"),
        ("branch.main.remote", "origin"),
        ("branch.main.remote", "."),
        ("remote.origin.url", "https://example.com/r.git"),
        ("remote.origin.url", "SSH://git@example.com/r"),
        ("remote.origin.url", "git@example.com:r.git"),
        ("remote.origin.url", "../other"),
        ("remote.origin.url", "file:///srv/r"),
        ("remote.origin.pushurl", "git+ssh://h/r"),
        ("remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"),
        ("remote.Weird.Name.url", "https://h/r"),
        ("submodule.lib.url", "./lib"),
        ("submodule.lib.active", "true"),
    ]:
        assert kept_key(key, value), (key, value)


def test_a_submodule_git_file_leads_to_its_git_directory_and_links_are_set_aside(
    tmp_path: Path,
) -> None:
    ws, outside = tmp_path.resolve() / "ws", tmp_path / "outside"
    ws.mkdir()
    outside.mkdir()
    git("init", "-q", cwd=ws)
    (outside / "config").write_text("[core]\n\tfsmonitor = keep-me\n")
    modules = ws / ".git" / "modules" / "lib"
    modules.mkdir(parents=True)
    git("init", "-q", "--bare", cwd=modules)
    git("config", "core.pager", "evil", cwd=modules)
    git("config", "include.path", str(outside / "config"), cwd=modules)
    (modules / "hooks" / "post-checkout").write_text("#!/bin/sh\n")
    (ws / "lib").mkdir()
    (ws / "lib" / ".git").write_text("gitdir: ../.git/modules/lib\n")
    # A config that is a link: git would edit the file outside; it is set aside instead.
    (ws / "other").mkdir()
    git("init", "-q", cwd=ws / "other")
    (ws / "other" / ".git" / "config").unlink()
    (ws / "other" / ".git" / "config").symlink_to(outside / "config")
    # The person's hooks of the top repository were protected: they are left alone.
    mine = ws / ".git" / "hooks" / "pre-commit"
    mine.write_text("#!/bin/sh\n")
    mine.chmod(0o755)
    done = defuse(
        [ws / "lib" / ".git", ws / "other" / ".git"],
        [ws],
        {ws / ".git" / "hooks", ws / ".git" / "config"},
    )
    described = [d.describe() for d in done]
    assert described == [
        f"{modules}/hooks/post-checkout (renamed to post-checkout.disabled)",
        f"core.pager in {modules}/config",
        f"include.path in {modules}/config",
        f"{ws}/other/.git/config (renamed to config.disabled)",
    ]
    assert (outside / "config").read_text() == "[core]\n\tfsmonitor = keep-me\n"
    assert (ws / "other" / ".git" / "config.disabled").is_symlink()
    assert mine.stat().st_mode & 0o777 == 0o755
    assert git("rev-parse", "--is-bare-repository", cwd=modules) == "true\n"


def test_a_work_tree_outside_every_root_is_removed_one_inside_kept(tmp_path: Path) -> None:
    ws, home = tmp_path.resolve() / "ws", tmp_path.resolve() / "home"
    ws.mkdir()
    home.mkdir()
    (ws / "to-home").symlink_to(home)
    trees = {"near": "../../near", "far": str(home), "linked": "../../to-home"}
    for name, tree in trees.items():
        git_dir = ws / name / ".git"
        git_dir.parent.mkdir()
        git("init", "-q", cwd=git_dir.parent)
        git("config", "core.worktree", tree, cwd=git_dir.parent)
    done = defuse([ws / name / ".git" for name in trees], [ws], set())
    assert [(d.path, d.detail) for d in done] == [
        (f"{ws}/far/.git/config", "core.worktree"),
        (f"{ws}/linked/.git/config", "core.worktree"),
    ]
    assert git("config", "core.worktree", cwd=ws / "near") == "../../near\n"
