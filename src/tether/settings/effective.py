"""The values a session runs with, from its settings: the mode, the model, the sandbox, the
variables for tools and the extra directories.

What a value comes from, first found wins: the command line (the settings' `flags` layer),
then the environment (`$TETHER_MODEL`, `$TETHER_SANDBOX`), then the settings files, then
the default.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from tether.models.catalog import CATALOG, ModelInfo, Price
from tether.models.messages import ThinkingLevel
from tether.sandbox.modes import SANDBOX_ENV
from tether.sandbox.policy import SandboxPolicy
from tether.settings.hookfiles import hook_files
from tether.settings.loaded import Settings
from tether.settings.modes import DEFAULT_MODE, PolicyMode
from tether.tools.web.backends.choice import SearchSettings, SearchSetup, choose_backend

__all__ = [
    "effective_mode",
    "extra_roots",
    "model_catalog",
    "model_spec",
    "sandbox_policy",
    "search_setup",
    "thinking_level",
    "tool_env",
    "web_fetch_model",
]


def effective_mode(settings: Settings) -> PolicyMode:
    """The mode: `--mode`, else `permissions.defaultMode`, else ask; never auto where Claude
    Code's `disableBypassPermissionsMode` forbids it (`load_settings` refuses `--mode auto`
    there)."""
    chosen = settings.default_mode.value if settings.default_mode is not None else DEFAULT_MODE
    if chosen == "auto" and settings.bypass_disabled is not None:
        return DEFAULT_MODE
    return chosen


def model_spec(settings: Settings, default: str) -> str:
    """The model: `--model`, else `$TETHER_MODEL`, else the settings' `model`, else `default`."""
    chosen = settings.model
    if chosen is not None and chosen.source.scope == "flags":
        return chosen.value
    return os.environ.get("TETHER_MODEL") or (chosen.value if chosen else default)


def thinking_level(settings: Settings) -> ThinkingLevel | None:
    """How hard to think: `--thinking`, else the settings' `thinking`; `None` when neither
    says (a loaded session then keeps what its log says, a new one is `off`)."""
    return settings.thinking.value if settings.thinking is not None else None


def model_catalog(settings: Settings) -> dict[str, ModelInfo]:
    """The settings' `models` entries as catalog entries, each over the catalog's own."""
    out: dict[str, ModelInfo] = {}
    for name, entry in settings.models.items():
        known = CATALOG.get(name) or ModelInfo(name)
        price = known.price
        if entry.price is not None:
            given = entry.price
            price = Price(given.input, given.output, given.cache_read, given.cache_write)
        out[name] = ModelInfo(
            name,
            context_window=entry.context_window or known.context_window,
            max_output=entry.max_output or known.max_output,
            price=price,
            thinks=known.thinks if entry.thinks is None else entry.thinks,
        )
    return out


def sandbox_policy(settings: Settings) -> SandboxPolicy:
    """The sandbox: `--sandbox`, else `$TETHER_SANDBOX`, else `sandbox.mode`, else
    workspace-write; the network as `--allow-network` or `sandbox.allowNetwork` say; the
    variables `sandbox.env` passes in and the limits (`sandbox.tmpSizeMiB`, `maxProcesses`,
    `memoryMiB`). Raises `ValueError` for a bad `$TETHER_SANDBOX`."""
    chosen = settings.sandbox.mode
    if chosen is not None and chosen.source.scope == "flags":
        mode: str | None = chosen.value
    else:
        mode = os.environ.get(SANDBOX_ENV) or (chosen.value if chosen else None)
    network = settings.sandbox.allow_network
    policy = SandboxPolicy.from_env(mode, allow_network=bool(network and network.value))
    size = settings.sandbox.tmp_size_mib
    processes = settings.sandbox.max_processes
    memory = settings.sandbox.memory_mib
    return replace(
        policy,
        env=tuple(dict.fromkeys(entry.value for entry in settings.sandbox.env)),
        tmp_size_mib=size.value if size is not None else policy.tmp_size_mib,
        max_processes=processes.value if processes is not None else policy.max_processes,
        memory_mib=memory.value if memory is not None else policy.memory_mib,
        protected=hook_files(settings),
    )


def search_setup(settings: Settings) -> SearchSetup:
    """The `web_search` backend: `webSearch.provider` (and `baseUrl`), else the first key in
    the environment, the settings' `env` included."""
    provider = settings.web_search_provider
    base_url = settings.web_search_base_url
    source = provider.source if provider is not None else base_url.source if base_url else None
    chosen = SearchSettings(
        provider=provider.value if provider is not None else None,
        base_url=base_url.value if base_url is not None else None,
        source=str(source) if source is not None else "the settings",
    )
    return choose_backend({**os.environ, **tool_env(settings)}, chosen)


def web_fetch_model(settings: Settings) -> str | None:
    """The model spec `webFetch.model` names for answering a fetch's `prompt`, if any."""
    return settings.web_fetch_model.value if settings.web_fetch_model is not None else None


def tool_env(settings: Settings) -> dict[str, str]:
    """The variables the settings' `env` gives the commands tools run."""
    return {name: entry.value for name, entry in settings.env.items()}


def extra_roots(settings: Settings) -> tuple[Path, ...]:
    """The directories `permissions.additionalDirectories` adds to the workspace."""
    return tuple(entry.value for entry in settings.additional_directories)
