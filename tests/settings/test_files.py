"""Settings files: the pinned schema, merging, problems reported, unusable files refused."""

from __future__ import annotations

import os
from pathlib import Path

import jsonschema
import pytest

from tests.files import write
from tests.golden import check_golden
from tests.settings.support import trust
from tether.errors import SettingsError
from tether.settings import Settings, SettingsFlags, load_settings
from tether.settings.schema import settings_schema, settings_schema_text


@pytest.fixture
def home(isolated_environment: Path) -> Path:
    return isolated_environment


def test_pinned_schema_matches_the_types(repo_root: Path) -> None:
    # A change here means the settings file changed: refresh, then review the schema's diff.
    check_golden(repo_root / "schema" / "settings.schema.json", settings_schema_text())


def test_the_schema_accepts_a_full_file_and_rejects_unknown_keys() -> None:
    full = {
        "$schema": "https://tether.dev/schema/settings.schema.json",
        "permissions": {
            "allow": ["bash(npm test)", "Read(src/**)"],
            "ask": ["bash(git push:*)"],
            "deny": ["read(**/*.env)"],
            "defaultMode": "acceptEdits",
            "additionalDirectories": ["../shared"],
        },
        "model": "anthropic",
        "sandbox": {
            "mode": "read-only",
            "allowNetwork": False,
            "env": ["HOME"],
            "tmpSizeMiB": 512,
            "maxProcesses": 64,
            "memoryMiB": 2048,
        },
        "env": {"CI": "1"},
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]
        },
        "webSearch": {"provider": "searxng", "baseUrl": "http://127.0.0.1:8888"},
        "webFetch": {"model": "openai:gpt-4o-mini"},
    }
    validator = jsonschema.Draft202012Validator(settings_schema())
    assert list(validator.iter_errors(full)) == []
    assert list(validator.iter_errors({"colour": "blue"}))
    assert list(validator.iter_errors({"sandbox": {"mode": "none"}}))
    assert list(validator.iter_errors({"webSearch": {"provider": "bing"}}))
    assert list(validator.iter_errors({"webFetch": {"model": ""}}))


def test_files_merge_in_order_with_their_sources(ws: Path, home: Path) -> None:
    user = write(
        home / "settings.json",
        {
            "model": "openai",
            "permissions": {"allow": ["bash(ls)"], "deny": ["read(~/.ssh/**)"]},
            "env": {"A": "user", "B": "user"},
            "sandbox": {"env": ["HOME"]},
        },
    )
    project = write(
        ws / ".tether/settings.json",
        {
            "model": "anthropic",
            "permissions": {"allow": ["bash(npm test)"], "defaultMode": "accept-edits"},
            "env": {"B": "project"},
            "sandbox": {"env": ["LANG"], "tmpSizeMiB": 256},
        },
    )
    local = write(
        ws / ".tether/settings.local.json",
        {"permissions": {"ask": ["bash(git push:*)"], "defaultMode": "auto"}},
    )
    trust(ws, home)
    settings = load_settings(ws, home, flags=SettingsFlags(model="script:x.json"))
    assert settings.trust.trusted
    assert [(r.kind, r.text, r.source.path) for r in settings.rules] == [
        ("allow", "bash(ls)", user),
        ("deny", "read(~/.ssh/**)", user),
        ("allow", "bash(npm test)", project),
        ("ask", "bash(git push:*)", local),
    ]
    assert settings.model is not None
    assert settings.model.value == "script:x.json"
    assert str(settings.model.source) == "the command line"
    assert settings.default_mode is not None
    assert (settings.default_mode.value, settings.default_mode.source.path) == ("auto", local)
    assert {k: (v.value, v.source.path) for k, v in settings.env.items()} == {
        "A": ("user", user),
        "B": ("project", project),
    }
    assert [(e.value, e.source.scope) for e in settings.sandbox.env] == [
        ("HOME", "user"),
        ("LANG", "project"),
    ]
    assert settings.sandbox.tmp_size_mib is not None
    assert settings.sandbox.tmp_size_mib.value == 256
    assert [s.path for s in settings.files] == [user, project, local]


def test_a_bad_key_or_rule_is_reported_and_the_rest_applies(ws: Path, home: Path) -> None:
    path = write(
        home / "settings.json",
        {
            "colour": "blue",
            "permissions": {
                "deny": ["read(.env)", "Bash(rm -rf:*", "Teleport(x)", 7, "bash(a && b)"],
                "allow": ["bash()", "bash(npm test)"],
                "defaultMode": "yolo",
                "additionalDirectories": ["missing-dir"],
                "extra": True,
            },
            "sandbox": {"mode": "none", "allowNetwork": True, "tmpSizeMiB": 0},
            "env": {"OK": "1", "BAD": 3},
            "hooks": {"PreToolUse": [{"hooks": "nope"}], "Whenever": []},
            "webSearch": {"provider": "bing"},
            "webFetch": {"model": "", "prompt": "x"},
            "model": "",
        },
    )
    settings = load_settings(ws, home)
    problems = [(p.key, p.message) for p in settings.problems]
    assert all(p.source.path == path for p in settings.problems)
    keys = [key for key, _ in problems]
    assert keys == [
        "colour",
        "permissions.deny[1]",
        "permissions.deny[2]",
        "permissions.deny[3]",
        "permissions.deny[4]",
        "permissions.allow[0]",
        "permissions.defaultMode",
        "permissions.additionalDirectories[0]",
        "permissions.extra",
        "sandbox.mode",
        "sandbox.tmpSizeMiB",
        "env.BAD",
        "hooks.PreToolUse[0]",
        "hooks.Whenever",
        "webSearch.provider",
        "webFetch.model",
        "webFetch.prompt",
        "model",
    ]
    messages = dict(problems)
    assert "unknown key" in messages["colour"]
    assert "expected Tool or Tool(specifier)" in messages["permissions.deny[1]"]
    assert "unknown tool 'Teleport'" in messages["permissions.deny[2]"]
    assert "expected a rule (a string), got a number" in messages["permissions.deny[3]"]
    assert "one simple command" in messages["permissions.deny[4]"]
    assert "empty specifier" in messages["permissions.allow[0]"]
    assert "'yolo' is not a mode" in messages["permissions.defaultMode"]
    assert "not a directory" in messages["permissions.additionalDirectories[0]"]
    assert str(settings.problems[0]) == f"{path}: colour: unknown key; " + (
        "expected one of $schema, permissions, model, thinking, models, sandbox, env, hooks, "
        "webSearch, webFetch"
    )
    # What was right still applies.
    assert [r.text for r in settings.rules] == ["read(.env)", "bash(npm test)"]
    assert settings.sandbox.allow_network is not None and settings.sandbox.allow_network.value
    assert settings.sandbox.mode is None
    assert {k: v.value for k, v in settings.env.items()} == {"OK": "1"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "must be a JSON object, not a list"),
        ('{"permissions": {"deny": ["read(.env)"]}, "permissions": {}}', "appears twice"),
        ('{"model": NaN}', "NaN is not a JSON value"),
        ('{"permissions": []}', "permissions: expected an object, got a list"),
        ('{"permissions": {"deny": "read(.env)"}}', "permissions.deny: expected a list"),
        ('{"permissions": {"ask": {}}}', "permissions.ask: expected a list"),
        ("[" * 100_000, "nested too deeply"),
        (b"\xff\xfe{".decode("latin-1"), "not valid JSON"),
    ],
)
def test_a_file_that_would_drop_protection_is_an_error(
    ws: Path, home: Path, text: str, message: str
) -> None:
    path = write(ws / ".tether/settings.json", text)
    with pytest.raises(SettingsError, match="settings") as raised:
        load_settings(ws, home)
    assert message in str(raised.value)
    assert str(path) in str(raised.value)


def test_hostile_files_are_refused_not_read(ws: Path, home: Path) -> None:
    (ws / ".tether").mkdir()
    os.mkfifo(ws / ".tether/settings.json")
    with pytest.raises(SettingsError, match="not a regular file"):
        load_settings(ws, home)
    os.unlink(ws / ".tether/settings.json")
    (ws / ".tether/settings.json").symlink_to("/dev/zero")
    with pytest.raises(SettingsError, match="not a regular file"):
        load_settings(ws, home)
    os.unlink(ws / ".tether/settings.json")
    write(ws / ".tether/settings.json", '{"model": "' + "x" * (2 << 20) + '"}')
    with pytest.raises(SettingsError, match="more than the"):
        load_settings(ws, home)


def test_no_files_means_no_rules(ws: Path, home: Path) -> None:
    settings = load_settings(ws, home)
    assert settings == Settings(ws, home, settings.trust)
    assert not settings.trust.trusted and not settings.trust.needed


def test_flags_come_last_and_bad_flag_rules_are_errors(ws: Path, home: Path) -> None:
    write(home / "settings.json", {"permissions": {"defaultMode": "auto"}})
    flags = SettingsFlags(mode="ask", allow=("bash(make)",), deny=("web_fetch",))
    settings = load_settings(ws, home, flags=flags)
    assert settings.default_mode is not None and settings.default_mode.value == "ask"
    assert [(r.kind, r.text, r.source.scope) for r in settings.rules] == [
        ("allow", "bash(make)", "flags"),
        ("deny", "web_fetch", "flags"),
    ]
    with pytest.raises(SettingsError, match=r"--deny 'bash\(\)'"):
        load_settings(ws, home, flags=SettingsFlags(deny=("bash()",)))
