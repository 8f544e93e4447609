"""The `grep` tool: a ripgrep search of the workspace, shown as the search card's matches."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, assert_never

from pydantic import BaseModel, Field, JsonValue

from tether.content import ContentBlock, TextContent
from tether.tools.arguments import Alias, ArgumentAlias, Fixed, ToolArguments
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.result import ToolResult
from tether.tools.search.meta import grep_meta, matches_meta_from_meta, paths_card
from tether.tools.search.render import grep_text
from tether.tools.search.value import GrepValue, OutputMode, Stop
from tether.tools.search.window import MAX_OFFSET, skip_entries
from tether.views import (
    GenericCallView,
    SearchFile,
    SearchMatchesResultView,
    SearchPathsResultView,
    ToolCallView,
)

if TYPE_CHECKING:
    from tether.tools.context import ToolContext
    from tether.tools.search.collector import Collector
    from tether.tools.search.scope import Scope

__all__ = ["GREP_MAX_BYTES", "MAX_CONTEXT", "MAX_MATCHES", "GrepArgs", "GrepTool"]

MAX_MATCHES = 250
"""Matches listed inline (files, in the `files_with_matches` and `count` modes); `total`
counts the rest."""
MAX_CONTEXT = 20
"""Context lines a call may ask for on each side of a match."""
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

Returns matching lines grouped by file (`path`, then `  N: line`; context lines `  N- line`), \
files in path order, at most {MAX_MATCHES} matches, each line cut at 2000 bytes, and a footer \
with the total. `output_mode` `files_with_matches` lists only the files (newest first), \
`count` the matches per file; `content` is the default. `type` limits the search to one \
ripgrep file type, `multiline` lets a pattern span lines, `head_limit` and `offset` page \
through a long result. Use it instead of running `grep` or `rg` through bash; use \
`glob` to find files by name."""


class GrepArgs(ToolArguments):
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
    ignore_case: bool = Field(default=False, description="Match regardless of case (rg -i).")
    output_mode: OutputMode = Field(default="content")
    before_context: int | None = Field(
        default=None, ge=0, le=MAX_CONTEXT, description="Lines to show before each match (rg -B)."
    )
    after_context: int | None = Field(
        default=None, ge=0, le=MAX_CONTEXT, description="Lines to show after each match (rg -A)."
    )
    context: int | None = Field(
        default=None,
        ge=0,
        le=MAX_CONTEXT,
        description="Lines to show before and after each match (rg -C).",
    )
    type: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_+-]+$",
        description="Search only files of this ripgrep type (rg --type): py, js, ts, rust, go...",
    )
    multiline: bool = Field(
        default=False,
        description="Let the pattern span lines, `.` matching newlines too (rg -U "
        "--multiline-dotall).",
    )
    head_limit: int | None = Field(
        default=None,
        ge=1,
        description=f"List at most this many entries (lines, or files; at most {MAX_MATCHES}).",
    )
    offset: int = Field(
        default=0,
        ge=0,
        le=MAX_OFFSET,
        description="Leave out this many entries first, to page through a long result.",
    )

    @property
    def before(self) -> int:
        """Context lines before each match: `before_context`, else `context`."""
        return _first(self.before_context, self.context)

    @property
    def after(self) -> int:
        """Context lines after each match: `after_context`, else `context`."""
        return _first(self.after_context, self.context)


def _first(given: int | None, fallback: int | None) -> int:
    return given if given is not None else fallback or 0


class GrepTool(Tool[GrepArgs, GrepValue]):
    """Searches file contents with ripgrep: the first matches by file and the exact total."""

    name: ClassVar[str] = "grep"
    description: ClassVar[str] = _DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = GrepArgs
    # Claude Code's names for the same options; its `-n` is what grep always does.
    aliases: ClassVar[tuple[ArgumentAlias, ...]] = (
        Alias("glob", "include"),
        Alias("-i", "ignore_case"),
        Alias("-B", "before_context"),
        Alias("-A", "after_context"),
        Alias("-C", "context"),
        Fixed("-n", True, "line numbers are always shown; leave -n out"),
    )

    def writes(self, args: GrepArgs) -> tuple[str, ...]:
        """Changes no file."""
        return ()

    async def execute(self, args: GrepArgs, ctx: ToolContext) -> GrepValue:
        """Authorize reading the path, run ripgrep in the output mode, keep the first results."""
        # The search engine loads with the first search, not with the tool's spec.
        from tether.tools.search.scope import search_scope

        async with search_scope(ctx, args.path, files=True) as scope:
            return await self._search(args, ctx, scope)

    async def _search(self, args: GrepArgs, ctx: ToolContext, scope: Scope) -> GrepValue:
        from tether.tools.search.collector import collect
        from tether.tools.search.counts import CountCollector
        from tether.tools.search.matches import MatchCollector
        from tether.tools.search.paths import PathCollector

        flags = ["--no-config", "--no-require-git"]
        if args.ignore_case:
            flags.append("--ignore-case")
        if args.include is not None:
            flags += ["--glob", args.include]
        if args.type is not None:
            flags += ["--type", args.type]
        if args.multiline:
            flags += ["--multiline", "--multiline-dotall"]
        # The skipped entries are collected too, then left out: ripgrep has no offset.
        limit = args.offset + min(args.head_limit or MAX_MATCHES, MAX_MATCHES)
        flags += scope.exclusions()

        async def search(
            mode_flags: list[str], collector: Collector, separator: bytes
        ) -> Stop | None:
            rg_args = [*mode_flags, *flags, "--regexp", args.pattern, *scope.rg_target()]
            run = await collect(
                ctx,
                scope,
                rg_args,
                collector,
                max_bytes=GREP_MAX_BYTES,
                max_line_bytes=_MAX_LINE_BYTES,
                separator=separator,
            )
            return run.stopped

        total_files: int | None
        match args.output_mode:
            case "content":
                lines = MatchCollector(limit, scope.display, after=args.after)
                context = ["--before-context", str(args.before), "--after-context", str(args.after)]
                stopped = await search(["--json", *context], lines, b"\n")
                files, total, total_files = lines.files(), lines.total, lines.total_files
            case "count":
                counts = CountCollector(limit, scope.display)
                stopped = await search(["--count", "--null"], counts, b"\n")
                files, total, total_files = counts.files(), counts.total, counts.total_files
            case "files_with_matches":
                paths = PathCollector(scope.here, limit, scope.display)
                stopped = await search(["--files-with-matches", "--null"], paths, b"\0")
                files = tuple(SearchFile(path=p, matches=()) for p in paths.paths())
                total, total_files = paths.total, None
            case _:
                assert_never(args.output_mode)
        return GrepValue(
            pattern=args.pattern,
            files=skip_entries(files, args.output_mode, args.offset, args.before),
            total=total,
            stopped=stopped,
            total_files=total_files,
            mode=args.output_mode,
            offset=args.offset,
        )

    def render(self, args: GrepArgs, value: GrepValue) -> list[ContentBlock]:
        """The result in its output mode with a footer; `No matches for PATTERN` when none."""
        return [TextContent(text=grep_text(value))]

    def presentation_meta(self, args: GrepArgs, value: GrepValue) -> JsonValue:
        """What the search card is drawn from: `{files, truncated, total}`, or `{paths, ...}`
        for `files_with_matches`."""
        return grep_meta(value)

    def present_call(self, args: GrepArgs, context: CardContext) -> ToolCallView:
        """A generic `search` card: `Grep PATTERN[ in PATH][ (INCLUDE)][ OPTIONS]`."""
        return GenericCallView(
            title=grep_title(args),
            kind="search",
            raw_input=args.model_dump(exclude_none=True, exclude_defaults=True),
        )

    def present_result(
        self, args: GrepArgs, result: ToolResult, context: CardContext
    ) -> SearchMatchesResultView | SearchPathsResultView | None:
        """The search card from the stored meta; `None` (the generic card) if it is unusable."""
        if result.is_error:
            return None
        title = grep_title(args)
        if args.output_mode == "files_with_matches":
            return paths_card(title, result.meta)
        meta = matches_meta_from_meta(result.meta)
        if meta is None:
            return None
        return SearchMatchesResultView(
            title=title,
            files=meta.files,
            truncated=meta.truncated,
            total=meta.total,
            total_files=meta.total_files,
        )


def grep_title(args: GrepArgs) -> str:
    """`Grep PATTERN`, with ` in PATH`, ` (INCLUDE)` and ripgrep's flags for the options the
    call gave (`-i`, `--type T`, `-U`, `-B N`, `-A N`, `-C N`, `-l` for files, `-c` for
    counts), then `offset=N` and `head_limit=N` when given."""
    title = f"Grep {args.pattern}"
    if args.path is not None:
        title += f" in {args.path}"
    if args.include is not None:
        title += f" ({args.include})"
    flags = ["-i"] if args.ignore_case else []
    flags += [f"--type {args.type}"] if args.type else []
    flags += ["-U"] if args.multiline else []
    if args.before and args.before == args.after:
        flags.append(f"-C {args.before}")
    else:
        flags += [f"-B {args.before}"] if args.before else []
        flags += [f"-A {args.after}"] if args.after else []
    match args.output_mode:
        case "files_with_matches":
            flags.append("-l")
        case "count":
            flags.append("-c")
        case "content":
            pass
    flags += [f"offset={args.offset}"] if args.offset else []
    flags += [f"head_limit={args.head_limit}"] if args.head_limit else []
    return " ".join([title, *flags])
