"""Agent files: Markdown with front matter, in tether's folders and in Claude Code's format.

    ---
    name: reviewer
    description: Reviews a change for bugs and missing tests
    tools: Read, Grep, Glob, Bash
    disallowedTools: Write, Edit
    skills: [release-notes]
    model: inherit
    color: blue
    ---
    You are a careful reviewer. ...

The body is the agent's system prompt. `description` is required, as long as it needs to be
and on as many lines as it needs (Claude Code's plugin agents carry `<example>` blocks);
`name` defaults to the file's name. `tools` is a comma list (or a YAML list) of tool names,
tether's (`read`, `web_fetch`) or Claude Code's (`Read`, `WebFetch`); without it the agent
has every tool of its parent. `disallowedTools` takes tools away (from `tools`, or from the
parent's). `skills` names skills whose text is in the agent's system prompt from its start.
`model` is `inherit` (the default), a model of the session's provider
(`openai:deepseek-reasoner`, `script:child.json` relative to the file), Claude Code's
`sonnet`, `opus`, `haiku`, or a `claude-...` model id. `color` marks its cards.

A tool name no tether tool answers to, and each key tether does not use (`permissionMode`,
`maxTurns`, `mcpServers`, `hooks`, ...), is a warning naming the file, the key and why; the
agent is still read. The front matter is read by `tether.frontmatter`: what it cannot read at
all is an error naming the file and the line, and the file is skipped, never half-read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from tether.agents.definition import AgentDefinition, AgentScope
from tether.beneath import opener_below
from tether.bounded import read_bounded_text
from tether.errors import AgentFileError, FrontMatterError, UnreadableFile
from tether.frontmatter import (
    FrontMatterField,
    FrontMatterWarning,
    parse_front_matter,
    pop_description,
    pop_name,
    unused_keys,
)
from tether.lazy import pattern
from tether.tools.claude_names import CLAUDE_TOOL_NAMES

__all__ = [
    "AGENT_KEYS",
    "CLAUDE_TOOL_NAMES",
    "MAX_AGENT_FILE_BYTES",
    "UNSUPPORTED_AGENT_KEYS",
    "parse_agent_file",
    "read_agent_file",
    "tool_names",
]

MAX_AGENT_FILE_BYTES = 256 * 1024
_NAME = pattern(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_TOOL = pattern(r"[A-Za-z][A-Za-z0-9_-]{0,127}")
_CALL = pattern(r"([A-Za-z][A-Za-z0-9_-]{0,127})\((.*)\)", re.DOTALL)

UNSUPPORTED_AGENT_KEYS: dict[str, str] = {
    "permissionmode": "is not supported: an agent runs in its parent's mode, under its rules",
    "maxturns": "is not supported: an agent's steps are capped as its parent's are",
    "mcpservers": "is not supported: an agent has the MCP tools of its parent's servers",
    "hooks": "is not supported: hooks come from the settings files",
    "memory": "is not supported: tether keeps no memory folder for agents",
    "background": "is not supported: a task's agent runs while its parent waits",
    "isolation": "is not supported: an agent works in its parent's workspace",
    "effort": "is not supported: an agent thinks as its parent's `thinking` setting says",
    "initialprompt": "is not supported: an agent starts from the task's prompt",
}
"""Keys of Claude Code's agent files that tether reads and does not use, and why."""

AGENT_KEYS = frozenset(
    {"name", "description", "tools", "disallowedtools", "skills", "model", "color"}
    | UNSUPPORTED_AGENT_KEYS.keys()
)
"""Every key an agent file may have (lower-cased)."""

_TETHER_TOOLS = frozenset(CLAUDE_TOOL_NAMES.values())


def read_agent_file(
    path: Path,
    scope: AgentScope,
    *,
    follow_symlinks: bool = False,
    beneath: Sequence[Path] = (),
    shown: Path | None = None,
) -> AgentDefinition:
    """The agent a file defines; `AgentFileError` saying why not (unreadable, malformed).

    `beneath`: resolved folders, one holding `path`, below which no link is followed
    (`read_bounded`); `shown` names the file as it was found, when `path` is its resolved
    place."""
    try:
        text = read_bounded_text(
            path,
            limit=MAX_AGENT_FILE_BYTES,
            follow_symlinks=follow_symlinks,
            opener=opener_below(beneath) if beneath else None,
        )
    except UnreadableFile as exc:
        raise AgentFileError(str(exc)) from None
    except OSError as exc:
        raise AgentFileError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    return parse_agent_file(shown or path, text, scope)


def parse_agent_file(path: Path, text: str, scope: AgentScope) -> AgentDefinition:
    """The agent `text` (the file at `path`) defines; `AgentFileError` when it is malformed."""
    try:
        front = parse_front_matter(text, known=AGENT_KEYS)
        return _definition(path, front.fields, front.body, scope)
    except FrontMatterError as exc:
        raise AgentFileError(exc.where(path)) from None


def _definition(
    path: Path, given: dict[str, FrontMatterField], body: str, scope: AgentScope
) -> AgentDefinition:
    fields = dict(given)
    warnings: list[FrontMatterWarning] = []
    name = pop_name(fields, path.stem, _NAME, "an agent name (letters, digits, '-', '_', '.')")
    described = pop_description(fields)
    description = _description(described.text())
    if not description:
        raise FrontMatterError("the description is empty", described.line)
    tools_field = fields.pop("tools", None)
    tools = tool_names(path, tools_field, warnings) if tools_field is not None else None
    denied_field = fields.pop("disallowedtools", None)
    denied = tool_names(path, denied_field, warnings) if denied_field is not None else ()
    skills_field = fields.pop("skills", None)
    skills = tuple(dict.fromkeys(skills_field.items())) if skills_field is not None else ()
    model_field = fields.pop("model", None)
    model = _model(path, model_field) if model_field is not None else None
    color_field = fields.pop("color", None)
    color = color_field.text().strip() or None if color_field is not None else None
    warnings += unused_keys(
        path, fields, UNSUPPORTED_AGENT_KEYS, "is not a key of agent files; ignored"
    )
    prompt = body.strip()
    if not prompt:
        raise FrontMatterError("no system prompt (the file's body is empty)")
    return AgentDefinition(
        name=name,
        description=description,
        prompt=prompt,
        tools=tools,
        model=model,
        disallowed=denied,
        skills=skills,
        color=color,
        scope=scope,
        source=path,
        warnings=tuple(str(w) for w in warnings),
    )


def _description(text: str) -> str:
    """Lines kept (an `<example>` block reads as one), spaces within them and blank runs not."""
    lines = [" ".join(line.split()) for line in text.strip().splitlines()]
    kept: list[str] = []
    for line in lines:
        if line or (kept and kept[-1]):
            kept.append(line)
    return "\n".join(kept).strip()


def tool_names(
    path: Path, field: FrontMatterField, warnings: list[FrontMatterWarning]
) -> tuple[str, ...]:
    """A field's tool names as tether's; names no tether tool answers to are warnings."""
    found: list[str] = []
    for written in field.items():
        name, limit = written, None
        call = _CALL.fullmatch(written)
        if call is not None:
            name, limit = call[1], call[2]
        if not _TOOL.fullmatch(name):
            raise FrontMatterError(f"{written!r} is not a tool name", field.line)
        ours = CLAUDE_TOOL_NAMES.get(name, name)
        if ours not in _TETHER_TOOLS and not ours.startswith("mcp__"):
            reason = f"names {name!r}, which no tether tool answers to; left out"
            warnings.append(FrontMatterWarning(path, field.line, field.key, reason))
            continue
        if limit is not None:
            reason = (
                f"gives {written!r}: an agent's tools are not limited by a pattern; "
                f"read as {ours!r}"
            )
            warnings.append(FrontMatterWarning(path, field.line, field.key, reason))
        if ours not in found:
            found.append(ours)
    return tuple(found)


def _model(path: Path, field: FrontMatterField) -> str | None:
    model = field.text().strip()
    if not model or model == "inherit":
        return None
    kind, _, rest = model.partition(":")
    if kind == "script" and rest:
        # A script beside the agent file: agents and their scripts travel together.
        return f"script:{(path.parent / rest).resolve()}"
    if not rest and model.startswith("claude-"):
        return f"anthropic:{model}"  # Claude Code's full model ids
    return model
