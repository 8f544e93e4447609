"""The rule grammar: tool names and Claude Code's aliases, each specifier kind, and errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from tether.errors import RuleError
from tether.settings.matcher import Allow, FetchUse, NoRule, ToolUse, judge
from tether.settings.paths import PathPattern
from tether.settings.rules import AnyUse, CommandSpec, DomainSpec, parse_rule
from tether.settings.sources import SettingsSource

SOURCE = SettingsSource("user", Path("/home/u/.tether/settings.json"))


def parse(text: str, kind: str = "allow"):  # type: ignore[no-untyped-def]
    return parse_rule(text, kind, SOURCE, root=Path("/ws"), home=Path("/home/u"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("Read(src/**)", "read"),
        ("Edit", "edit"),
        ("MultiEdit(x)", "edit"),
        ("NotebookEdit(x.ipynb)", "edit"),
        ("Write(x)", "write"),
        ("Bash(npm test)", "bash"),
        ("WebFetch(domain:x.org)", "web_fetch"),
        ("WebSearch", "web_search"),
        ("Grep", "grep"),
        ("Glob(src)", "glob"),
        ("web_search", "web_search"),
        ("mcp__git", "mcp__git"),
        ("mcp__git__*", "mcp__git"),
        ("mcp__git__log", "mcp__git__log"),
    ],
)
def test_tool_names_and_aliases(text: str, tool: str) -> None:
    assert parse(text).tool == tool


def test_specifiers() -> None:
    assert parse("bash(npm test)").spec == CommandSpec(("npm", "test"), prefix=False)
    assert parse("bash(npm run test:*)").spec == CommandSpec(("npm", "run", "test"), prefix=True)
    assert parse("bash(git commit -m 'a b' *)").spec == CommandSpec(
        ("git", "commit", "-m", "a b"), prefix=True
    )
    assert parse("bash(*)").spec == AnyUse()
    assert parse("bash").spec == AnyUse()
    assert parse("web_fetch(domain:Docs.Python.org)").spec == DomainSpec("docs.python.org", False)
    assert parse("web_fetch(domain:*.python.org)").spec == DomainSpec("python.org", True)
    assert isinstance(parse("read(*)").spec, PathPattern)  # the project's files, not all files
    assert parse("Bash(npm test)").canonical == "bash(npm test)"
    assert parse("read(x)", "deny").describe() == (
        "deny rule read(x) in /home/u/.tether/settings.json"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bash(", "expected Tool or Tool(specifier)"),
        ("9lives", "expected Tool or Tool(specifier)"),
        ("Teleport", "unknown tool 'Teleport'"),
        ("bash()", "empty specifier"),
        ("bash(npm 'test)", "does not parse"),
        ("bash(:*)", "no command before :*"),
        ("TodoWrite", "not supported: tether's todo tool never asks"),
        ("SlashCommand(/x)", "not supported: tether's model does not run slash commands"),
        ("bash(a | b)", "one simple command"),
        ("bash(a > f)", "one simple command"),
        ("bash(echo $(id))", "one simple command"),
        ("web_fetch(docs.python.org)", "expected domain:HOST"),
        ("web_fetch(domain:http://x)", "not a host name"),
        ("web_search(cats)", "takes no specifier"),
        ("mcp__git(x)", "takes no specifier"),
        ("mcp__", "expected mcp__SERVER"),
    ],
)
def test_malformed_rules_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(RuleError) as raised:
        parse(text)
    assert message in str(raised.value)


def test_domains_tools_and_servers() -> None:
    rules = [
        parse("web_fetch(domain:docs.python.org)"),
        parse("web_fetch(domain:*.example.com)"),
        parse("mcp__git"),
        parse("mcp__notes__read_note"),
        parse("WebSearch"),
    ]
    assert isinstance(judge(rules, FetchUse("DOCS.python.org.")), Allow)
    assert isinstance(judge(rules, FetchUse("python.org")), NoRule)
    assert isinstance(judge(rules, FetchUse("api.example.com")), Allow)
    assert isinstance(judge(rules, FetchUse("example.com")), NoRule)
    assert isinstance(judge(rules, FetchUse("evil-example.com")), NoRule)
    assert isinstance(judge(rules, ToolUse("mcp__git__log")), Allow)
    assert isinstance(judge(rules, ToolUse("mcp__github__log")), NoRule)
    assert isinstance(judge(rules, ToolUse("mcp__notes__read_note")), Allow)
    assert isinstance(judge(rules, ToolUse("mcp__notes__write_note")), NoRule)
    assert isinstance(judge(rules, ToolUse("web_search")), Allow)
