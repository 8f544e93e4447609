"""The settings file's shape: pydantic models that validate it and generate its JSON Schema.

The schema is pinned in `schema/settings.schema.json`. Validation goes key by key (see
`tether.settings.files`), so an unknown key or a bad value is reported and dropped while the
rest of the file still applies.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tether.settings.hook_events import HOOK_EVENTS, HookEvent

__all__ = [
    "CLAUDE_EVENTS_NOT_RUN",
    "CLAUDE_HOOK_KEYS_IGNORED",
    "DEFAULT_TMP_SIZE_MIB",
    "HOOK_EVENTS",
    "MODE_ALIASES",
    "RULE_PATTERN",
    "CommandHook",
    "HookEvent",
    "HookGroup",
    "ModeName",
    "PermissionsSection",
    "PromptHook",
    "SandboxSection",
    "SettingsDocument",
    "WebFetchSection",
    "WebSearchSection",
    "settings_schema",
    "settings_schema_text",
]

DEFAULT_TMP_SIZE_MIB = 1024
"""The size of the sandbox's private `/tmp` when `sandbox.tmpSizeMiB` does not say."""

RULE_PATTERN = r"^[A-Za-z_][A-Za-z0-9_-]*(__\*)?(\(.*\))?$"
"""What a rule looks like: `Tool` or `Tool(specifier)` (the grammar checks the rest)."""

MODE_ALIASES: dict[str, Literal["ask", "accept-edits", "auto", "plan"]] = {
    "ask": "ask",
    "accept-edits": "accept-edits",
    "auto": "auto",
    "plan": "plan",
    "default": "ask",
    "acceptEdits": "accept-edits",
    "bypassPermissions": "auto",
}
"""`defaultMode` values: tether's modes and Claude Code's names for them."""


CLAUDE_EVENTS_NOT_RUN = frozenset(
    {"PermissionDenied", "PostToolBatch", "StopFailure", "PostCompact", "Setup"}
    | {"TeammateIdle", "TaskCompleted", "InstructionsLoaded", "ConfigChange"}
)
"""Claude Code's hook events that tether has no moment for: named in a warning, not run."""

CLAUDE_HOOK_KEYS_IGNORED = {
    "statusMessage": "not shown: tether names the hook in its notice instead",
    "async": "not followed: the hook runs before the session goes on",
}
"""Keys of a Claude Code hook that tether reads past (with a warning): what runs is the same."""

ModeName = Literal[
    "ask", "accept-edits", "auto", "plan", "default", "acceptEdits", "bypassPermissions"
]
"""What `defaultMode` may say."""

_STRICT = ConfigDict(extra="forbid", populate_by_name=True, frozen=True, defer_build=True)

Rule = Annotated[str, Field(pattern=RULE_PATTERN)]


Dollars = Annotated[float, Field(ge=0, allow_inf_nan=False)]


class PriceSection(BaseModel):
    """US dollars per million tokens."""

    model_config = _STRICT

    input: Dollars
    output: Dollars
    cache_read: Dollars | None = Field(default=None, alias="cacheRead")
    cache_write: Dollars | None = Field(default=None, alias="cacheWrite")


class ModelEntry(BaseModel):
    """One model's numbers, over the catalog's (or a model it does not know)."""

    model_config = _STRICT

    context_window: Annotated[int, Field(ge=1000)] | None = Field(
        default=None, alias="contextWindow"
    )
    max_output: Annotated[int, Field(ge=1)] | None = Field(default=None, alias="maxOutput")
    price: PriceSection | None = None
    thinks: bool | None = None


class PermissionsSection(BaseModel):
    """`permissions`: rules that allow, ask or deny, the starting mode, extra directories."""

    model_config = _STRICT

    allow: list[Rule] = Field(default_factory=list, description="Rules that pass without asking.")
    ask: list[Rule] = Field(default_factory=list, description="Rules that always ask.")
    deny: list[Rule] = Field(default_factory=list, description="Rules that always refuse.")
    default_mode: ModeName | None = Field(
        default=None,
        alias="defaultMode",
        description="The mode a session starts in (Claude Code's names are accepted).",
    )
    additional_directories: list[str] = Field(
        default_factory=list,
        alias="additionalDirectories",
        description="Directories added to the workspace (relative to the project root).",
    )


class SandboxSection(BaseModel):
    """`sandbox`: how bash commands are confined."""

    model_config = _STRICT

    mode: Literal["workspace-write", "read-only", "off"] | None = None
    allow_network: bool | None = Field(default=None, alias="allowNetwork")
    env: list[Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]] = Field(
        default_factory=list, description="Names of variables passed into the sandbox."
    )
    tmp_size_mib: Annotated[int, Field(ge=1)] | None = Field(
        default=None, alias="tmpSizeMiB", description="Size of the private /tmp (default 1024)."
    )
    max_processes: Annotated[int, Field(ge=1)] | None = Field(default=None, alias="maxProcesses")
    memory_mib: Annotated[int, Field(ge=1)] | None = Field(default=None, alias="memoryMiB")


class WebSearchSection(BaseModel):
    """`webSearch`: the search backend of `web_search`."""

    model_config = _STRICT

    provider: Literal["brave", "exa", "tavily", "searxng"] | None = None
    base_url: str | None = Field(
        default=None,
        alias="baseUrl",
        description=(
            "The address of the provider's API (a proxy), or of the SearXNG instance; "
            "without a provider, a SearXNG instance."
        ),
    )


class WebFetchSection(BaseModel):
    """`webFetch`: how `web_fetch` answers the question a call asks of a page."""

    model_config = _STRICT

    model: Annotated[str, Field(min_length=1)] | None = Field(
        default=None,
        description=(
            "The model spec (as `--model` takes it) that answers a fetch's `prompt` from the "
            "page; default: the session's model."
        ),
    )


class CommandHook(BaseModel):
    """A hook that runs a shell command."""

    model_config = _STRICT

    type: Literal["command"]
    command: Annotated[str, Field(min_length=1)]
    timeout: Annotated[float, Field(gt=0)] | None = Field(default=None, description="Seconds.")
    sandbox: bool | None = Field(
        default=None,
        description=(
            "false: run outside the session's sandbox, with your rights (tether's own key); "
            "what it reads is then checked for changes before each run."
        ),
    )


class PromptHook(BaseModel):
    """A hook that asks a model."""

    model_config = _STRICT

    type: Literal["prompt"]
    prompt: Annotated[str, Field(min_length=1)]
    timeout: Annotated[float, Field(gt=0)] | None = None


class HookGroup(BaseModel):
    """The hooks of one event for the tools `matcher` names (all of them when absent)."""

    model_config = _STRICT

    matcher: str | None = None
    hooks: list[Annotated[CommandHook | PromptHook, Field(discriminator="type")]]


class SettingsDocument(BaseModel):
    """A settings file: `$TETHER_HOME/settings.json`, `.tether/settings.json` or
    `.tether/settings.local.json`."""

    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
        frozen=True,
        defer_build=True,
        title="tether settings",
        json_schema_extra={"$id": "https://tether.dev/schema/settings.schema.json"},
    )

    schema_: str | None = Field(default=None, alias="$schema")
    permissions: PermissionsSection | None = None
    model: Annotated[str, Field(min_length=1)] | None = Field(
        default=None, description="The model spec, as `--model` takes it."
    )
    thinking: Literal["off", "low", "medium", "high"] | None = Field(
        default=None, description="How hard the model thinks, as `--thinking` takes it."
    )
    models: dict[Annotated[str, Field(min_length=1)], ModelEntry] | None = Field(
        default=None, description="Model catalog entries by model id: windows, prices, thinking."
    )
    sandbox: SandboxSection | None = None
    env: dict[str, str] | None = Field(
        default=None, description="Environment variables for the commands tools run."
    )
    hooks: dict[HookEvent, list[HookGroup]] | None = Field(
        default=None, description="Claude Code's hook configuration."
    )
    web_search: WebSearchSection | None = Field(default=None, alias="webSearch")
    web_fetch: WebFetchSection | None = Field(default=None, alias="webFetch")


def settings_schema() -> dict[str, Any]:
    """The JSON Schema of a settings file."""
    schema = SettingsDocument.model_json_schema(by_alias=True, mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def settings_schema_text() -> str:
    """The schema as the exact text stored in the repository."""
    return json.dumps(settings_schema(), indent=2, sort_keys=True) + "\n"
