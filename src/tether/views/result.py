"""Result-side cards: how a finished tool call is shown."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter, model_validator
from pydantic.dataclasses import dataclass

from tether.views.attachments import Attachment
from tether.views.notebook import NotebookView
from tether.views.parts import FileDiff, Location
from tether.views.read_lines import ReadLines
from tether.views.search import SearchResultView
from tether.views.task import TaskResultView
from tether.views.web import WebFetchResultView, WebResultView
from tether.wire import DEFERRED, WIRE_CONFIG, Opt

__all__ = [
    "TOOL_RESULT_VIEW",
    "DiffResultView",
    "GenericResultView",
    "ReadResultView",
    "TerminalResultView",
    "ToolResultView",
    "WebFetchResultView",
]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class GenericResultView:
    """Any result: an optional title and text, and what it holds besides text."""

    card: Literal["generic"] = "generic"
    title: Opt[str] = None
    content: Opt[str] = None
    markdown: Opt[bool] = None
    """`content` is Markdown to render (a plan), as on the call's card."""
    attachments: Opt[tuple[Attachment, ...]] = None
    """Images and resources, in the order the tool gave them (an MCP tool's)."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class TerminalResultView:
    """A finished command: its output and either an exit code or the signal that ended it."""

    card: Literal["terminal"] = "terminal"
    title: Opt[str] = None
    output: Opt[str] = None
    exit_code: Opt[int] = None
    signal: Opt[str] = None
    notes: Opt[tuple[str, ...]] = None
    """What people should know beyond the output: a sandbox limit hit, processes that outlived
    the stop, protected paths the command created."""

    @model_validator(mode="after")
    def _exit_or_signal(self) -> TerminalResultView:
        if self.exit_code is not None and self.signal is not None:
            raise ValueError("exitCode and signal are exclusive")
        return self


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class DiffResultView:
    """The change a tool applied."""

    card: Literal["diff"] = "diff"
    diffs: tuple[FileDiff, ...]
    title: Opt[str] = None
    locations: Opt[tuple[Location, ...]] = None
    """Where each hunk starts in the new file, one per diff, for editor follow-along."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ReadResultView:
    """A window of a text file: numbered lines, the file's total, and the raw text as fallback."""

    card: Literal["read"] = "read"
    path: str
    offset: int
    lines: ReadLines
    """Made from `ReadFileLine`s or their JSON; held without an object per line."""
    total_lines: int
    title: Opt[str] = None
    lang: Opt[str] = None
    content: Opt[str] = None
    byte_cap: Opt[int] = None
    """Set when the window stops early because it reached this many bytes of output."""
    notebook: Opt[NotebookView] = None
    """A Jupyter notebook's cells and outputs, shown instead of the lines (which hold the
    text the model read, numbered, for a client that does not know this view)."""


ToolResultView = Annotated[
    GenericResultView
    | TerminalResultView
    | DiffResultView
    | ReadResultView
    | SearchResultView
    | WebResultView
    | TaskResultView,
    Field(discriminator="card"),
]
TOOL_RESULT_VIEW: TypeAdapter[ToolResultView] = TypeAdapter(ToolResultView, config=DEFERRED)
"""Validates and serializes any result view."""
