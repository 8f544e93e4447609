"""Claude Code's settings files, read with Claude Code's meaning.

`~/.claude/settings.json` (`$CLAUDE_CONFIG_DIR/settings.json`), `.claude/settings.json` and
`.claude/settings.local.json` join the merge (`tether.settings.sources`). Claude Code reads
them as JSON with comments, so `//` and `/* */` comments and trailing commas are taken out
first; a file that still does not parse is skipped with a warning, never fatal.

The keys tether implements are read as Claude Code means them: `permissions` (`allow`, `ask`,
`deny`, `defaultMode`, `additionalDirectories`, `disableBypassPermissionsMode`), `env`,
`hooks`, `model`, and the approvals of `.mcp.json`'s servers (`enableAllProjectMcpServers`,
`enabledMcpjsonServers`, `disabledMcpjsonServers`). Every other key is a warning naming the
file, the key and why tether does not read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tether.lazy import pattern
from tether.settings.modes import MODES, PolicyMode

__all__ = [
    "CLAUDE_KEYS",
    "McpjsonApprovals",
    "claude_mode",
    "claude_model",
    "unsupported_reason",
]

CLAUDE_KEYS = (
    "$schema",
    "permissions",
    "env",
    "hooks",
    "model",
    "disableBypassPermissionsMode",
    "enableAllProjectMcpServers",
    "enabledMcpjsonServers",
    "disabledMcpjsonServers",
)
"""The keys of Claude Code's settings that tether reads."""

_MODES: dict[str, str] = {
    "default": "ask",
    "acceptEdits": "accept-edits",
    "bypassPermissions": "auto",
    "plan": "plan",
}
"""Claude Code's `defaultMode` values and tether's mode for each."""

_NO_MODE: dict[str, str] = {
    "dontAsk": "tether has no mode that refuses whatever no rule allows",
    "auto": (
        "Claude Code's auto mode checks each call with a classifier, which tether does not "
        "have (tether's auto lets everything pass; Claude Code calls that bypassPermissions)"
    ),
}

_ALIASES = pattern(r"(default|best|sonnet|opus|haiku|opusplan|sonnetplan)(\[1m\])?")

_REASONS: dict[str, str] = {
    "apiKeyHelper": "tether takes API keys from --api-key and the environment",
    "awsAuthRefresh": "tether takes credentials from the environment",
    "awsCredentialExport": "tether takes credentials from the environment",
    "forceLoginMethod": "tether has no login",
    "forceLoginOrgUUID": "tether has no login",
    "cleanupPeriodDays": "tether keeps sessions until `tether sessions` deletes them",
    "includeCoAuthoredBy": "tether does not write commits itself",
    "statusLine": "tether's terminal has no status line command",
    "outputStyle": "tether has no output styles",
    "spinnerTipsEnabled": "tether's terminal shows no tips",
    "alwaysThinkingEnabled": "set tether's `thinking` or --thinking instead",
    "enabledPlugins": "tether does not install Claude Code plugins",
    "extraKnownMarketplaces": "tether does not install Claude Code plugins",
    "sandbox": (
        "Claude Code's sandbox settings have another shape; set tether's `sandbox` in "
        ".tether/settings.json"
    ),
    "disableAllHooks": "remove the hooks instead, or use .tether/settings.json",
    "allowManagedHooksOnly": "tether reads no managed settings",
    "companyAnnouncements": "tether reads no managed settings",
    "otelHeadersHelper": "tether exports no telemetry",
    "permissions.disableAutoMode": "tether has no classifier mode to disable",
    **dict.fromkeys(
        ("allow", "ask", "deny", "defaultMode", "additionalDirectories"),
        "Claude Code reads it under `permissions`, not at the top level",
    ),
}
"""Why a Claude Code key is not read, for the keys people often set."""

_GENERIC = "a Claude Code setting tether has no counterpart for"


@dataclass(frozen=True)
class McpjsonApprovals:
    """What a settings file says about the servers of the project's `.mcp.json`."""

    enable_all: bool | None = None
    enabled: tuple[str, ...] = ()
    disabled: tuple[str, ...] = ()


def claude_mode(value: object) -> PolicyMode | str:
    """tether's mode for Claude Code's `defaultMode` value; a `str` that is not a mode is why
    it cannot be used."""
    if not isinstance(value, str):
        return f"expected a mode name, got {value!r}"
    mode = _MODES.get(value)
    if mode is not None:
        for known in MODES:
            if known == mode:
                return known
        return f"{value!r} is not supported: tether has no {mode} mode yet"
    if value in _NO_MODE:
        return f"{value!r} is not supported: {_NO_MODE[value]}"
    return f"{value!r} is not a Claude Code mode; expected one of {', '.join(_MODES)}"


def claude_model(value: object) -> tuple[str | None, str | None]:
    """tether's model spec for Claude Code's `model` value, or why there is none.

    A model id (`claude-sonnet-4-5`) is Anthropic's (`anthropic:claude-sonnet-4-5`); an alias
    (`sonnet`, `opus`) is Claude Code's own choice of model, which tether cannot know."""
    if not isinstance(value, str) or not value.strip():
        return None, f"expected a model id such as claude-sonnet-4-5, got {value!r}"
    name = value.strip()
    if _ALIASES.fullmatch(name):
        return None, (
            f"{name!r} is Claude Code's alias for a model it picks; write the model's id "
            "(claude-...) or set tether's `model` in .tether/settings.json"
        )
    if name.startswith("claude-"):
        return f"anthropic:{name}", None
    return None, f"{name!r} is not an Anthropic model id (claude-...)"


def unsupported_reason(key: str) -> str:
    """Why the Claude Code key `key` (`statusLine`, `permissions.foo`) is not read."""
    reason = _REASONS.get(key, _GENERIC)
    return f"not supported: {reason}"
