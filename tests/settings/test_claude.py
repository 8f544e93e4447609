"""Claude Code's settings files read with Claude Code's meaning: JSON with comments, its
precedence, its keys (the rest named as not supported), its rule paths, and trust.

The fixtures follow Claude Code's documentation of settings and permissions."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.files import write
from tests.settings.support import trust
from tether.errors import SettingsError
from tether.policy.check import check_use
from tether.settings import SettingsFlags, TrustStore, load_settings
from tether.settings.effective import effective_mode, model_spec, tool_env
from tether.settings.report import claude_file_lines, permissions_report, permissions_text

# `.claude/settings.json` as Claude Code's settings page shows it, with the comments and
# trailing commas its reader takes.
PROJECT_JSONC = """{
  // Claude Code: shared project settings
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "allow": [
      "Bash(npm run lint)",
      "Bash(npm run test:*)",
      "Read(~/.zshrc)",
    ],
    "deny": [
      "Bash(curl:*)",
      "Read(./.env)",
      "Read(./.env.*)",
      "Read(./secrets/**)"
    ],
    /* the mode a session starts in */
    "defaultMode": "acceptEdits",
  },
  "env": {"CLAUDE_CODE_ENABLE_TELEMETRY": "1", "URL": "http://example.com//x"},
  "model": "claude-sonnet-4-5-20250929",
  "includeCoAuthoredBy": false,
  "statusLine": {"type": "command", "command": "~/.claude/statusline.sh"},
  "cleanupPeriodDays": 20,
}
"""


def outcome(use: str, ws: Path, home: Path, mode: str = "auto") -> str:
    settings = load_settings(ws, home)
    return asyncio.run(check_use(use, settings, mode)).outcome  # type: ignore[arg-type]


@pytest.fixture
def home(isolated_environment: Path) -> Path:
    return isolated_environment


@pytest.fixture
def claude_dir(home: Path) -> Path:
    """Claude Code's user directory, as the tests' environment names it."""
    return home / "claude"


def test_a_jsonc_project_file_loads_with_its_rules_env_mode_and_model(ws: Path, home: Path) -> None:
    path = write(ws / ".claude/settings.json", PROJECT_JSONC)
    untrusted = load_settings(ws, home)
    # Deny rules apply at once; what the file grants waits for trust.
    assert [(r.kind, r.text) for r in untrusted.rules] == [
        ("deny", "Bash(curl:*)"),
        ("deny", "Read(./.env)"),
        ("deny", "Read(./.env.*)"),
        ("deny", "Read(./secrets/**)"),
    ]
    assert all(r.source.path == path and r.source.scope == "claude" for r in untrusted.rules)
    assert untrusted.default_mode is None and untrusted.model is None and not untrusted.env
    assert "allow bash(npm run lint) (.claude/settings.json)" in untrusted.trust.withheld
    assert "defaultMode accept-edits (.claude/settings.json)" in untrusted.trust.withheld
    trust(ws, home)
    trusted = load_settings(ws, home)
    assert [r.text for r in trusted.rules_of("allow")] == [
        "Bash(npm run lint)",
        "Bash(npm run test:*)",
        "Read(~/.zshrc)",
    ]
    assert effective_mode(trusted) == "accept-edits"
    assert model_spec(trusted, "openai") == "anthropic:claude-sonnet-4-5-20250929"
    assert tool_env(trusted) == {
        "CLAUDE_CODE_ENABLE_TELEMETRY": "1",
        "URL": "http://example.com//x",
    }


def test_keys_tether_does_not_read_are_each_named_once_with_a_reason(ws: Path, home: Path) -> None:
    path = write(ws / ".claude/settings.json", PROJECT_JSONC)
    problems = {p.key: str(p) for p in load_settings(ws, home).problems}
    assert set(problems) == {"includeCoAuthoredBy", "statusLine", "cleanupPeriodDays"}
    assert problems["statusLine"] == (
        f"{path}: statusLine: not supported: tether's terminal has no status line command"
    )
    assert "not supported: tether does not write commits itself" in problems["includeCoAuthoredBy"]
    assert "not supported:" in problems["cleanupPeriodDays"]


def test_claude_code_files_are_never_fatal(ws: Path, home: Path) -> None:
    path = write(ws / ".claude/settings.json", '{"permissions": {"deny": ["Read(x)"]')
    write(ws / ".claude/settings.local.json", {"permissions": "all of them"})
    settings = load_settings(ws, home)
    problems = [str(p) for p in settings.problems]
    assert problems[0].startswith(f"{path}: (file): not valid JSON")
    assert problems[0].endswith("the whole file is skipped")
    assert problems[1].endswith("permissions: expected an object, got a string; ignored")
    assert [line.split(": ", 1)[1] for line in claude_file_lines(settings)] == [
        f"skipped (not valid JSON: {problems[0].split('not valid JSON: ')[1].split(';')[0]})",
        "read nothing tether uses",
    ]
    # tether's own file still stops a run that would lose its rules.
    write(ws / ".tether/settings.json", '{"permissions": {"deny": ["read(x)"],}}')
    with pytest.raises(SettingsError, match="not valid JSON"):
        load_settings(ws, home)


def test_a_key_twice_keeps_the_last_as_claude_code_does(ws: Path, home: Path) -> None:
    write(ws / ".claude/settings.json", '{"model": "claude-a", "model": "claude-b"}')
    trust(ws, home)
    settings = load_settings(ws, home)
    assert settings.model is not None and settings.model.value == "anthropic:claude-b"
    assert [p.message for p in settings.problems] == [
        "appears twice in one object; the last is used"
    ]


def test_user_file_from_claude_config_dir_applies_without_trust(
    ws: Path, home: Path, claude_dir: Path
) -> None:
    path = write(
        claude_dir / "settings.json",
        {"permissions": {"allow": ["Bash(make)"], "defaultMode": "bypassPermissions"}},
    )
    settings = load_settings(ws, home)
    assert [(r.text, r.source.scope, r.source.path) for r in settings.rules] == [
        ("Bash(make)", "claude-user", path)
    ]
    assert effective_mode(settings) == "auto"
    assert outcome("bash(make)", ws, home, "ask") == "allow"


def test_user_file_under_home_when_no_config_dir_is_set(
    ws: Path, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user_home = tmp_path / "user"
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    monkeypatch.setenv("HOME", str(user_home))
    deny = {"permissions": {"deny": ["Read(~/.aws/**)"]}}
    path = write(user_home / ".claude/settings.json", deny)
    write(user_home / ".aws/credentials", "key")
    settings = load_settings(ws, home)
    assert [(r.text, r.source.path) for r in settings.rules] == [("Read(~/.aws/**)", path)]
    assert outcome(f"read({user_home}/.aws/credentials)", ws, home) == "deny"


def test_levels_follow_claude_code_and_tether_wins_within_a_level(
    ws: Path, home: Path, claude_dir: Path
) -> None:
    write(claude_dir / "settings.json", {"model": "claude-user", "env": {"A": "cu", "B": "cu"}})
    write(ws / ".claude/settings.json", {"model": "claude-project", "env": {"B": "cp", "C": "cp"}})
    write(ws / ".claude/settings.local.json", {"env": {"C": "cl", "D": "cl"}})
    write(ws / ".tether/settings.json", {"env": {"C": "tp"}})
    trust(ws, home)
    settings = load_settings(ws, home)
    # user < project < local; within a level, tether's file after Claude Code's.
    assert {k: v.value for k, v in settings.env.items()} == {
        "A": "cu",
        "B": "cp",
        "C": "cl",
        "D": "cl",
    }
    assert settings.model is not None and settings.model.value == "anthropic:claude-project"
    assert [s.scope for s in settings.files] == ["claude-user", "claude", "project", "claude-local"]
    write(ws / ".tether/settings.local.json", {"env": {"C": "tl"}})
    trust(ws, home)
    assert load_settings(ws, home).env["C"].value == "tl"


@pytest.mark.parametrize(
    ("mode", "expected", "problem"),
    [
        ("default", "ask", None),
        ("acceptEdits", "accept-edits", None),
        ("bypassPermissions", "auto", None),
        ("dontAsk", "ask", "'dontAsk' is not supported: tether has no mode that refuses"),
        ("auto", "ask", "'auto' is not supported: Claude Code's auto mode checks each call"),
        ("accept-edits", "ask", "'accept-edits' is not a Claude Code mode"),
    ],
)
def test_default_mode_values_map_to_tether_modes(
    ws: Path, home: Path, mode: str, expected: str, problem: str | None
) -> None:
    write(ws / ".claude/settings.local.json", {"permissions": {"defaultMode": mode}})
    trust(ws, home)
    settings = load_settings(ws, home)
    assert effective_mode(settings) == expected
    messages = [p.message for p in settings.problems]
    if problem is None:
        assert messages == []
    else:
        assert len(messages) == 1 and messages[0].startswith(problem)


def test_plan_mode_is_tethers_plan_mode(ws: Path, home: Path) -> None:
    write(ws / ".claude/settings.json", {"permissions": {"defaultMode": "plan"}})
    assert "defaultMode plan (.claude/settings.json)" in load_settings(ws, home).trust.withheld
    trust(ws, home)
    settings = load_settings(ws, home)
    assert settings.problems == ()
    assert effective_mode(settings) == "plan"


def test_model_aliases_are_named_not_guessed(ws: Path, home: Path) -> None:
    write(ws / ".claude/settings.json", {"model": "opus"})
    trust(ws, home)
    settings = load_settings(ws, home)
    assert settings.model is None
    assert "'opus' is Claude Code's alias for a model it picks" in settings.problems[0].message


def test_disable_bypass_permissions_mode_holds_even_untrusted(
    ws: Path, home: Path, claude_dir: Path
) -> None:
    write(claude_dir / "settings.json", {"permissions": {"defaultMode": "bypassPermissions"}})
    path = write(
        ws / ".claude/settings.json", {"permissions": {"disableBypassPermissionsMode": "disable"}}
    )
    settings = load_settings(ws, home)
    assert settings.bypass_disabled is not None and settings.bypass_disabled.source.path == path
    assert effective_mode(settings) == "ask"
    report = permissions_report(settings)
    assert report["mode"] == {
        "value": "ask",
        "source": {"scope": "claude-user", "path": str(claude_dir / "settings.json")},
        "autoDisabledBy": {"scope": "claude", "path": str(path)},
    }
    assert (
        f"Mode: ask\nAuto mode is disabled by disableBypassPermissionsMode in {path}: a "
        "session switched to auto asks as in ask mode"
    ) in permissions_text(settings)
    with pytest.raises(SettingsError, match="auto mode is disabled by disableBypassPermission"):
        load_settings(ws, home, flags=SettingsFlags(mode="auto"))


def test_deny_read_env_star_stops_env_production_in_auto_mode(ws: Path, home: Path) -> None:
    write(ws / ".claude/settings.json", {"permissions": {"deny": ["Read(./.env*)"]}})
    write(ws / ".env.production", "SECRET=1")
    write(ws / "app.py", "print()")
    assert outcome("read(.env.production)", ws, home) == "deny"
    assert outcome("read(app.py)", ws, home) == "allow"
    trust(ws, home)
    assert load_settings(ws, home).trust.trusted
    assert outcome("read(.env.production)", ws, home) == "deny"


@pytest.mark.parametrize(
    ("rule", "path", "expected"),
    [
        ("Read(/secrets/**)", "secrets/key.pem", "deny"),  # from the project root
        ("Read(/secrets/**)", "lib/secrets/key.pem", "allow"),
        ("Read(secrets/**)", "secrets/key.pem", "deny"),  # relative to the cwd
        ("Read(./secrets/**)", "secrets/key.pem", "deny"),
        ("Read(*.pem)", "lib/secrets/key.pem", "deny"),  # no slash: any depth
        ("Edit(/src/**/*.ts)", "src/a/b.ts", "deny"),
    ],
)
def test_rule_paths_have_claude_codes_four_forms(
    ws: Path, home: Path, rule: str, path: str, expected: str
) -> None:
    write(ws / ".claude/settings.json", {"permissions": {"deny": [rule]}})
    write(ws / path, "x")
    tool = "edit" if rule.startswith("Edit") else "read"
    assert outcome(f"{tool}({path})", ws, home) == expected


def test_double_slash_is_absolute_and_tilde_is_home(
    ws: Path, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user_home = tmp_path / "user"
    monkeypatch.setenv("HOME", str(user_home))
    outside = write(tmp_path / "etc/secret.conf", "x")
    write(user_home / ".ssh/id_rsa", "key")
    write(
        ws / ".claude/settings.json",
        {"permissions": {"deny": [f"Read(/{tmp_path}/etc/**)", "Read(~/.ssh/**)"]}},
    )
    assert outcome(f"read({outside})", ws, home) == "deny"
    assert outcome(f"read({user_home}/.ssh/id_rsa)", ws, home) == "deny"


def test_a_slash_rule_in_tethers_own_file_stays_absolute(
    ws: Path, home: Path, tmp_path: Path
) -> None:
    write(ws / "secrets/key.pem", "x")
    write(ws / ".tether/settings.json", {"permissions": {"deny": ["read(/secrets/**)"]}})
    assert outcome("read(secrets/key.pem)", ws, home) == "allow"
    outside = write(tmp_path / "abs/secrets/x", "x")
    write(ws / ".tether/settings.json", {"permissions": {"deny": [f"read({tmp_path}/abs/**)"]}})
    assert outcome(f"read({outside})", ws, home) == "deny"


def test_claude_code_tools_tether_does_not_gate_are_named(ws: Path, home: Path) -> None:
    write(
        ws / ".claude/settings.json",
        {"permissions": {"deny": ["TodoWrite", "LS(secrets)", "SlashCommand"]}},
    )
    settings = load_settings(ws, home)
    assert [(r.tool, r.text) for r in settings.rules] == [("glob", "LS(secrets)")]
    messages = {p.key: p.message for p in settings.problems}
    assert messages["permissions.deny[0]"] == (
        "'TodoWrite': not supported: tether's todo tool never asks for permission"
    )
    assert "tether's model does not run slash commands" in messages["permissions.deny[2]"]


@pytest.mark.parametrize(
    ("rules", "use", "expected"),
    [
        ({"deny": ["Task(Explore)"]}, "task(explore)", "deny"),  # any letter case
        ({"deny": ["Agent(Explore)"]}, "task(Explore)", "deny"),
        ({"deny": ["Task(Explore)"]}, "task(general)", "allow"),
        ({"ask": ["Task"]}, "task(general)", "ask"),  # in auto mode too
        ({"deny": ["Skill(deploy)"]}, "skill(deploy)", "deny"),
        ({"deny": ["Skill(review-pr *)"]}, "skill(review-pr)", "deny"),
        ({"deny": ["Skill(release-*)"]}, "skill(release-notes)", "deny"),
        ({"deny": ["Skill(deploy)"]}, "skill(deploy-docs)", "allow"),
        ({"allow": ["Skill(deploy)"]}, "skill(other)", "allow"),  # no mode asks for a skill
    ],
)
def test_task_and_skill_rules_name_agents_and_skills(
    ws: Path, home: Path, rules: dict[str, list[str]], use: str, expected: str
) -> None:
    write(ws / ".claude/settings.json", {"permissions": rules})
    trust(ws, home)
    assert outcome(use, ws, home) == expected
    assert outcome(use, ws, home, "ask") == expected


def test_the_report_lists_claude_codes_rules_and_files(
    ws: Path, home: Path, claude_dir: Path
) -> None:
    user = write(claude_dir / "settings.json", {"permissions": {"allow": ["Bash(make)"]}})
    project = write(ws / ".claude/settings.json", PROJECT_JSONC)
    report = permissions_report(load_settings(ws, home))
    last = report["rules"][-1]
    assert (last["kind"], last["rule"], last["text"], last["tool"]) == (
        "allow",
        "bash(make)",
        "Bash(make)",
        "bash",
    )
    assert report["rules"][-1]["source"] == {"scope": "claude-user", "path": str(user)}
    assert report["rules"][0]["source"] == {"scope": "claude", "path": str(project)}
    assert report["claudeFiles"] == [
        {
            "scope": "claude-user",
            "path": str(user),
            "line": f"{user}: read 1 allow rule",
            "read": ["1 allow rule"],
            "withheld": False,
            "skipped": None,
            "unsupported": [],
        },
        {
            "scope": "claude",
            "path": str(project),
            "line": (
                f"{project}: read 3 allow rules, 4 deny rules, defaultMode (accept-edits), "
                "env (2), model (anthropic:claude-sonnet-4-5-20250929); what it grants waits "
                "for trust; not supported: includeCoAuthoredBy, statusLine, cleanupPeriodDays "
                "(see the warnings)"
            ),
            "read": [
                "3 allow rules",
                "4 deny rules",
                "defaultMode (accept-edits)",
                "env (2)",
                "model (anthropic:claude-sonnet-4-5-20250929)",
            ],
            "withheld": True,
            "skipped": None,
            "unsupported": ["includeCoAuthoredBy", "statusLine", "cleanupPeriodDays"],
        },
    ]


def test_trust_given_for_hooks_alone_is_asked_again(ws: Path, home: Path) -> None:
    import hashlib

    from tether.settings.trust import TRUSTED_FILES, file_digest

    write(ws / ".claude/settings.json", {"permissions": {"allow": ["Bash"]}})
    # The fingerprint as it was while only the hooks of Claude Code's files were read.
    digests = {name: file_digest(ws / name) for name in TRUSTED_FILES}
    lines = [
        f"{name}:{digests[name] or '-'}"
        for name in TRUSTED_FILES
        if not name.startswith(".claude/") or digests[name]
    ]
    TrustStore(home).trust(ws, hashlib.sha256("\n".join(lines).encode()).hexdigest())
    settings = load_settings(ws, home)
    assert not settings.trust.trusted
    assert settings.trust.withheld == ("allow bash (.claude/settings.json)",)


async def test_a_session_switched_to_auto_still_asks_where_auto_is_disabled(
    ws: Path, home: Path
) -> None:
    from tests.policy.support import Asker
    from tether.policy import PolicyGate
    from tether.tools import CommandAccess
    from tether.tools.workspace import Workspace

    path = write(
        ws / ".claude/settings.json", {"permissions": {"disableBypassPermissionsMode": "disable"}}
    )
    asker = Asker("allow_once")
    # However the mode was switched (a client's menu, Shift+Tab, /mode): the gate asks.
    gate = PolicyGate(Workspace.at(ws), "auto", asker, settings=load_settings(ws, home))
    await gate.authorize(CommandAccess(command="make"))
    [question] = asker.requests
    assert question.reason == (
        "commands need approval unless the mode is auto (auto mode is disabled by "
        f"disableBypassPermissionsMode in {path})"
    )
    # Without it, auto lets the command pass.
    path.unlink()
    free = PolicyGate(Workspace.at(ws), "auto", Asker(), settings=load_settings(ws, home))
    await free.authorize(CommandAccess(command="make"))


def test_tilde_is_the_users_home_in_tethers_own_files_too(
    ws: Path, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # It was read as $TETHER_HOME, so `read(~/.ssh/**)` kept nothing of the real ~/.ssh.
    user_home = tmp_path / "user"
    monkeypatch.setenv("HOME", str(user_home))
    key = write(user_home / ".ssh/id_rsa", "key")
    write(home / "settings.json", {"permissions": {"deny": ["read(~/.ssh/**)"]}})
    assert outcome(f"read({key})", ws, home) == "deny"
    assert outcome(f"read({home}/.ssh/id_rsa)", ws, home) != "deny"


def test_hooks_of_the_users_claude_file_apply_without_trust(
    ws: Path, home: Path, claude_dir: Path
) -> None:
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}
    path = write(claude_dir / "settings.json", {"hooks": {"PreToolUse": [group]}})
    write(ws / ".claude/settings.json", {"hooks": {"Stop": [{"hooks": group["hooks"]}]}})
    settings = load_settings(ws, home)
    assert [(h.event, h.source.path) for h in settings.hooks] == [("PreToolUse", path)]
    assert settings.trust.withheld == ("hooks (1) (.claude/settings.json)",)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            '{"a": "x // not a comment", /* b */ "b": [1, 2,],}',
            {"a": "x // not a comment", "b": [1, 2]},
        ),
        ('{"a": "say \\"hi\\" // still text",}', {"a": 'say "hi" // still text'}),
        ('// first\n{"a": 1}\n// last', {"a": 1}),
        ('{"a": ",]"}', {"a": ",]"}),
        ('{"a": [ , ]}', None),  # an empty slot is not a trailing comma
    ],
)
def test_comments_and_trailing_commas_as_claude_code_reads_them(text: str, value: object) -> None:
    from tether.jsontext import parse_json, strip_jsonc

    if value is None:
        with pytest.raises(ValueError):
            parse_json(strip_jsonc(text))
    else:
        assert parse_json(strip_jsonc(text)) == value


def test_an_unclosed_block_comment_skips_the_file(ws: Path, home: Path) -> None:
    write(ws / ".claude/settings.json", '{"permissions": {}} /* open')
    settings = load_settings(ws, home)
    assert settings.problems[0].message == ("a /* comment is not closed; the whole file is skipped")


def test_a_permissions_key_at_the_top_level_says_where_it_belongs(ws: Path, home: Path) -> None:
    write(ws / ".claude/settings.json", {"deny": ["Read(.env)"], "defaultMode": "plan"})
    settings = load_settings(ws, home)
    assert settings.rules == ()
    assert [(p.key, p.message) for p in settings.problems] == [
        ("deny", "not supported: Claude Code reads it under `permissions`, not at the top level"),
        (
            "defaultMode",
            "not supported: Claude Code reads it under `permissions`, not at the top level",
        ),
    ]
