"""The model flags shared by `run`, `acp` and `web`: one spelling, one default."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from tether.session.limits import DEFAULT_COMPACT_AT

if TYPE_CHECKING:
    from tether.models.base import Model
    from tether.models.messages import ThinkingLevel

__all__ = [
    "DEFAULT_MODEL",
    "LOGIN_HINT",
    "MIN_WINDOW",
    "add_context_arguments",
    "add_model_arguments",
    "add_verbose_argument",
    "default_model",
    "login_default",
    "missing_key",
    "require_key",
]

DEFAULT_MODEL = "openai"
"""DeepSeek's chat model through the OpenAI-compatible client (see `tether.models.factory`)."""
MIN_WINDOW = 1000
"""A smaller window could not hold the system prompt and the tools."""


def default_model() -> str:
    """`$TETHER_MODEL` when set, else the provider chosen at `/login`, else `openai`."""
    return os.environ.get("TETHER_MODEL") or login_default()


def login_default() -> str:
    """The model when nothing names one: the provider chosen at `/login`, else `openai`."""
    from tether.models.credentials import login_model

    return login_model() or DEFAULT_MODEL


def add_model_arguments(parser: argparse.ArgumentParser, *, api_key: bool = True) -> None:
    """`--model SPEC`, `--base-url URL` and (unless left out) `--api-key KEY`."""
    parser.add_argument(
        "--model",
        default=None,
        metavar="SPEC",
        help="script:FILE, openai[:MODEL], openai-responses[:MODEL], anthropic[:MODEL], "
        "azure:DEPLOYMENT, bedrock[:MODEL], vertex[:MODEL] or gemini[:MODEL] "
        "(default: $TETHER_MODEL, "
        "else the settings' model, else openai)",
    )
    parser.add_argument("--base-url", metavar="URL", help="the API's base URL")
    parser.add_argument(
        "--thinking",
        type=_level,
        default=None,
        metavar="LEVEL",
        help="how hard the model thinks: off, low, medium or high (default: the settings' "
        "thinking, else off; 'think hard' or 'ultrathink' in a prompt raise it for that prompt)",
    )
    if api_key:
        parser.add_argument("--api-key", metavar="KEY", help="the API key (default: from env)")


def add_context_arguments(parser: argparse.ArgumentParser) -> None:
    """`--context-window TOKENS` (default `$TETHER_CONTEXT_WINDOW`, else the model's) and
    `--compact-at FRACTION`."""
    parser.add_argument(
        "--context-window",
        type=_window,
        # A string default goes through `type` too, so a bad environment value is refused.
        default=os.environ.get("TETHER_CONTEXT_WINDOW") or None,
        metavar="TOKENS",
        help="the model's context window (default: $TETHER_CONTEXT_WINDOW, else the model's own)",
    )
    parser.add_argument(
        "--compact-at",
        type=_fraction,
        default=DEFAULT_COMPACT_AT,
        metavar="FRACTION",
        help=f"compact once a request would pass this part of the window ({DEFAULT_COMPACT_AT})",
    )


def _level(text: str) -> ThinkingLevel:
    from tether.models.thinking import parse_level  # once the flag is given, not for --help

    try:
        return parse_level(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _window(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a token count: {text!r}") from None
    if value < MIN_WINDOW:
        raise argparse.ArgumentTypeError(f"a context window is at least {MIN_WINDOW} tokens")
    return value


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a fraction: {text!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError("a fraction above 0 and at most 1, such as 0.8")
    return value


def add_verbose_argument(parser: argparse.ArgumentParser) -> None:
    """`-v/--verbose`: print long cards (a big read) in full instead of collapsed, and say
    which tools are not offered and why."""
    parser.add_argument(
        "-v",
        "--verbose",
        dest="full",
        action="store_true",
        help="print long cards in full, and say which tools the model is not offered and why",
    )


LOGIN_HINT = "or save one with /login in `tether`"
"""What a command that cannot ask for a key adds to the provider's message."""


def require_key(model: Model) -> None:
    """Fail now, with the provider's message and where a key can be saved, when a remote
    model has no API key."""
    from tether.errors import ModelError

    missing = missing_key(model)
    if missing is not None:
        raise ModelError(f"{missing}, {LOGIN_HINT}")


def missing_key(model: Model) -> str | None:
    """The provider's message when `model` has no API key, or `None` when it has one (or
    needs none)."""
    from tether.errors import ModelError
    from tether.models.streaming import StreamingModel

    if not isinstance(model, StreamingModel):
        return None
    try:
        model.require_key()
    except ModelError as exc:
        return str(exc)
    return None
