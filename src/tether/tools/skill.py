"""The `skill` tool: load a skill's instructions when a task calls for it.

The system prompt lists every skill's name and description only (progressive disclosure:
a skill costs a line until it is used). `skill {name}` reads its `SKILL.md` then: the model
gets the body and the folder's path, so it can read the skill's other files or run its
scripts through the usual tools and policy; people see a read card of `SKILL.md` (path,
numbered lines, `lang: markdown`), which every client already draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pydantic import BaseModel, Field, JsonValue

from tether import views
from tether.content import ContentBlock, TextContent
from tether.errors import SkillFileError, ToolError
from tether.skills import SkillCatalog, SkillText, read_skill_text
from tether.tools.access import NamedAccess
from tether.tools.arguments import Alias, ArgumentAlias, ToolArguments
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.context import DEFAULT_READ_BYTE_CAP, ToolContext
from tether.tools.fs.read_render import (
    envelope_content,
    footer,
    read_meta_from_meta,
    render_envelope,
)
from tether.tools.fs.read_window import Window, scan_window
from tether.tools.result import ToolResult
from tether.views import GenericCallView, ToolCallView

if TYPE_CHECKING:
    from tether.views import ReadResultView

__all__ = ["MAX_BODY_CHARS", "SKILL_TOOL", "SkillArgs", "SkillTool", "skills_section"]

SKILL_TOOL = "skill"
MAX_BODY_CHARS = 50_000
"""The most of a skill's instructions the model gets at once (the rest it can `read`)."""
_CARD_LINES = 2000

DESCRIPTION = """\
Load a skill: the instructions for a kind of task, and the folder that holds its scripts \
and references. The skills are listed, with what each is for, in the system prompt.

When a task matches a skill's description, call this first with the skill's name and follow \
what it says. Its other files are in its folder: read them, or run its scripts, with your \
usual tools when the instructions call for them.
"""


class SkillArgs(ToolArguments):
    """Arguments of `skill`."""

    name: str = Field(description="The skill's name, as the system prompt lists it.")


@dataclass(frozen=True)
class SkillValue:
    """A loaded skill: its file's text, and its window for the card."""

    loaded: SkillText
    window: Window


class SkillTool(Tool[SkillArgs, SkillValue]):
    """Loads one of the session's skills by name."""

    name: ClassVar[str] = SKILL_TOOL
    description: ClassVar[str] = DESCRIPTION
    args_model: ClassVar[type[BaseModel]] = SkillArgs
    aliases: ClassVar[tuple[ArgumentAlias, ...]] = (
        Alias("skill", "name"),
        Alias("command", "name"),
    )

    def __init__(self, catalog: SkillCatalog | None = None) -> None:
        self.catalog = catalog or SkillCatalog({})
        """The skills it may load (the session gives it the workspace's)."""

    def unavailable(self) -> str | None:
        """Not offered without skills (its cards still show what was loaded before)."""
        return None if len(self.catalog) else "no skills in the workspace or your folders"

    async def execute(self, args: SkillArgs, ctx: ToolContext) -> SkillValue:
        """Read the skill's `SKILL.md` now (it may have changed since the session began)."""
        skill = self.catalog.get(args.name.strip())
        if skill is None:
            known = ", ".join(self.catalog.names()) or "(none)"
            raise ToolError(f"Unknown skill: {args.name!r}. Available skills: {known}")
        # Only a deny or an ask rule (`skill(NAME)`, Claude Code's `Skill(NAME)`) stops it.
        await ctx.authorize(NamedAccess("skill", skill.name, ctx.tool_call_id))
        root = ctx.workspace.cwd if skill.scope == "project" else None
        try:
            loaded = read_skill_text(skill.path, skill.scope, root=root)
        except SkillFileError as exc:
            raise ToolError(f"The skill {skill.name} cannot be loaded: {exc}") from None
        window = scan_window([loaded.text.encode()], 1, _CARD_LINES, DEFAULT_READ_BYTE_CAP)
        return SkillValue(loaded, window)

    def render(self, args: SkillArgs, value: SkillValue) -> list[ContentBlock]:
        """The instructions, with where the skill's other files are."""
        skill, body = value.loaded.skill, value.loaded.body
        if len(body) > MAX_BODY_CHARS:
            body = (
                f"{body[:MAX_BODY_CHARS]}\n\n(The instructions go on: read {skill.path} "
                f"for the rest, after its first {MAX_BODY_CHARS} characters.)"
            )
        lines = [
            f'<skill name="{skill.name}">',
            f"Base directory for this skill: {skill.folder}",
            "Its other files (scripts, references, templates) are in that folder: read them, "
            "or run its scripts, with your usual tools when the instructions call for them.",
        ]
        if skill.allowed_tools:
            lines.append(
                f"It expects these tools: {', '.join(skill.allowed_tools)} "
                "(they are allowed or asked for as any call)."
            )
        lines.extend(["", body or "(The skill has no instructions beyond its description.)"])
        lines.append("</skill>")
        return [TextContent(text="\n".join(lines))]

    def presentation_meta(self, args: SkillArgs, value: SkillValue) -> JsonValue:
        """`{path, offset, lines, totalLines, lang, byteCap?}` of `SKILL.md`, as `read` stores
        its windows."""
        window = value.window
        meta: dict[str, JsonValue] = {
            "path": str(value.loaded.skill.path),
            "offset": 1,
            "lines": [{"number": line.number, "text": line.text} for line in window.lines],
            "totalLines": window.total_lines,
            "lang": "markdown",
        }
        if window.capped:
            meta["byteCap"] = DEFAULT_READ_BYTE_CAP
        return meta

    def present_call(self, args: SkillArgs, context: CardContext) -> ToolCallView:
        """`Skill NAME`, a read."""
        return GenericCallView(title=f"Skill {args.name}", kind="read")

    def present_result(
        self, args: SkillArgs, result: ToolResult, context: CardContext
    ) -> ReadResultView | None:
        """The read card of its `SKILL.md`; `None` (the generic card) for an error."""
        meta = read_meta_from_meta(result.meta)
        if result.is_error or meta is None:
            return None
        capped = meta.byte_cap is not None
        ending = footer(1, len(meta.lines), meta.total_lines, capped, meta.byte_cap or 0)
        return views.ReadResultView(
            title=f"Skill {args.name}",
            path=meta.path,
            offset=1,
            lines=meta.lines,
            total_lines=meta.total_lines,
            lang=meta.lang,
            content=envelope_content(render_envelope(meta.path, meta.lines, ending)),
            byte_cap=meta.byte_cap,
        )


def skills_section(catalog: SkillCatalog) -> str | None:
    """What the system prompt says of the skills: each one's name and description only."""
    if not len(catalog):
        return None
    listing = "\n".join(f"- {s.name}: {s.description}" for s in catalog.skills.values())
    return (
        "# Skills\n\n"
        "Skills hold instructions (and often scripts) for particular tasks. When a task "
        "matches one of these descriptions, call `skill` with its name before you start, "
        "and follow what it says.\n\n" + listing
    )
