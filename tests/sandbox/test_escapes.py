"""Attacks on the sandbox, as root and as an ordinary user: each one must fail.

Root in the sandbox (containers, CI) must not get its capabilities back (mount, chroot, raw
sockets, a remount that makes writes outside possible); no sandboxed command may reach a host
service through a Unix socket. As root the tests run tether's own bwrap; as `nobody` they run
the same options through a copy of bwrap started with `setpriv`, so both users are covered by
one run as root (CI's case). Paths that must be visible inside the sandbox live under
`/var/tmp`: the sandbox's `/tmp` is a private one, which would hide them and prove nothing.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

import pytest

from tests.sandbox.users import NOBODY, python_for, workspace_for
from tether.sandbox.bwrap import find_bwrap
from tether.sandbox.policy import SandboxPolicy
from tether.tools import ToolContext, ToolResult, Workspace, invoke
from tether.tools.bash import BashArgs, BashTool
from tether.tools.bash.value import DISABLED_NOTE
from tether.tools.card_context import CardContext
from tether.views import TerminalResultView

pytestmark = pytest.mark.skipif(not find_bwrap().works, reason="bubblewrap cannot start here")

SANDBOXED = BashTool()


async def _run(ws: Path, command: str) -> ToolResult:
    return await invoke(SANDBOXED, BashArgs(command=command), ToolContext(Workspace.at(ws)))


async def test_capabilities_are_gone_and_nothing_outside_can_be_written(
    outside: Path, user: str
) -> None:
    ws = workspace_for(outside, user)
    target = outside / "written-from-the-sandbox"
    python = python_for(user)
    raw = f"{python} -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_RAW, 1)'"
    result = await _run(
        ws,
        f"grep CapEff /proc/self/status; mount -o remount,rw,bind / && echo x > {target};"
        f" echo mount=$?; mkdir -p m && mount -t tmpfs none m; echo tmpfs=$?;"
        f" chroot / true; echo chroot=$?; {raw} 2>/dev/null; echo raw=$?;"
        f" echo x > {target}; echo write=$?; unshare -U true; echo userns=$?",
    )
    text = result.text()
    assert "CapEff:\t0000000000000000\n" in text, text
    for attempt in ("mount", "tmpfs", "chroot", "raw", "write"):
        assert f"\n{attempt}=0\n" not in text, text
        assert f"\n{attempt}=" in text, text
    assert f"{target}: Read-only file system" in text
    assert not target.exists()
    if find_bwrap().userns:
        # Inside, no new user namespace (whose root would have capabilities over it).
        assert "\nuserns=0\n" not in text, text


async def test_a_host_unix_socket_outside_the_workspace_cannot_be_reached(
    outside: Path, user: str
) -> None:
    ws = workspace_for(outside, user)
    path = outside / "service.sock"
    connected = asyncio.Event()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connected.set()
        writer.write(b"hello from the host\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_unix_server(serve, path=str(path))
    path.chmod(0o777)  # anyone may connect: only the sandbox stands in the way
    python = python_for(user)
    probe = (
        "import socket\n"
        "pair = socket.socketpair(); pair[0].send(b'p'); print('pair', pair[1].recv(1))\n"
        "s = socket.socket(socket.AF_UNIX)\n"
        f"s.connect({str(path)!r}); print(s.recv(100))\n"
    )
    (ws / "probe.py").write_text(probe)
    try:
        result = await _run(ws, f"{python} probe.py")
    finally:
        server.close()
        await server.wait_closed()
    text = result.text()
    assert "pair b'p'" in text, text  # a socket pair is no way out, and programs need them
    assert "PermissionError: [Errno 1] Operation not permitted" in text, text
    assert "hello from the host" not in text
    assert not connected.is_set()


def _own(path: Path, user: str) -> None:
    """Give `path` and all under it to the sandbox's user, so only the sandbox can stop it."""
    if user != "nobody":
        return
    for entry in [path, *path.rglob("*")]:
        os.chown(entry, 65534, 65534, follow_symlinks=False)


async def test_secrets_are_neither_in_the_environment_nor_readable(
    outside: Path, user: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = workspace_for(outside, user)
    home = Path(os.environ["HOME"]) if user == "nobody" else outside / "home"
    monkeypatch.setenv("HOME", str(home))
    data = outside / "tether-home"
    monkeypatch.setenv("TETHER_HOME", str(data))
    stores = {
        ".ssh/id_ed25519": "ssh-private-key",
        ".aws/credentials": "aws-s3cr3t",
        ".config/gcloud/credentials.db": "gcloud-s3cr3t",
        ".docker/config.json": "docker-s3cr3t",
        ".netrc": "netrc-s3cr3t",
    }
    for name, secret in stores.items():
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text(secret)
    (data / "sessions").mkdir(parents=True)
    (data / "sessions" / "old.jsonl").write_text("session-s3cr3t")
    (data / "web-token").write_text("web-s3cr3t")
    _own(home, user)
    _own(data, user)
    variables = {
        "OPENAI_API_KEY": "sk-variable-s3cr3t",
        "GITHUB_TOKEN": "gh-variable-s3cr3t",
        "MY_CLIENT_SECRET": "client-variable-s3cr3t",
        "PGPASSWORD": "pg-variable-s3cr3t",
        "ANTHROPIC_BASE_URL": "https://user:url-variable-s3cr3t@example.com",
        "KEPT_TOKEN": "kept-by-the-settings",
        "PLAIN_SETTING": "plain-value",
    }
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    tool = BashTool(sandbox=SandboxPolicy(env=("KEPT_TOKEN",)))
    files = " ".join(f"~/{name}" for name in stores)
    command = f"env; cat {files} $TETHER_HOME/web-token $TETHER_HOME/sessions/*; ls -A ~/.ssh"
    result = await invoke(tool, BashArgs(command=command), ToolContext(Workspace.at(ws)))
    text = result.text()
    assert "s3cr3t" not in text, text
    assert "PLAIN_SETTING=plain-value" in text
    assert "KEPT_TOKEN=kept-by-the-settings" in text
    assert "TETHER_HOME=" in text  # the name is no secret; what it names is hidden


async def test_what_runs_outside_later_is_read_only_inside(tmp_path: Path) -> None:
    ws, other = tmp_path / "ws", tmp_path / "other"
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    protected = {
        ".mcp.json": '{"mcpServers": {}}',
        ".tether/settings.json": "{}",
        ".claude/settings.json": "{}",
        ".vscode/tasks.json": "{}",
    }
    for name, text in protected.items():
        (ws / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / name).write_text(text)
    # A linked worktree: its `.git` is a file naming a git directory (here in the other root).
    (other / "gitdir" / "hooks").mkdir(parents=True)
    (other / "gitdir" / "config").write_text("[core]\n")
    (other / ".git").write_text("gitdir: gitdir\n")
    # A submodule's git directory (nested), a linked worktree's, a worktree config.
    for module in ("modules/lib", "modules/lib/modules/deep"):
        (ws / ".git" / module / "hooks").mkdir(parents=True)
        (ws / ".git" / module / "config").write_text("[core]\n")
        (ws / ".git" / module / "HEAD").write_text("ref: refs/heads/main\n")
    (ws / ".git" / "worktrees" / "wt").mkdir(parents=True)
    for name in ("commondir", "gitdir", "config.worktree"):
        (ws / ".git" / "worktrees" / "wt" / name).write_text("x\n")
    (ws / ".git" / "config.worktree").write_text("[core]\n")
    # Submodules: one whose `.git` names its directory under `.git/modules`, one with its own.
    (ws / ".gitmodules").write_text(
        '[submodule "lib"]\n\tpath = lib\n[submodule "old"]\n  Path = "old" \n'
        '[submodule "out"]\n\tpath = ../other\n'
    )
    (ws / "lib").mkdir()
    (ws / "lib" / ".git").write_text("gitdir: ../.git/modules/lib\n")
    (ws / "old" / ".git" / "hooks").mkdir(parents=True)
    (ws / "old" / ".git" / "config").write_text("[core]\n")
    writes = [
        *protected,
        ".tether/new.md",
        ".git/hooks/pre-commit",
        ".git/config",
        ".git/config.worktree",
        ".git/modules/lib/config",
        ".git/modules/lib/hooks/post-checkout",
        ".git/modules/lib/modules/deep/config",
        ".git/worktrees/wt/commondir",
        ".git/worktrees/wt/config.worktree",
        "lib/.git",
        "old/.git/config",
        "old/.git/hooks/pre-commit",
        f"{other}/.git",
        f"{other}/gitdir/hooks/post-checkout",
        f"{other}/gitdir/config",
    ]
    command = "; ".join(f"echo planted >> {name}" for name in writes) + "; echo ok > fine.txt"
    ctx = ToolContext(Workspace.at(ws, other))
    result = await invoke(SANDBOXED, BashArgs(command=command), ctx)
    text = result.text()
    for name in writes:
        assert f"{name}: Read-only file system" in text, text
    assert (ws / "fine.txt").read_text() == "ok\n"
    planted = [p for p in [*ws.rglob("*"), *other.rglob("*")] if p.is_file()]
    assert not [p for p in planted if "planted" in p.read_text(errors="replace")]
    # Nor can they be moved aside and replaced.
    moved = await invoke(SANDBOXED, BashArgs(command="mv .tether t2 || mv .git/hooks h2"), ctx)
    assert "Device or resource busy" in moved.text(), moved.text()
    assert (ws / ".tether" / "settings.json").exists()
    # Nor can a git directory be moved aside, and a new one with the command's config put
    # in its place (git would run its core.fsmonitor when the person next ran git status).
    aside = (
        "mv .git g2; mv .git/modules/lib m2; mv .git/modules m3; mv ../other/gitdir g3;"
        " mv old/.git o2; mv old o3"
    )
    moved = await invoke(SANDBOXED, BashArgs(command=aside), ctx)
    for name in (".git", "old"):
        assert f"cannot move '{name}'" in moved.text(), moved.text()
    assert (ws / "old" / ".git" / "config").read_text() == "[core]\n"
    for kept in (ws / ".git/modules/lib", ws / ".git/modules/lib/modules/deep", other / "gitdir"):
        assert (kept / "config").read_text() == "[core]\n"  # copied at most, never moved
    assert (ws / ".git" / "HEAD").exists() and not (ws / "g2").exists()


async def test_protected_entries_that_are_links_are_watched_not_mounted(outside: Path) -> None:
    ws, elsewhere = outside / "ws", outside / "elsewhere"
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    (elsewhere / "lib").mkdir(parents=True)
    (elsewhere / "lib" / "HEAD").write_text("ref: refs/heads/main\n")
    (elsewhere / "lib" / "config").write_text("[core]\n")
    (ws / "claude-files").mkdir()
    # Links a mount cannot stand on: out of the workspace, and the submodules' directory.
    (ws / ".claude").symlink_to(elsewhere)
    (ws / ".tether").symlink_to("claude-files")
    (ws / ".git" / "modules").symlink_to(elsewhere)
    (ws / ".vscode").symlink_to(".")  # the workspace itself: it stays writable
    ran = await _run(ws, "echo ok > fine.txt && cat .git/modules/lib/HEAD")
    assert ran.text().startswith("ref: refs/heads/main\n"), ran.text()
    assert (ws / "fine.txt").read_text() == "ok\n"
    assert "createdProtected" not in (ran.meta or {})
    # A link the command replaces is named: what it put there was not protected.
    # Where a link inside the workspace points is read-only like the entry itself.
    (ws / "modules" / "lib").mkdir(parents=True)
    (ws / "modules" / "lib" / "HEAD").write_text("ref: refs/heads/main\n")
    (ws / "modules" / "lib" / "config").write_text("[core]\n")
    (ws / ".git" / "modules").unlink()
    (ws / ".git" / "modules").symlink_to("../modules")
    replaced = await _run(
        ws,
        "rm .claude && mkdir .claude && echo '{}' > .claude/settings.json;"
        " touch .tether/x; echo y >> .git/modules/lib/config; echo z > modules/lib/other",
    )
    text = replaced.text()
    assert ".tether/x': Read-only file system" in text, text
    assert ".git/modules/lib/config: Read-only file system" in text, text
    assert (replaced.meta or {}).get("createdProtected") == [str(ws / ".claude")], text
    assert (ws / "modules" / "lib" / "other").read_text() == "z\n"  # only what git runs


_WHO = "-c user.name=t -c user.email=t@example.com"


def _git_outside(ws: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The person's git in the workspace, after the command (a `nobody` workspace is safe)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return subprocess.run(
        ["git", "-c", "safe.directory=*", *_WHO.split(), *args],
        cwd=ws,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def _card_notes(result: ToolResult, command: str) -> str:
    view = SANDBOXED.present_result(BashArgs(command=command), result, CardContext())
    assert isinstance(view, TerminalResultView)
    return "\n".join(view.notes or ())


async def test_hooks_and_config_planted_in_a_new_git_do_not_run_outside(
    outside: Path, user: str
) -> None:
    ws = workspace_for(outside, user)
    hooked, monitored = outside / "hooked", outside / "monitored"
    command = (
        f"git init -q && echo hi > a.txt && git add -A && git {_WHO} commit -qm first"
        f" && printf '#!/bin/sh\\ntouch {hooked}\\n' > .git/hooks/pre-commit"
        " && chmod +x .git/hooks/pre-commit"
        f" && git config core.fsmonitor 'touch {monitored}; false'"
        " && git config alias.st status && git log --oneline"
    )
    result = await _run(ws, command)
    text = result.text()
    assert " first\n" in text and text.endswith("Exit code: 0"), text
    git = ws / ".git"
    assert f"{DISABLED_NOTE}: {git}/hooks/pre-commit (renamed to pre-commit.disabled);" in text
    assert f"core.fsmonitor in {git}/config; alias.st in {git}/config." in text, text
    assert (result.meta or {})["disabledOnCreate"] == [
        {"path": f"{git}/hooks/pre-commit", "renamedTo": f"{git}/hooks/pre-commit.disabled"},
        {"path": f"{git}/config", "key": "core.fsmonitor"},
        {"path": f"{git}/config", "key": "alias.st"},
    ]
    notes = _card_notes(result, command)
    assert f"{DISABLED_NOTE}: {git}/hooks/pre-commit (renamed to pre-commit.disabled)" in notes
    assert f"core.fsmonitor in {git}/config" in notes
    assert not (git / "hooks" / "pre-commit").exists()
    assert (git / "hooks" / "pre-commit.disabled").stat().st_mode & 0o111 == 0
    assert (git / "hooks" / "pre-commit.sample").stat().st_mode & 0o111  # git's own, kept
    # The person's git: the repository works (an alias is no key known to run nothing: it
    # goes too), and neither the hook nor the fsmonitor runs.
    (ws / "b.txt").write_text("more\n")
    assert _git_outside(ws, "status", "--short").stdout == "?? b.txt\n"
    assert _git_outside(ws, "config", "--local", "--list").stdout == (
        "core.repositoryformatversion=0\ncore.filemode=true\ncore.bare=false\n"
        "core.logallrefupdates=true\n"
    )
    committed = _git_outside(ws, "commit", "-qam", "second", "--allow-empty")
    assert committed.returncode == 0, committed.stderr
    log = _git_outside(ws, "log", "--format=%s").stdout
    assert log == "second\nfirst\n", log
    assert not hooked.exists() and not monitored.exists()


async def test_keys_that_run_programs_at_commit_fetch_and_status_are_removed(
    outside: Path, user: str
) -> None:
    # Each planted key ran a program at the person's next git command before: an ssh
    # signing key command (`git commit`), an `ext::` remote and a URL rewritten to one
    # (`git fetch`), and a repository of the command's own, with an fsmonitor, made a
    # submodule of a fresh repository (plain `git status`).
    ws = workspace_for(outside, user)
    signed, ext, rewritten, monitored = (
        outside / n for n in ("signed", "ext", "rewritten", "monitored")
    )
    command = (
        f"git init -q sub && git -C sub {_WHO} commit -q --allow-empty -m s"
        f" && git -C sub config core.fsmonitor 'touch {monitored}; false'"
        f" && git init -q && git {_WHO} submodule add -q ./sub sub && git {_WHO} commit -qm top"
        " && git config gpg.format ssh && git config commit.gpgsign true"
        f" && git config gpg.ssh.defaultKeyCommand 'touch {signed}'"
        f" && git remote add ext 'ext::sh -c touch% {ext}'"
        " && git config protocol.ext.allow always"
        f" && git config 'url.ext::sh -c touch% {rewritten} #.insteadOf' /nowhere/"
        " && git remote add rewritten /nowhere/r"
        " && git remote add origin https://example.invalid/r.git && echo planted"
    )
    result = await _run(ws, command)
    assert "\nplanted\n" in result.text(), result.text()
    git, sub_git = ws / ".git", ws / "sub" / ".git"
    removed = {(d["path"], d["key"]) for d in (result.meta or {})["disabledOnCreate"]}
    assert removed >= {
        (f"{git}/config", "gpg.format"),
        (f"{git}/config", "commit.gpgsign"),
        (f"{git}/config", "gpg.ssh.defaultkeycommand"),
        (f"{git}/config", "remote.ext.url"),
        (f"{git}/config", "protocol.ext.allow"),
        (f"{git}/config", f"url.ext::sh -c touch% {rewritten} #.insteadof"),
        (f"{sub_git}/config", "core.fsmonitor"),
    }, removed
    # What runs nothing is kept: the repository, its submodule and a plain remote work.
    assert _git_outside(ws, "config", "remote.origin.url").stdout == (
        "https://example.invalid/r.git\n"
    )
    assert _git_outside(ws, "config", "submodule.sub.url").stdout == f"{ws}/sub\n"
    assert _git_outside(ws, "status", "--short").stdout == ""
    committed = _git_outside(ws, "commit", "-q", "--allow-empty", "-m", "second")
    assert committed.returncode == 0, committed.stderr
    assert _git_outside(ws, "log", "--format=%s").stdout == "second\ntop\n"
    for remote in ("ext", "rewritten"):
        assert _git_outside(ws, "fetch", "-q", remote).returncode != 0
    assert _git_outside(ws, "-C", "sub", "status", "--short").returncode == 0
    assert not [m for m in (signed, ext, rewritten, monitored) if m.exists()]


async def test_a_hooks_link_to_a_folder_outside_is_set_aside_not_followed(
    outside: Path, user: str
) -> None:
    ws = workspace_for(outside, user)
    elsewhere, marker = outside / "elsewhere", outside / "hooked"
    elsewhere.mkdir()
    hook = elsewhere / "pre-commit"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    result = await _run(
        ws, f"git init -q && rm -r .git/hooks && ln -s {elsewhere} .git/hooks && ls .git/hooks/"
    )
    assert result.text().startswith("pre-commit\n"), result.text()
    git = ws / ".git"
    assert (result.meta or {})["disabledOnCreate"] == [
        {"path": f"{git}/hooks", "renamedTo": f"{git}/hooks.disabled"}
    ]
    assert not os.path.lexists(git / "hooks")
    assert (git / "hooks.disabled").is_symlink()
    # Nothing outside changed: the hook is where it was, as it was.
    assert os.listdir(elsewhere) == ["pre-commit"]
    assert hook.stat().st_mode & 0o777 == 0o755
    assert hook.read_text() == f"#!/bin/sh\ntouch {marker}\n"
    committed = _git_outside(ws, "commit", "-q", "--allow-empty", "-m", "x")
    assert committed.returncode == 0, committed.stderr
    assert not marker.exists()


async def test_a_clone_the_command_made_keeps_what_git_needs(outside: Path, user: str) -> None:
    source = outside / "source"
    source.mkdir()
    for args in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "one"]):
        git = ["git", *_WHO.split(), *args]
        done = subprocess.run(git, cwd=source, capture_output=True, check=False)
        assert done.returncode == 0, done.stderr

    def owned(uid: int) -> None:  # git serves a repository only to its owner
        for path in (source, *source.rglob("*")):
            os.chown(path, uid, uid, follow_symlinks=False)

    if user == "nobody":
        owned(NOBODY)
    ws = workspace_for(outside, user)
    result = await _run(ws, f"git clone -q {source} . && git log --format=%s")
    assert result.text().startswith("one\n"), result.text()
    kept = _git_outside(ws, "config", "--local", "--list").stdout.splitlines()
    assert kept == [
        "core.repositoryformatversion=0",
        "core.filemode=true",
        "core.bare=false",
        "core.logallrefupdates=true",
        f"remote.origin.url={source}",
        "remote.origin.fetch=+refs/heads/*:refs/remotes/origin/*",
        "branch.main.remote=origin",
        "branch.main.merge=refs/heads/main",
    ]
    assert "disabledOnCreate" not in (result.meta or {})
    owned(os.getuid())
    fetched = _git_outside(ws, "fetch", "-q")
    assert fetched.returncode == 0, fetched.stderr
    assert _git_outside(ws, "status", "--short", "--branch").stdout.startswith("## main...origin")
