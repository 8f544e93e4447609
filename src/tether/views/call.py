"""Call-side cards: how a tool call is shown before it has a result."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter
from pydantic.dataclasses import dataclass

from tether.views.parts import FileDiff, Location
from tether.wire import DEFERRED, WIRE_CONFIG, Opt

__all__ = [
    "TOOL_CALL_VIEW",
    "DiffCallView",
    "GenericCallView",
    "TerminalCallView",
    "ToolCallView",
    "ToolKind",
]

ToolKind = Literal["read", "edit", "delete", "move", "search", "execute", "fetch", "other"]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class GenericCallView:
    """Any call: a title, an ACP tool kind, the raw input and the places it touches."""

    card: Literal["generic"] = "generic"
    title: str
    kind: Opt[ToolKind] = None
    raw_input: Opt[Any] = None
    content: Opt[str] = None
    markdown: Opt[bool] = None
    """`content` is Markdown to render (a plan); a client that does not render it shows the
    text as it is, which reads the same."""
    locations: Opt[tuple[Location, ...]] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class TerminalCallView:
    """A shell command about to run: the title is the command itself."""

    card: Literal["terminal"] = "terminal"
    title: str
    description: Opt[str] = None
    cwd: Opt[str] = None
    sandbox: Opt[str] = None
    """How the command runs: `sandbox: workspace-write, no network`, or `unsandboxed`."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class DiffCallView:
    """A proposed change to one or more files."""

    card: Literal["diff"] = "diff"
    title: str
    diffs: tuple[FileDiff, ...]
    locations: Opt[tuple[Location, ...]] = None


ToolCallView = Annotated[
    GenericCallView | TerminalCallView | DiffCallView, Field(discriminator="card")
]
TOOL_CALL_VIEW: TypeAdapter[ToolCallView] = TypeAdapter(ToolCallView, config=DEFERRED)
"""Validates and serializes any call view."""
