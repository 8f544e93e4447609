"""Session config options as ACP presents them: model, thinking, mode and sandbox selects.

`session/new` and `session/load` answer `configOptions`; `session/set_config_option` sets
one and answers the full set again. Values are `--model` specs for `model`, `off`, `low`,
`medium`, `high` for `thinking`, mode ids for `mode` and `--sandbox` modes for `sandbox`
(a session without bash has none); anything else is an invalid-params error naming the choices.
"""

from __future__ import annotations

from collections.abc import Sequence

from acp.schema import SessionConfigOptionSelect, SessionConfigSelectOption

from tether.acp.errors import invalid_params
from tether.acp.modes import AVAILABLE_MODES
from tether.models.messages import ThinkingLevel
from tether.policy import PolicyMode
from tether.sandbox.policy import SandboxPolicy

__all__ = [
    "MODEL_OPTION",
    "MODE_OPTION",
    "SANDBOX_OPTION",
    "THINKING_OPTION",
    "checked_value",
    "config_options",
]

MODEL_OPTION = "model"
THINKING_OPTION = "thinking"
MODE_OPTION = "mode"
SANDBOX_OPTION = "sandbox"

_SANDBOX_CHOICES = (
    ("workspace-write", "Workspace write", "Writes only in the workspace and /tmp."),
    ("read-only", "Read-only", "Commands read the workspace but write only in /tmp."),
    ("off", "Off", "Commands run unsandboxed, as your own shell would run them."),
)


_THINKING_CHOICES: tuple[tuple[ThinkingLevel, str, str], ...] = (
    ("off", "Off", "Ask for no thinking ('think' in a prompt still asks for some)."),
    ("low", "Low", "A short think before answering (as 'think' asks)."),
    ("medium", "Medium", "Think harder (as 'think hard' asks)."),
    ("high", "High", "Think longest (as 'ultrathink' asks)."),
)


def config_options(
    model: str,
    models: Sequence[str],
    mode: PolicyMode,
    sandbox: SandboxPolicy | None = None,
    thinking: ThinkingLevel = "off",
) -> list[SessionConfigOptionSelect]:
    """The options of one session: its model among `models`, how hard it thinks, its mode,
    its bash sandbox."""
    options = [
        SessionConfigOptionSelect(
            id=MODEL_OPTION,
            name="Model",
            description="The model that answers the next prompt.",
            category="model",
            type="select",
            current_value=model,
            options=[SessionConfigSelectOption(value=spec, name=_label(spec)) for spec in models],
        ),
        SessionConfigOptionSelect(
            id=THINKING_OPTION,
            name="Thinking",
            description="How hard the model thinks before it answers.",
            category="thought_level",
            type="select",
            current_value=thinking,
            options=[
                SessionConfigSelectOption(value=value, name=name, description=description)
                for value, name, description in _THINKING_CHOICES
            ],
        ),
        SessionConfigOptionSelect(
            id=MODE_OPTION,
            name="Mode",
            description="What may run without asking.",
            category="mode",
            type="select",
            current_value=mode,
            options=[
                SessionConfigSelectOption(value=m.id, name=m.name, description=m.description)
                for m in AVAILABLE_MODES
            ],
        ),
    ]
    if sandbox is not None:
        network = "on" if sandbox.allow_network else "off (--allow-network keeps it)"
        options.append(
            SessionConfigOptionSelect(
                id=SANDBOX_OPTION,
                name="Sandbox",
                description=f"How bash commands are confined; the network is {network}.",
                type="select",
                current_value=sandbox.mode,
                options=[
                    SessionConfigSelectOption(value=value, name=name, description=description)
                    for value, name, description in _SANDBOX_CHOICES
                ],
            )
        )
    return options


def checked_value(
    options: Sequence[SessionConfigOptionSelect], config_id: str, value: str | bool
) -> str:
    """`value` when it is one of the choices of option `config_id`; else invalid params."""
    option = next((o for o in options if o.id == config_id), None)
    if option is None:
        known = ", ".join(o.id for o in options)
        raise invalid_params(
            f"Unknown config option {config_id!r}: use one of {known}", {"configId": config_id}
        )
    choices = [c.value for c in option.options if isinstance(c, SessionConfigSelectOption)]
    if not isinstance(value, str) or value not in choices:
        raise invalid_params(
            f"{value!r} is not a choice of {config_id}: use one of {', '.join(choices)}",
            {"configId": config_id, "value": value, "choices": choices},
        )
    return value


def _label(spec: str) -> str:
    kind, _, rest = spec.partition(":")
    return rest.rsplit("/", 1)[-1] if kind == "script" else rest or kind
