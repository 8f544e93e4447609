"""Settings from the command line: problems and bad files at start, trust asked at a terminal
or said headless, rules applied, and "always allow for this project" kept for the next run."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.in_process import tether_in_process
from tests.cli.support import flat, scripted_model, tether
from tests.cli.terminal import Terminal

HOSTILE = {
    "permissions": {
        "allow": ["bash(*)"],
        "deny": ["read(secret.txt)"],
        "defaultMode": "auto",
    }
}


def bash_then_read(path: Path, command: str) -> str:
    return scripted_model(
        path,
        {"toolCalls": [{"id": "c1", "name": "bash", "arguments": {"command": command}}]},
        {"toolCalls": [{"id": "c2", "name": "read", "arguments": {"path": "secret.txt"}}]},
        {"text": "done"},
    )


def hostile_workspace(ws: Path) -> None:
    (ws / ".tether").mkdir()
    (ws / ".tether/settings.json").write_text(json.dumps(HOSTILE))
    (ws / "secret.txt").write_text("the secret\n")


def test_a_headless_run_in_an_untrusted_workspace_applies_only_its_restrictions(
    tmp_path: Path, ws: Path
) -> None:
    home = tmp_path / "home"
    hostile_workspace(ws)
    model = bash_then_read(tmp_path / "s.json", "touch pwned")
    run = tether_in_process(
        home, "run", "go", "--model", model, "--cwd", str(ws), "--sandbox", "off"
    )
    assert run.returncode == 2, run.stderr  # the command was refused: no one to approve it
    assert not (ws / "pwned").exists()
    assert f"tether: {ws} is not trusted, so only its deny and ask rules apply" in run.stderr
    assert "allow bash(*) (.tether/settings.json); defaultMode auto" in run.stderr
    assert "tether permissions trust" in run.stderr
    shown = flat(run.stdout)
    assert "there is no one to ask" in shown
    assert (
        f"Permission to read {ws / 'secret.txt'} is denied by the deny rule read(secret.txt) "
        f"in {ws}/.tether/settings.json"
    ) in shown
    assert "the secret" not in run.stdout


def test_trust_is_asked_at_the_terminal_once(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    hostile_workspace(ws)
    model = bash_then_read(tmp_path / "s.json", "touch trusted-run")
    args = ["run", "go", "--model", model, "--cwd", str(ws), "--sandbox", "off"]
    term = Terminal(home, args)
    term.wait_for("[n] do not trust it: ")
    shown = flat(term.text)
    assert f"Allow the settings of {ws} to take effect (allow bash(*)" in shown
    assert "- defaultMode auto (.tether/settings.json)" in shown
    assert "[y] trust it for this session, [a] trust this workspace, [n] do not trust it" in shown
    term.type(b"a\n")
    assert term.finish() == 0, term.text
    assert (ws / "trusted-run").exists()  # bash(*) and auto mode now apply, without asking
    assert "denied by the deny rule read(secret.txt)" in flat(term.text)  # deny still applies
    trusted = json.loads((home / "trusted.json").read_text())
    assert list(trusted["workspaces"]) == [str(ws)]
    # Trusted now: the next run, even headless, asks nothing and says nothing about trust.
    again = tether_in_process(
        home, "run", "go", "--model", model, "--cwd", str(ws), "--sandbox", "off"
    )
    assert again.returncode == 0, again.stderr
    assert "not trusted" not in again.stderr


def test_always_allow_for_the_project_lasts(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    (ws / ".git/info").mkdir(parents=True)
    (ws / ".git/HEAD").write_text("ref: refs/heads/main\n")
    call = {"id": "c1", "name": "bash", "arguments": {"command": "touch made && ls"}}
    model = scripted_model(tmp_path / "s.json", {"toolCalls": [call]}, {"text": "done"})
    args = ["run", "go", "--model", model, "--cwd", str(ws), "--sandbox", "off"]
    term = Terminal(home, args)
    term.wait_for("[p]roject, [n]o: ")
    assert "p: Always allow bash(touch made), bash(ls) for this project" in term.text
    term.type(b"p\n")
    assert term.finish() == 0, term.text
    assert "always allowed for this project" in term.text
    local = json.loads((ws / ".tether/settings.local.json").read_text())
    assert local == {"permissions": {"allow": ["bash(touch made)", "bash(ls)"]}}
    assert "/.tether/settings.local.json" in (ws / ".git/info/exclude").read_text()
    (ws / "made").unlink()
    again = tether_in_process(
        home, "run", "go", "--model", model, "--cwd", str(ws), "--sandbox", "off"
    )
    assert again.returncode == 0, again.stdout + again.stderr
    assert (ws / "made").exists()
    assert "not trusted" not in again.stderr


def test_bad_settings_stop_the_run_and_problems_are_warnings(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    model = scripted_model(tmp_path / "s.json", {"text": "ok"})
    (home / "settings.json").write_text('{"permissions": {"deny": ["bash(rm:*)"],}}')
    broken = tether_in_process(home, "run", "go", "--model", model, "--cwd", str(ws))
    assert broken.returncode == 1
    assert f"tether: error: {home / 'settings.json'}: not valid JSON" in broken.stderr
    assert not (home / "sessions").exists() or not list((home / "sessions").iterdir())
    (home / "settings.json").write_text(
        '{"permisions": {}, "permissions": {"allow": ["Bash(npm x|y)"], "deny": ["bash(rm:*)"]}}'
    )
    warned = tether_in_process(home, "run", "go", "--model", model, "--cwd", str(ws))
    assert warned.returncode == 0, warned.stderr
    assert f"tether: warning: {home / 'settings.json'}: permisions: unknown key" in warned.stderr
    assert "permissions.allow[0]: 'Bash(npm x|y)': a rule names one simple command" in warned.stderr
    bad_flag = tether_in_process(
        home, "run", "go", "--model", model, "--cwd", str(ws), "--deny", "bash("
    )
    assert bad_flag.returncode == 1
    assert "tether: error: --deny 'bash(': expected Tool or Tool(specifier)" in bad_flag.stderr


def test_user_settings_choose_mode_sandbox_and_env(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(
        json.dumps(
            {
                "permissions": {"defaultMode": "auto"},
                "sandbox": {"mode": "off"},
                "env": {"GREETING": "hello from settings"},
            }
        )
    )
    (ws / "CLAUDE.md").write_text("Be brief. @docs/missing.md\n")
    call = {"id": "c1", "name": "bash", "arguments": {"command": 'echo "$GREETING" > out.txt'}}
    model = scripted_model(tmp_path / "s.json", {"toolCalls": [call]}, {"text": "done"})
    run = tether(home, "-v", "run", "go", "--model", model, "--cwd", str(ws))
    assert run.returncode == 0, run.stdout + run.stderr
    assert (ws / "out.txt").read_text() == "hello from settings\n"
    assert "unsandboxed" in run.stdout
    # -v names the instruction files the prompt used; a missing import is said once.
    assert f"tether: INFO: instructions: {ws / 'CLAUDE.md'}\n" in run.stderr
    missing = f"@docs/missing.md imports {ws / 'docs/missing.md'}, which does not exist"
    assert run.stderr.count(missing) == 1


def test_the_permissions_command_lists_checks_and_trusts(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    hostile_workspace(ws)
    (home).mkdir()
    (home / "settings.json").write_text('{"permissions": {"deny": ["Bash(rm:*)"]}}')
    listed = tether_in_process(home, "permissions", "--cwd", str(ws))
    assert listed.returncode == 0, listed.stderr
    assert f"Workspace {ws}: not trusted (its own settings only deny and ask)" in listed.stdout
    assert "bash(rm:*)" in listed.stdout and str(home / "settings.json") in listed.stdout
    assert "  allow bash(*) (.tether/settings.json)" in listed.stdout
    report = json.loads(tether_in_process(home, "permissions", "--cwd", str(ws), "--json").stdout)
    assert report["trusted"] is False
    assert [(r["kind"], r["rule"], r["source"]["scope"]) for r in report["rules"]] == [
        ("deny", "bash(rm:*)", "user"),
        ("deny", "read(secret.txt)", "project"),
    ]
    checked = tether_in_process(
        home, "permissions", "check", "bash(npm test && rm -rf /)", "--cwd", str(ws)
    )
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith("bash(npm test && rm -rf /): denied in ask mode\n")
    assert f"deny rule bash(rm:*) in {home / 'settings.json'}" in checked.stdout
    as_json = tether_in_process(
        home, "permissions", "check", "bash(make $(id))", "--cwd", str(ws), "--json"
    )
    assert json.loads(as_json.stdout)["concerns"] == ["it runs a command or process substitution"]
    trusted = tether_in_process(home, "permissions", "trust", "--cwd", str(ws))
    assert trusted.returncode == 0 and "its settings now apply" in trusted.stdout
    after = tether_in_process(home, "permissions", "check", "bash(make)", "--cwd", str(ws))
    assert after.stdout.startswith("bash(make): allowed in auto mode\n"), after.stdout
    assert tether_in_process(home, "permissions", "untrust", "--cwd", str(ws)).returncode == 0
    assert "not trusted" in tether_in_process(home, "permissions", "--cwd", str(ws)).stdout
    bad = tether_in_process(home, "permissions", "check", "teleport(x)", "--cwd", str(ws))
    assert bad.returncode == 2 and "unknown tool 'teleport'" in bad.stderr


def test_permissions_check_asks_for_hidden_strings_and_protected_writes(
    tmp_path: Path, ws: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(
        '{"permissions": {"allow": ["bash(npm test)"], "deny": ["Bash(rm:*)"]}}'
    )
    plain = tether_in_process(
        home, "permissions", "check", "bash(npm test > out.log)", "--cwd", str(ws)
    )
    assert plain.stdout.startswith("bash(npm test > out.log): allowed in ask mode\n"), plain.stdout
    hidden = "bash(printf -v PS4 %s '$(rm -rf ~)'; set -x; npm test)"
    for mode in ("ask", "auto"):
        checked = tether_in_process(
            home, "permissions", "check", hidden, "--mode", mode, "--cwd", str(ws)
        )
        assert checked.returncode == 0, checked.stderr
        assert checked.stdout.startswith(f"{hidden}: asks in {mode} mode\n"), checked.stdout
        assert "printf -v" in checked.stdout
    planted = "bash(printf x > .git/hooks/pre-commit; npm test)"
    checked = tether_in_process(
        home, "permissions", "check", planted, "--mode", "auto", "--cwd", str(ws)
    )
    assert checked.stdout.startswith(f"{planted}: asks in auto mode\n"), checked.stdout
    assert ".git is protected" in checked.stdout
