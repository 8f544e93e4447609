"""What a command adds to every session it starts, beyond the workspace's settings.

Kept apart from `compose` and light: `tether acp` makes one before it answers `initialize`,
when none of the sessions' machinery has loaded yet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tether.models.base import Model
from tether.models.factory import make_model
from tether.session.limits import DEFAULT_COMPACT_AT

__all__ = ["Launch"]


@dataclass(frozen=True, kw_only=True)
class Launch:
    """A command's part of each session's configuration: what no setting carries."""

    default_model: str | Callable[[], str]
    """The model when neither `--model`, `$TETHER_MODEL` nor the settings name one (a
    function is asked as each session starts: the provider chosen at `/login` may change
    while an agent serves)."""
    base_url: str | None = None
    """The provider's endpoint (`--base-url`); `None`: the provider's own."""
    api_key: str | None = None
    """The key (`--api-key`); `None`: from the environment."""
    allow_private_fetch: bool = False
    """Whether `web_fetch` may reach loopback, private and link-local addresses."""
    max_steps: int | None = None
    """Model requests per prompt; `None`: the session's default."""
    context_window: int | None = None
    """Tokens the model's context holds; `None` looks the model up."""
    compact_at: float = DEFAULT_COMPACT_AT
    checkpoints: bool = True
    """Whether the workspace is saved before each prompt and after each step that may write."""

    def model(self, spec: str) -> Model:
        """The model `spec` names, at this command's endpoint and with its key (`ModelError`
        for a spec no provider takes)."""
        return make_model(spec, base_url=self.base_url, api_key=self.api_key)
