"""Deny rules for reading reach into searches: grep and glob leave the denied files out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tools.search.support import context, glob, grep, write
from tether.policy import PolicyGate
from tether.settings import load_settings
from tether.tools import Workspace

DENY = [
    "read(secrets)",
    "read(*.env)",
    "Read(./config/prod.yml)",
    "read(src/**/private.txt)",
    "grep(docs/internal/**)",
]


@pytest.fixture
def ws_files(ws: Path, isolated_environment: Path) -> PolicyGate:
    write(
        ws,
        {
            "app.py": "password = None\n",
            "secrets/key.txt": "password = hunter2\n",
            "deep/.env": "password=env\n",
            "deep/x.env": "password=x\n",
            "config/prod.yml": "password: prod\n",
            "config/dev.yml": "password: dev\n",
            "src/a/private.txt": "password private\n",
            "src/a/public.txt": "password public\n",
            "docs/internal/notes.md": "password notes\n",
            "docs/readme.md": "password readme\n",
        },
    )
    (ws / ".tether").mkdir()
    (ws / ".tether/settings.json").write_text(json.dumps({"permissions": {"deny": DENY}}))
    return PolicyGate(Workspace.at(ws), "auto", settings=load_settings(ws, isolated_environment))


async def test_grep_leaves_out_what_read_rules_deny(ws: Path, ws_files: PolicyGate) -> None:
    result = await grep(
        ws, context(ws, ws_files), pattern="password", output_mode="files_with_matches"
    )
    assert not result.is_error, result.text()
    listed = set(result.text().split("\n"))
    assert {"app.py", "config/dev.yml", "src/a/public.txt", "docs/readme.md"} <= listed
    for hidden in ("secrets", "x.env", ".env", "prod.yml", "private.txt", "notes.md"):
        assert hidden not in result.text(), hidden
    inside = await grep(ws, context(ws, ws_files), pattern="password", path="src")
    assert "public" in inside.text() and "private" not in inside.text()


async def test_glob_leaves_them_out_but_grep_rules_only_grep(
    ws: Path, ws_files: PolicyGate
) -> None:
    result = await glob(ws, context(ws, ws_files), pattern="**/*")
    assert not result.is_error, result.text()
    text = result.text()
    for hidden in ("secrets/", "x.env", "prod.yml", "private.txt"):
        assert hidden not in text, hidden
    assert "docs/internal/notes.md" in text  # a grep rule does not cover glob
    assert "config/dev.yml" in text


async def test_searching_inside_a_denied_directory_is_denied(
    ws: Path, ws_files: PolicyGate
) -> None:
    result = await grep(ws, context(ws, ws_files), pattern="password", path="secrets")
    assert result.is_error
    assert "denied by the deny rule read(secrets)" in result.text()


async def test_braces_in_a_denied_name_are_its_own_letters(
    ws: Path, isolated_environment: Path
) -> None:
    # A rule's `{` is a letter; ripgrep's globs read `{a,b}` as either: the exclusion must
    # escape them, or `keys{old}` and `*.{bak}` would be searched though denied.
    write(
        ws,
        {
            "keys{old}/id.txt": "password old\n",
            "keys/id.txt": "password keys\n",
            "deep/dump.{bak}": "password bak\n",
            "deep/dump.bak": "password plain\n",
        },
    )
    (ws / ".tether").mkdir()
    deny = ["read(./keys{old})", "read(*.{bak})"]
    (ws / ".tether/settings.json").write_text(json.dumps({"permissions": {"deny": deny}}))
    gate = PolicyGate(Workspace.at(ws), "auto", settings=load_settings(ws, isolated_environment))
    result = await grep(ws, context(ws, gate), pattern="password", output_mode="files_with_matches")
    assert not result.is_error, result.text()
    listed = set(result.text().split("\n"))
    assert "keys/id.txt" in listed and "deep/dump.bak" in listed
    assert "keys{old}/id.txt" not in listed and "deep/dump.{bak}" not in listed
