"""Settings files, permission rules and workspace trust.

    settings = load_settings(workspace_root, home, flags=SettingsFlags(mode="ask"))
    settings.judge(CommandUse("npm test && rm -rf /", cwd, roots))  # Deny(rule) / Ask / ...
    settings.trust.trusted, settings.trust.withheld

`policy/` asks it; nothing here knows about sessions.
"""

from tether.settings.files import Layer, SettingsError, SettingsProblem
from tether.settings.loaded import (
    HookEntry,
    SandboxSettings,
    Settings,
    SettingsFlags,
    Sourced,
    Trust,
    load_settings,
)
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
from tether.settings.rules import Rule, RuleError, RuleKind
from tether.settings.sources import (
    LOCAL_FILE,
    PROJECT_FILE,
    USER_FILE,
    Scope,
    SettingsSource,
)
from tether.settings.trust import TrustStore

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
    "RuleError",
    "RuleKind",
    "SandboxSettings",
    "Scope",
    "Settings",
    "SettingsError",
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
