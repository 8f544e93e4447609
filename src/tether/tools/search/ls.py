"""The `ls` tool: a directory's files as a tree (Claude Code's `LS`), on the search card."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, Field, JsonValue

from tether.content import ContentBlock, TextContent
from tether.tools.arguments import ToolArguments
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.result import ToolResult
from tether.tools.search.meta import glob_meta, paths_card
from tether.tools.search.value import GlobValue
from tether.tools.search.vcs import VCS_DIRS
from tether.views import GenericCallView, SearchPathsResultView, ToolCallView

if TYPE_CHECKING:
    from tether.tools.context import ToolContext

__all__ = ["MAX_LISTED", "LsArgs", "LsTool", "LsValue"]

MAX_LISTED = 500
"""Files listed; the total counts the rest."""

_DESCRIPTION = f"""\
List the files under a directory (default: the workspace) as a tree, in path order, at most \
{MAX_LISTED}. Like `rg --files`, it respects .gitignore and lists hidden files \
({", ".join(VCS_DIRS)} never); `ignore` leaves out more by glob. Directories show through \
the files in them (an empty one is not listed). Prefer `glob` and `grep` when you know what \
you are looking for."""


class LsArgs(ToolArguments):
    """Arguments of `ls`."""

    path: str | None = Field(
        default=None, description="The directory to list (default: the workspace)."
    )
    ignore: list[str] = Field(
        default_factory=list, description='Globs of paths to leave out, e.g. ["*.log", "dist"].'
    )


@dataclass(frozen=True)
class LsValue:
    """What was listed: the directory, the kept paths relative to it (the tree), and the
    same paths as the model sees them with the total (the search card)."""

    root: str
    relative: tuple[str, ...]
    listing: GlobValue


class LsTool(Tool[LsArgs, LsValue]):
    """Lists a directory's files with `rg --files`: the first in path order and the total."""

    name: ClassVar[str] = "ls"
    description: ClassVar[str] = _DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = LsArgs

    def writes(self, args: LsArgs) -> tuple[str, ...]:
        """Changes no file."""
        return ()

    async def execute(self, args: LsArgs, ctx: ToolContext) -> LsValue:
        """Authorize reading the directory, list it with ripgrep, keep the first paths."""
        # The search engine loads with the first listing, not with the tool's spec.
        from tether.tools.search.collector import list_files
        from tether.tools.search.listing import TreeCollector
        from tether.tools.search.scope import search_scope

        async with search_scope(ctx, args.path, files=False, never_inside=VCS_DIRS) as scope:
            collector = TreeCollector(MAX_LISTED, scope.display)
            run = await list_files(ctx, scope, collector, excluded=args.ignore)
            root = str(scope.root)
        listing = GlobValue(
            pattern="*", paths=collector.paths(), total=collector.total, stopped=run.stopped
        )
        return LsValue(root, collector.relative(), listing)

    def render(self, args: LsArgs, value: LsValue) -> list[ContentBlock]:
        """The tree: `- DIR/`, then `  - sub/`, `    - file` ..."""
        from tether.tools.search.listing import tree_text

        return [TextContent(text=tree_text(value.root, value.relative, value.listing.total))]

    def presentation_meta(self, args: LsArgs, value: LsValue) -> JsonValue:
        """`{paths, truncated, total}`: what the search card is drawn from."""
        return glob_meta(value.listing)

    def present_call(self, args: LsArgs, context: CardContext) -> ToolCallView:
        """A generic `search` card: `List PATH`."""
        return GenericCallView(
            title=_title(args),
            kind="search",
            raw_input=args.model_dump(exclude_none=True, exclude_defaults=True),
        )

    def present_result(
        self, args: LsArgs, result: ToolResult, context: CardContext
    ) -> SearchPathsResultView | None:
        """The search card's paths from the stored meta; `None` if it is unusable."""
        return None if result.is_error else paths_card(_title(args), result.meta)


def _title(args: LsArgs) -> str:
    ignoring = f" (ignoring {', '.join(args.ignore)})" if args.ignore else ""
    return f"List {args.path or '.'}{ignoring}"
