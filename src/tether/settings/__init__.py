"""Settings files, permission rules and workspace trust.

    settings = load_settings(workspace_root, home, flags=SettingsFlags(mode="ask"))
    settings.judge(CommandUse("npm test && rm -rf /", cwd, roots))  # Deny(rule) / Ask / ...
    settings.trust.trusted, settings.trust.withheld

`policy/` asks it; nothing here knows about sessions.
"""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
    from tether.settings.layer import Layer, SettingsProblem
    from tether.settings.loaded import Settings, load_settings
    from tether.settings.matcher import (
        Allow,
        Ask,
        CommandUse,
        Deny,
        FetchUse,
        FileUse,
        NoRule,
        ToolUse,
        Use,
        Verdict,
    )
    from tether.settings.rules import Rule, RuleKind
    from tether.settings.sources import (
        LOCAL_FILE,
        PROJECT_FILE,
        USER_FILE,
        Scope,
        SettingsSource,
    )
    from tether.settings.trust import TrustStore
    from tether.settings.values import HookEntry, SandboxSettings, SettingsFlags, Sourced, Trust

__all__ = [
    "LOCAL_FILE",
    "PROJECT_FILE",
    "USER_FILE",
    "Allow",
    "Ask",
    "CommandUse",
    "Deny",
    "FetchUse",
    "FileUse",
    "HookEntry",
    "Layer",
    "NoRule",
    "Rule",
    "RuleKind",
    "SandboxSettings",
    "Scope",
    "Settings",
    "SettingsFlags",
    "SettingsProblem",
    "SettingsSource",
    "Sourced",
    "ToolUse",
    "Trust",
    "TrustStore",
    "Use",
    "Verdict",
    "load_settings",
]

__getattr__ = lazy_names(
    __name__,
    {
        "Layer": "tether.settings.layer",
        "SettingsProblem": "tether.settings.layer",
        "HookEntry": "tether.settings.values",
        "SandboxSettings": "tether.settings.values",
        "Settings": "tether.settings.loaded",
        "SettingsFlags": "tether.settings.values",
        "Sourced": "tether.settings.values",
        "Trust": "tether.settings.values",
        "load_settings": "tether.settings.loaded",
        "Allow": "tether.settings.matcher",
        "Ask": "tether.settings.matcher",
        "CommandUse": "tether.settings.matcher",
        "Deny": "tether.settings.matcher",
        "FetchUse": "tether.settings.matcher",
        "FileUse": "tether.settings.matcher",
        "NoRule": "tether.settings.matcher",
        "ToolUse": "tether.settings.matcher",
        "Use": "tether.settings.matcher",
        "Verdict": "tether.settings.matcher",
        "Rule": "tether.settings.rules",
        "RuleKind": "tether.settings.rules",
        "LOCAL_FILE": "tether.settings.sources",
        "PROJECT_FILE": "tether.settings.sources",
        "USER_FILE": "tether.settings.sources",
        "Scope": "tether.settings.sources",
        "SettingsSource": "tether.settings.sources",
        "TrustStore": "tether.settings.trust",
    },
)
