"""`tether permissions`: the effective rules of a workspace, a dry run of one use, and trust.

tether permissions [--json]                    every rule with its file, the mode, trust
tether permissions check "bash(npm test && rm -rf /)" [--json]
tether permissions trust | untrust             trust the workspace's own settings, or not
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from tether.cli.safe_output import print_json, stdout
from tether.errors import SettingsError
from tether.policy import MODES
from tether.policy.check import check_use
from tether.session import SessionStore
from tether.settings import (
    Allow,
    Ask,
    Deny,
    NoRule,
    Rule,
    Settings,
    SettingsFlags,
    TrustStore,
    load_settings,
)
from tether.settings.effective import effective_mode
from tether.settings.report import permissions_report, permissions_text

__all__ = ["configure", "run"]

_ACTIONS = ("check", "trust", "untrust")


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of `tether permissions`."""
    parser.add_argument(
        "action",
        nargs="*",
        metavar="ACTION",
        help="nothing to list; `check USE` (e.g. 'bash(npm test)'); `trust`; `untrust`",
    )
    parser.add_argument("--cwd", type=Path, default=Path.cwd(), help="the workspace root")
    parser.add_argument("--mode", choices=MODES, default=None, help="the mode to check in")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def run(args: argparse.Namespace) -> int:
    """List, check, trust or untrust; 2 for a bad action or use, 1 for unusable settings."""
    words: list[str] = args.action
    if words and (words[0] not in _ACTIONS or len(words) != (2 if words[0] == "check" else 1)):
        return _usage(f"unknown action {' '.join(words)!r}")
    if not args.cwd.is_dir():
        return _usage(f"--cwd {args.cwd} is not a directory")
    root = args.cwd.resolve()
    home = SessionStore.default().root
    try:
        settings = load_settings(root, home, flags=SettingsFlags(mode=args.mode))
    except SettingsError as exc:
        print(f"tether: error: {exc}", file=sys.stderr)
        return 1
    if not words:
        if args.json:
            print_json(permissions_report(settings))
        else:
            stdout().write(permissions_text(settings) + "\n")
        return 0
    store = TrustStore(home)
    match words[0]:
        case "trust":
            store.trust(root, settings.trust.fingerprint)
            granted = "; ".join(settings.trust.withheld) or "nothing more than before"
            stdout().write(f"Trusted {root}: its settings now apply ({granted}).\n")
            return 0
        case "untrust":
            known = store.revoke(root)
            said = "no longer trusted" if known else "was not trusted"
            stdout().write(f"{root} {said}: its own settings only deny and ask.\n")
            return 0
        case _:
            return _check(words[1], settings, args)


def _check(text: str, settings: Settings, args: argparse.Namespace) -> int:
    mode = args.mode or effective_mode(settings)
    try:
        result = asyncio.run(check_use(text, settings, mode))
    except ValueError as exc:
        return _usage(str(exc))
    verdict = result.verdict
    rules: tuple[Rule, ...] = ()
    concerns: tuple[str, ...] = ()
    match verdict:
        case Deny(rule=rule) | Ask(rule=rule):
            rules = (rule,)
        case Allow(rules=allowing):
            rules = allowing
        case NoRule(concerns=found):
            concerns = found
    if args.json:
        print_json(
            {
                "use": text,
                "mode": mode,
                "outcome": result.outcome,
                "verdict": verdict.verdict,
                "rules": [
                    {"kind": r.kind, "rule": r.canonical, "file": str(r.source)} for r in rules
                ],
                "concerns": list(concerns),
                "explanation": result.explanation,
            }
        )
        return 0
    said = {"allow": "allowed", "ask": "asks", "deny": "denied"}[result.outcome]
    lines = [f"{text}: {said} in {mode} mode", f"  {result.explanation}"]
    lines.extend(f"  no rule may allow it: {concern}" for concern in concerns)
    stdout().write("\n".join(lines) + "\n")
    return 0


def _usage(message: str) -> int:
    print(f"tether permissions: {message}", file=sys.stderr)
    print(
        "usage: tether permissions [check USE | trust | untrust] [--cwd DIR] [--json]",
        file=sys.stderr,
    )
    return 2
