"""What every way of running a session shares, above the session itself.

- `compose`: the one composition root. A session's configuration is built from the
  workspace's settings by `session_config`, whatever starts it (`tether run`, the
  interactive terminal, ACP, a batch task); a command adds only what no setting carries
  (`Launch`: its endpoint and key, its flags, its limits). A new setting is one edit there.
- `dispatch`: slash commands dispatched once. A surface resolves what was typed
  (`tether.commands.resolve`) and hands the `Invocation` to `dispatch.dispatch` (imported
  from its module: the package's attribute of that name is the module) with its `Surface`
  (say, notice, pick, set the mode, prompt, checkpoint, its own terminal commands).

config = session_config(settings, Launch(default_model="openai"), asker=None)
status = await dispatch(resolve(text, commands), surface)
"""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
    from tether.surface.compose import (
        first_model,
        session_config,
        session_tools,
        settle_tools,
    )
    from tether.surface.dispatch import MODE_OPTIONS, Option, Surface
    from tether.surface.launch import Launch

__all__ = [
    "MODE_OPTIONS",
    "Launch",
    "Option",
    "Surface",
    "first_model",
    "session_config",
    "session_tools",
    "settle_tools",
]

__getattr__ = lazy_names(
    __name__,
    {
        "Launch": "tether.surface.launch",
        "MODE_OPTIONS": "tether.surface.dispatch",
        "Option": "tether.surface.dispatch",
        "Surface": "tether.surface.dispatch",
        "first_model": "tether.surface.compose",
        "session_config": "tether.surface.compose",
        "session_tools": "tether.surface.compose",
        "settle_tools": "tether.surface.compose",
    },
)
