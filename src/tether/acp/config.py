"""Session config options as ACP presents them: a model select and a mode select.

`session/new` and `session/load` answer `configOptions`; `session/set_config_option` sets
one and answers the full set again. Values are `--model` specs for `model` and mode ids for
`mode`; anything else is an invalid-params error naming the choices.
"""

from __future__ import annotations

from collections.abc import Sequence

from acp import RequestError
from acp.schema import SessionConfigOptionSelect, SessionConfigSelectOption

from tether.acp.modes import AVAILABLE_MODES
from tether.policy import Mode

__all__ = ["MODEL_OPTION", "MODE_OPTION", "checked_value", "config_options"]

MODEL_OPTION = "model"
MODE_OPTION = "mode"


def config_options(
    model: str, models: Sequence[str], mode: Mode
) -> list[SessionConfigOptionSelect]:
    """The options of one session: its model among `models`, its mode among every mode."""
    return [
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


def checked_value(
    options: Sequence[SessionConfigOptionSelect], config_id: str, value: str | bool
) -> str:
    """`value` when it is one of the choices of option `config_id`; else invalid params."""
    option = next((o for o in options if o.id == config_id), None)
    if option is None:
        known = ", ".join(o.id for o in options)
        raise RequestError(
            -32602,
            f"Unknown config option {config_id!r}: use one of {known}",
            {"configId": config_id},
        )
    choices = [c.value for c in option.options if isinstance(c, SessionConfigSelectOption)]
    if not isinstance(value, str) or value not in choices:
        raise RequestError(
            -32602,
            f"{value!r} is not a choice of {config_id}: use one of {', '.join(choices)}",
            {"configId": config_id, "value": value, "choices": choices},
        )
    return value


def _label(spec: str) -> str:
    kind, _, rest = spec.partition(":")
    return rest.rsplit("/", 1)[-1] if kind == "script" else rest or kind
