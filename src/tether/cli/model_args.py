"""The model flags shared by `run`, `acp` and `web`: one spelling, one default."""

from __future__ import annotations

import argparse
import os

__all__ = ["DEFAULT_MODEL", "add_model_arguments", "default_model"]

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
