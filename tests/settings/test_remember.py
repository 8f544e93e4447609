"""Remembering an answer for the project: exact rules in `.tether/settings.local.json`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.settings.support import trust
from tether.errors import RememberFailed
from tether.settings import load_settings
from tether.settings.remember import remember_rules

LOCAL = ".tether/settings.local.json"


@pytest.fixture
def home(isolated_environment: Path) -> Path:
    return isolated_environment


def test_a_new_file_is_created_and_kept_out_of_git(ws: Path, home: Path) -> None:
    _git_dir(ws)
    (ws / ".git/info/exclude").write_text("# git ls-files --exclude-from\n*.o")
    rules = remember_rules(ws, home, ["bash(npm test)", "edit(src/app.py)"])
    assert [r.canonical for r in rules] == ["bash(npm test)", "edit(src/app.py)"]
    assert json.loads((ws / LOCAL).read_text()) == {
        "permissions": {"allow": ["bash(npm test)", "edit(src/app.py)"]}
    }
    exclude = (ws / ".git/info/exclude").read_text()
    assert exclude.endswith("*.o\n/.tether/settings.local.json\n")
    # Once only, and the workspace (with nothing else to trust) trusts the user's own rule.
    remember_rules(ws, home, ["bash(make)"])
    assert (ws / ".git/info/exclude").read_text() == exclude
    settings = load_settings(ws, home)
    assert settings.trust.trusted
    assert [r.text for r in settings.rules_of("allow")] == [
        "bash(npm test)",
        "edit(src/app.py)",
        "bash(make)",
    ]


def test_git_exclude_is_never_read_or_written_through_a_link(
    ws: Path, home: Path, tmp_path: Path
) -> None:
    # `.git/info` is writable inside the sandbox: a command may plant links there before the
    # person remembers a rule. Their targets outside the workspace are neither read (their
    # text would land in the workspace) nor written (a `.bashrc` would run it).
    secret = tmp_path / "secret"
    secret.write_text("TOKEN\n")
    _git_dir(ws)
    (ws / ".git/info/exclude").symlink_to(secret)
    remember_rules(ws, home, ["bash(npm test)"])
    assert secret.read_text() == "TOKEN\n"
    assert (ws / ".git/info/exclude").is_symlink()

    (ws / LOCAL).unlink()
    (ws / ".git/info/exclude").unlink()
    (ws / ".git/info/exclude").write_text("run-me\n")
    for pid in (os.getpid(), *range(1, 200)):
        (ws / f".git/info/.exclude.{pid}.tmp").symlink_to(secret)
    remember_rules(ws, home, ["bash(make)"])
    assert secret.read_text() == "TOKEN\n"
    assert (ws / ".git/info/exclude").read_text() == "run-me\n/.tether/settings.local.json\n"


def _git_dir(ws: Path) -> None:
    (ws / ".git/info").mkdir(parents=True)
    (ws / ".git/HEAD").write_text("ref: refs/heads/main\n")


def test_git_exclude_is_written_only_in_a_git_directory(
    ws: Path, home: Path, tmp_path: Path
) -> None:
    # A `.git` file names its git directory; one naming a folder that is none gets nothing.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (ws / ".git").write_text(f"gitdir: {elsewhere}\n")
    remember_rules(ws, home, ["bash(npm test)"])
    assert (ws / LOCAL).is_file()
    assert list(elsewhere.iterdir()) == []


def test_the_rest_of_the_file_keeps_its_bytes(ws: Path, home: Path) -> None:
    original = (
        '{\n    "model":   "anthropic",\n    "permissions": {\n        "deny": [ "read(.env)" ],\n'
        '        "allow": [\n            "bash(ls)"\n        ]\n    },\n    "env": {"A": "1"}\n}\n'
    )
    (ws / ".tether").mkdir()
    (ws / LOCAL).write_text(original)
    trust(ws, home)
    remember_rules(ws, home, ["bash(npm test)"])
    assert (ws / LOCAL).read_text() == original.replace(
        '"bash(ls)"\n', '"bash(ls)",\n            "bash(npm test)"\n'
    )
    remember_rules(ws, home, ["bash(npm test)"])  # already there: unchanged
    assert (ws / LOCAL).read_text().count("npm test") == 1
    assert load_settings(ws, home).trust.trusted  # still trusted with its new content


def test_a_workspace_not_trusted_stays_untrusted(ws: Path, home: Path) -> None:
    (ws / ".tether").mkdir()
    (ws / ".tether/settings.json").write_text('{"permissions": {"allow": ["bash(*)"]}}')
    remember_rules(ws, home, ["bash(npm test)"])
    settings = load_settings(ws, home)
    assert not settings.trust.trusted
    assert settings.rules_of("allow") == ()


@pytest.mark.parametrize(
    "content",
    ["{", '{"permissions": []}', '{"permissions": {"allow": "bash(ls)"}}', "[1]"],
)
def test_a_file_it_cannot_edit_safely_is_left_alone(ws: Path, home: Path, content: str) -> None:
    (ws / ".tether").mkdir()
    (ws / LOCAL).write_text(content)
    with pytest.raises(RememberFailed, match="cannot add bash\\(npm test\\)"):
        remember_rules(ws, home, ["bash(npm test)"])
    assert (ws / LOCAL).read_text() == content


def test_a_symlinked_directory_is_not_written_through(ws: Path, home: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (ws / ".tether").symlink_to(elsewhere)
    with pytest.raises(RememberFailed):
        remember_rules(ws, home, ["bash(npm test)"])
    assert list(elsewhere.iterdir()) == []


WRITER = """
import sys
from pathlib import Path
from tether.settings.remember import remember_rules
root, home, name = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
for index in range(25):
    remember_rules(root, home, [f"bash(make {name}-{index})"])
"""


def test_two_processes_writing_at_once_lose_no_rule(ws: Path, home: Path) -> None:
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(ws), str(home), name])
        for name in ("a", "b")
    ]
    # Meanwhile the file is always whole JSON: writers replace it, never write into it.
    reads = 0
    while any(writer.poll() is None for writer in writers):
        try:
            json.loads((ws / LOCAL).read_text())
            reads += 1
        except FileNotFoundError:
            pass
    for writer in writers:
        assert writer.wait(timeout=120) == 0
    allow = json.loads((ws / LOCAL).read_text())["permissions"]["allow"]
    expected = {f"bash(make {n}-{i})" for n in ("a", "b") for i in range(25)}
    assert sorted(allow) == sorted(expected)
    assert not [p for p in (ws / ".tether").iterdir() if p.name != "settings.local.json"]
