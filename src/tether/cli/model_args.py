"""The model flags shared by `run`, `acp` and `web`: one spelling, one default."""

from __future__ import annotations

import argparse
import os

from tether.models.base import Model

__all__ = [
    "DEFAULT_MODEL",
    "add_model_arguments",
    "add_verbose_argument",
    "default_model",
    "require_key",
]

DEFAULT_MODEL = "openai"
"""DeepSeek's chat model through the OpenAI-compatible client (see `tether.models.factory`)."""


def default_model() -> str:
    """`$TETHER_MODEL` when set, else `openai`."""
    return os.environ.get("TETHER_MODEL") or DEFAULT_MODEL


def add_model_arguments(parser: argparse.ArgumentParser, *, api_key: bool = True) -> None:
    """`--model SPEC`, `--base-url URL` and (unless left out) `--api-key KEY`."""
    parser.add_argument(
        "--model",
        default=default_model(),
        metavar="SPEC",
        help="script:FILE, openai[:MODEL] or anthropic[:MODEL] (default: $TETHER_MODEL or openai)",
    )
    parser.add_argument("--base-url", metavar="URL", help="the API's base URL")
    if api_key:
        parser.add_argument("--api-key", metavar="KEY", help="the API key (default: from env)")


def add_verbose_argument(parser: argparse.ArgumentParser) -> None:
    """`--verbose`: print long cards (a big read) in full instead of collapsed."""
    parser.add_argument(
        "--verbose", dest="full", action="store_true", help="print long cards in full"
    )


def require_key(model: Model) -> None:
    """Fail now, with the provider's message, when a remote model has no API key."""
    from tether.models.anthropic_model import AnthropicModel
    from tether.models.openai_compat import OpenAICompatModel

    if isinstance(model, OpenAICompatModel | AnthropicModel):
        model.require_key()
