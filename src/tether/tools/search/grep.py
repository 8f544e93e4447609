"""The `grep` tool: a ripgrep search of the workspace, shown as the search card's matches."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, Field, JsonValue

from tether.content import ContentBlock, TextContent
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.context import ToolContext
from tether.tools.result import ToolResult
from tether.tools.search.collector import collect
from tether.tools.search.matches import MatchCollector
from tether.tools.search.meta import grep_meta, matches_meta_from_meta
from tether.tools.search.render import grep_text
from tether.tools.search.scope import search_scope
from tether.tools.search.value import GrepValue
from tether.views import GenericCallView, SearchMatchesResultView, ToolCallView

__all__ = ["GREP_MAX_BYTES", "MAX_MATCHES", "GrepArgs", "GrepTool"]

MAX_MATCHES = 250
"""Matches listed inline; `total` counts the rest."""
GREP_MAX_BYTES = 256 << 20
"""ripgrep output read before the search is stopped (about a million short matches)."""
_MAX_LINE_BYTES = 8 << 20
"""One JSON message longer than this (a match in a huge line) is counted but not shown."""

_DESCRIPTION = f"""\
Search file contents with a regular expression (ripgrep syntax: `log.*Error`, \
`function\\s+\\w+`, `\\bTODO\\b`; escape literal braces, e.g. `interface\\{{\\}}`). \
Searches the workspace, or the file or directory given as `path`; `include` filters files by \
one glob (`*.py`, `*.{{ts,tsx}}`, `src/**/*.rs`). Like `rg`, it respects .gitignore and skips \
hidden files and binary files.

Returns matching lines grouped by file (`path`, then `  N: line`), files in path order, at \
most {MAX_MATCHES} matches, each line cut at 2000 bytes, and a footer with the total. Use it \
instead of running `grep` or `rg` through bash; use `glob` to find files by name."""


class GrepArgs(BaseModel):
    """Arguments of `grep`."""

    pattern: str = Field(
        min_length=1, description="The regular expression to search for (ripgrep syntax)."
    )
    path: str | None = Field(
        default=None,
        description="A file or directory to search (default: the whole workspace).",
    )
    include: str | None = Field(
        default=None, description='One glob the searched files must match, e.g. "*.py".'
    )


class GrepTool(Tool[GrepArgs, GrepValue]):
    """Searches file contents with ripgrep: the first matches by file and the exact total."""

    name: ClassVar[str] = "grep"
    description: ClassVar[str] = _DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = GrepArgs

    def writes(self, args: GrepArgs) -> tuple[str, ...]:
        """Changes no file."""
        return ()

    async def execute(self, args: GrepArgs, ctx: ToolContext) -> GrepValue:
        """Authorize reading the path, run `rg --json`, keep the first matches, count all."""
        scope = await search_scope(ctx, args.path, files=True)
        collector = MatchCollector(MAX_MATCHES, scope.display)
        rg_args = ["--json", "--no-config", "--no-require-git", "--regexp", args.pattern]
        if args.include is not None:
            rg_args += ["--glob", args.include]
        rg_args += ["--", scope.target] if scope.target is not None else []
        run = await collect(
            ctx,
            scope,
            rg_args,
            collector,
            max_bytes=GREP_MAX_BYTES,
            max_line_bytes=_MAX_LINE_BYTES,
        )
        return GrepValue(
            pattern=args.pattern,
            files=collector.files(),
            total=collector.total,
            stopped=run.stopped,
        )

    def render(self, args: GrepArgs, value: GrepValue) -> list[ContentBlock]:
        """Matches grouped by file with a footer; `No matches for PATTERN` when none."""
        return [TextContent(text=grep_text(value))]

    def presentation_meta(self, args: GrepArgs, value: GrepValue) -> JsonValue:
        """`{files, truncated, total}`: what the search card is drawn from."""
        return grep_meta(value)

    def present_call(self, args: GrepArgs, context: CardContext) -> ToolCallView:
        """A generic `search` card: `Grep PATTERN[ in PATH][ (INCLUDE)]`."""
        return GenericCallView(
            title=grep_title(args), kind="search", raw_input=args.model_dump(exclude_none=True)
        )

    def present_result(
        self, args: GrepArgs, result: ToolResult, context: CardContext
    ) -> SearchMatchesResultView | None:
        """The search card from the stored meta; `None` (the generic card) if it is unusable."""
        meta = matches_meta_from_meta(result.meta)
        if result.is_error or meta is None:
            return None
        return SearchMatchesResultView(
            title=grep_title(args), files=meta.files, truncated=meta.truncated, total=meta.total
        )


def grep_title(args: GrepArgs) -> str:
    """`Grep PATTERN`, with ` in PATH` and ` (INCLUDE)` when the call gave them."""
    title = f"Grep {args.pattern}"
    if args.path is not None:
        title += f" in {args.path}"
    if args.include is not None:
        title += f" ({args.include})"
    return title
