"""The `glob` tool: files by name pattern, newest first, shown as the search card's paths."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, Field, JsonValue

from tether.content import ContentBlock, TextContent
from tether.errors import GlobError, ToolError
from tether.tools.arguments import ToolArguments
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.result import ToolResult
from tether.tools.search.meta import glob_meta, paths_card
from tether.tools.search.pattern import PathPattern
from tether.tools.search.render import glob_text
from tether.tools.search.value import GlobValue
from tether.tools.search.vcs import VCS_DIRS
from tether.views import GenericCallView, SearchPathsResultView, ToolCallView

if TYPE_CHECKING:
    from tether.tools.context import ToolContext

__all__ = ["MAX_PATHS", "GlobArgs", "GlobTool"]

MAX_PATHS = 100
"""Paths listed; `total` counts the rest."""

_DESCRIPTION = f"""\
Find files by name with a glob pattern: `*.py` (any depth), `src/**/*.ts`, `*.{{json,toml}}`, \
`**/test_*.py`. A pattern with a `/` is matched from the workspace root, or from `path` when \
given. Returns file paths (never directories), most recently modified first, at most \
{MAX_PATHS}, with the total when there are more. Like `rg --files`, it respects .gitignore \
(set `include_ignored` to list ignored files too); hidden files are listed, \
{", ".join(VCS_DIRS)} never. Use it instead of `find` or `ls -R` through bash; use `grep` \
to search file contents."""


class GlobArgs(ToolArguments):
    """Arguments of `glob`."""

    pattern: str = Field(
        min_length=1, description='The glob to match file paths against, e.g. "**/*.py".'
    )
    path: str | None = Field(
        default=None, description="The directory to search (default: the whole workspace)."
    )
    include_ignored: bool = Field(
        default=False, description="Also list files that .gitignore and .ignore files exclude."
    )


class GlobTool(Tool[GlobArgs, GlobValue]):
    """Lists files matching a glob with `rg --files`: the newest first and the exact total."""

    name: ClassVar[str] = "glob"
    description: ClassVar[str] = _DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = GlobArgs

    def writes(self, args: GlobArgs) -> tuple[str, ...]:
        """Changes no file."""
        return ()

    async def execute(self, args: GlobArgs, ctx: ToolContext) -> GlobValue:
        """Authorize reading the directory, list it with ripgrep, keep the newest paths."""
        # The search engine loads with the first search, not with the tool's spec.
        from tether.tools.search.collector import list_files
        from tether.tools.search.paths import PathCollector
        from tether.tools.search.scope import search_scope

        try:
            pattern = PathPattern.compile(args.pattern)
        except GlobError as exc:
            raise ToolError(f"Invalid glob {args.pattern}: {exc}") from None
        # Never inside a version-control store, counted from the workspace: `path: ".git"`
        # would otherwise list what `!.git` keeps out of every other search.
        async with search_scope(ctx, args.path, files=False, never_inside=VCS_DIRS) as scope:
            collector = PathCollector(scope.here, MAX_PATHS, scope.display, pattern)
            # The pattern is matched here, not passed as `--glob`: ripgrep lets a `--glob`
            # match override the ignore files. Excluding globs do not, and keep the stores out.
            run = await list_files(ctx, scope, collector, include_ignored=args.include_ignored)
        return GlobValue(
            pattern=args.pattern,
            paths=collector.paths(),
            total=collector.total,
            stopped=run.stopped,
        )

    def render(self, args: GlobArgs, value: GlobValue) -> list[ContentBlock]:
        """One path per line, newest first; `No files matching PATTERN` when none."""
        return [TextContent(text=glob_text(value))]

    def presentation_meta(self, args: GlobArgs, value: GlobValue) -> JsonValue:
        """`{paths, truncated, total}`: what the search card is drawn from."""
        return glob_meta(value)

    def present_call(self, args: GlobArgs, context: CardContext) -> ToolCallView:
        """A generic `search` card: `Glob PATTERN[ in PATH][ (ignored files too)]`."""
        return GenericCallView(
            title=glob_title(args),
            kind="search",
            raw_input=args.model_dump(exclude_none=True, exclude_defaults=True),
        )

    def present_result(
        self, args: GlobArgs, result: ToolResult, context: CardContext
    ) -> SearchPathsResultView | None:
        """The search card from the stored meta; `None` (the generic card) if it is unusable."""
        return None if result.is_error else paths_card(glob_title(args), result.meta)


def glob_title(args: GlobArgs) -> str:
    """`Glob PATTERN`, with ` in PATH` when the call gave one and ` (ignored files too)`."""
    title = f"Glob {args.pattern}"
    if args.path is not None:
        title += f" in {args.path}"
    if args.include_ignored:
        title += " (ignored files too)"
    return title
