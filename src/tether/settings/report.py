"""The effective permissions of a workspace, for people and for scripts: each rule with the
file it comes from, the mode, trust, and what was wrong in the files.

One report serves `tether permissions`, the `/permissions` command and the web client's
settings panel, so all three say the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tether.settings.effective import effective_mode
from tether.settings.loaded import Settings
from tether.settings.paths import PathPattern
from tether.settings.rules import Rule, RuleKind
from tether.settings.sources import SettingsSource
from tether.settings.values import FileSummary, Sourced

__all__ = ["claude_file_lines", "permissions_report", "permissions_text"]

_KINDS: tuple[RuleKind, ...] = ("deny", "ask", "allow")


def permissions_report(settings: Settings, mode: str | None = None) -> dict[str, Any]:
    """The report as JSON: `{workspace, trusted, mode: {value, source, autoDisabledBy}, files,
    claudeFiles, rules, withheld, problems, additionalDirectories}`.

    `mode` is the session's mode when there is one (it may have been switched since the
    settings chose it)."""
    default = settings.default_mode
    disabled = settings.bypass_disabled
    home = Path.home()
    return {
        "workspace": str(settings.root),
        "trusted": settings.trust.trusted,
        "mode": {
            "value": mode or effective_mode(settings),
            "source": _source(default.source) if default else None,
            "autoDisabledBy": _source(disabled.source) if disabled else None,
        },
        "files": [_source(source) for source in settings.files],
        "claudeFiles": [_claude_file(summary, home) for summary in settings.claude_files],
        "rules": [_rule(rule) for kind in _KINDS for rule in settings.rules_of(kind)],
        "withheld": list(settings.trust.withheld),
        "problems": [
            {"file": str(p.source), "key": p.key, "message": p.message} for p in settings.problems
        ],
        "additionalDirectories": [_sourced(d) for d in settings.additional_directories],
    }


def permissions_text(
    settings: Settings, mode: str | None = None, answers: Sequence[str] = ()
) -> str:
    """The report as text: rules by kind (deny first, as they apply), each with its file,
    then what a running session's "always allow for this session" answers cover
    (`answers`)."""
    home = Path.home()
    lines = [f"Workspace {settings.root}: {_trust_line(settings)}"]
    default = settings.default_mode
    chosen = mode or effective_mode(settings)
    origin = (
        f" (from {_short(default.source, home)})"
        if default is not None and chosen == default.value
        else ""
    )
    lines.append(f"Mode: {chosen}{origin}")
    if settings.bypass_disabled is not None:
        where = _short(settings.bypass_disabled.source, home).split("  ", 1)[-1]
        lines.append(
            f"Auto mode is disabled by disableBypassPermissionsMode in {where}: a session "
            "switched to auto asks as in ask mode"
        )
    for kind in _KINDS:
        rules = settings.rules_of(kind)
        lines.append("")
        if not rules:
            lines.append(f"{kind}: none")
            continue
        lines.append(f"{kind}:")
        width = max(len(rule.canonical) for rule in rules)
        root = settings.root
        lines.extend(
            f"  {rule.canonical.ljust(width)}  {_short(rule.source, home)}{_note(rule, root)}"
            for rule in rules
        )
    if answers:
        lines.append("")
        lines.append("allowed for this session (your answers):")
        lines.extend(f"  {n}. {answer}" for n, answer in enumerate(answers, 1))
    if settings.claude_files:
        lines.append("")
        lines.append("Claude Code's files:")
        lines.extend(f"  {line}" for line in claude_file_lines(settings, home))
    if settings.additional_directories:
        lines.append("")
        lines.append("Additional directories:")
        lines.extend(
            f"  {d.value}  {_short(d.source, home)}" for d in settings.additional_directories
        )
    if settings.trust.withheld:
        lines.append("")
        lines.append("Waiting for trust (run `tether permissions trust` to apply them):")
        lines.extend(f"  {item}" for item in settings.trust.withheld)
    if settings.problems:
        lines.append("")
        lines.append("Problems (ignored):")
        lines.extend(f"  {problem}" for problem in settings.problems)
    if not settings.files:
        lines.append("")
        lines.append(
            "No settings files: add rules to .tether/settings.json (the project's), "
            ".tether/settings.local.json (yours) or $TETHER_HOME/settings.json."
        )
    return "\n".join(lines)


def claude_file_lines(settings: Settings, home: Path | None = None) -> list[str]:
    """One line per Claude Code settings file: what tether read from it, what waits for
    trust, how many keys it does not support (each a problem of its own)."""
    home = Path.home() if home is None else home
    return [_claude_line(summary, home) for summary in settings.claude_files]


def _claude_line(summary: FileSummary, home: Path) -> str:
    where = _short(summary.source, home).split("  ", 1)[-1]
    if summary.skipped is not None:
        return f"{where}: skipped ({summary.skipped})"
    read = ", ".join(summary.read) if summary.read else "nothing tether uses"
    line = f"{where}: read {read}"
    if summary.withheld:
        line += "; what it grants waits for trust"
    if summary.unsupported:
        line += f"; not supported: {', '.join(summary.unsupported)} (see the warnings)"
    return line


def _claude_file(summary: FileSummary, home: Path) -> dict[str, Any]:
    return {
        **_source(summary.source),
        "line": _claude_line(summary, home),
        "read": list(summary.read),
        "withheld": summary.withheld,
        "skipped": summary.skipped,
        "unsupported": list(summary.unsupported),
    }


def _trust_line(settings: Settings) -> str:
    if settings.trust.trusted:
        return "trusted"
    if settings.trust.withheld:
        return "not trusted (its own settings only deny and ask)"
    return "not trusted (its settings grant nothing, so nothing waits for trust)"


def _rule(rule: Rule) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "kind": rule.kind,
        "rule": rule.canonical,
        "text": rule.text,
        "tool": rule.tool,
        "source": _source(rule.source),
    }
    if isinstance(rule.spec, PathPattern):
        # Where the pattern starts, resolved: Claude Code's `/path` is not what it looks like.
        shown["paths"] = {"from": str(rule.spec.base), "anyDepth": not rule.spec.anchored}
    return shown


def _note(rule: Rule, root: Path) -> str:
    """What a rule's text does not say itself."""
    spec = rule.spec
    if rule.source.claude and isinstance(spec, PathPattern):
        written = spec.text.strip()
        if written.startswith("/") and not written.startswith("//"):
            return f"  (/ is the project root, {root})"
    return ""


def _sourced(value: Sourced[Path]) -> dict[str, Any]:
    return {"value": str(value.value), "source": _source(value.source)}


def _source(source: SettingsSource) -> dict[str, Any]:
    return {"scope": source.scope, "path": None if source.path is None else str(source.path)}


def _short(source: SettingsSource, home: Path) -> str:
    if source.path is None:
        return "command line"
    path = source.path
    shown = f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path)
    return f"{source.scope}  {shown}"
