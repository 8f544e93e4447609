"""Agent files: Markdown with front matter, in tether's folders and in Claude Code's format.

    ---
    name: reviewer
    description: Reviews a change for bugs and missing tests
    tools: Read, Grep, Glob, Bash
    model: inherit
    ---
    You are a careful reviewer. ...

The body is the agent's system prompt. `description` is required; `name` defaults to the
file's name; `tools` is a comma list (or a YAML list) of tool names, tether's (`read`,
`web_fetch`) or Claude Code's (`Read`, `WebFetch`); without it the agent has every tool of
its parent. `model` is `inherit` (the default), a model of the session's provider
(`openai:deepseek-reasoner`, `script:child.json` relative to the file), or Claude Code's
`sonnet`, `opus`, `haiku`. Other keys (Claude Code's `color`) are ignored.

The front matter is read by `tether.frontmatter` (the YAML subset such files use): anything
else is an error that names the file and the line, and the file is skipped, never half-read.
"""

from __future__ import annotations

import re
from pathlib import Path

from tether.agents.definition import AgentDefinition, AgentScope
from tether.bounded import UnreadableFile, read_bounded_text
from tether.frontmatter import FrontMatterError, FrontMatterField, parse_front_matter
from tether.tools.claude_names import CLAUDE_TOOL_NAMES

__all__ = [
    "CLAUDE_TOOL_NAMES",
    "MAX_AGENT_FILE_BYTES",
    "AgentFileError",
    "parse_agent_file",
    "read_agent_file",
]

MAX_AGENT_FILE_BYTES = 256 * 1024
MAX_DESCRIPTION_CHARS = 1024
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_TOOL = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,127}")


class AgentFileError(ValueError):
    """An agent file that cannot be used; the message names the file and what is wrong."""


def read_agent_file(path: Path, scope: AgentScope, *, follow_symlinks: bool) -> AgentDefinition:
    """The agent a file defines; `AgentFileError` saying why not (unreadable, malformed)."""
    try:
        text = read_bounded_text(path, limit=MAX_AGENT_FILE_BYTES, follow_symlinks=follow_symlinks)
    except UnreadableFile as exc:
        raise AgentFileError(str(exc)) from None
    except OSError as exc:
        raise AgentFileError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    return parse_agent_file(path, text, scope)


def parse_agent_file(path: Path, text: str, scope: AgentScope) -> AgentDefinition:
    """The agent `text` (the file at `path`) defines; `AgentFileError` when it is malformed."""
    try:
        front = parse_front_matter(text)
    except FrontMatterError as exc:
        raise AgentFileError(exc.where(path)) from None
    fields, body = dict(front.fields), front.body
    name_field = fields.pop("name", None)
    name = _text(path, "name", name_field) if name_field is not None else path.stem
    if not _NAME.fullmatch(name):
        where = f"{path}:{name_field.line}" if name_field else str(path)
        raise AgentFileError(
            f"{where}: {name!r} is not an agent name (letters, digits, '-', '_', '.')"
        )
    described = fields.pop("description", None)
    if described is None:
        raise AgentFileError(f"{path}: no description (the front matter needs `description:`)")
    description = " ".join(_text(path, "description", described).split())
    if not description:
        raise AgentFileError(f"{path}:{described.line}: the description is empty")
    if len(description) > MAX_DESCRIPTION_CHARS:
        raise AgentFileError(
            f"{path}:{described.line}: the description is longer than "
            f"{MAX_DESCRIPTION_CHARS} characters"
        )
    tools_field = fields.pop("tools", None)
    tools = _tools(path, tools_field) if tools_field is not None else None
    model_field = fields.pop("model", None)
    model = _model(path, model_field) if model_field is not None else None
    prompt = body.strip()
    if not prompt:
        raise AgentFileError(f"{path}: no system prompt (the file's body is empty)")
    return AgentDefinition(
        name=name,
        description=description,
        prompt=prompt,
        tools=tools,
        model=model,
        scope=scope,
        source=path,
    )


def _text(path: Path, key: str, field: FrontMatterField) -> str:
    if isinstance(field.value, list):
        raise AgentFileError(f"{path}:{field.line}: `{key}` must be text, not a list")
    return field.value


def _tools(path: Path, field: FrontMatterField) -> tuple[str, ...]:
    raw = field.value
    if isinstance(raw, str):
        text = raw[1:-1] if raw.startswith("[") and raw.endswith("]") else raw
        names = [part.strip().strip("'\"") for part in text.split(",")]
    else:
        names = [part.strip() for part in raw]
    tools: list[str] = []
    for name in names:
        if not name:
            continue
        if not _TOOL.fullmatch(name):
            raise AgentFileError(f"{path}:{field.line}: {name!r} is not a tool name")
        tether_name = CLAUDE_TOOL_NAMES.get(name, name)
        if tether_name not in tools:
            tools.append(tether_name)
    return tuple(tools)


def _model(path: Path, field: FrontMatterField) -> str | None:
    model = _text(path, "model", field).strip()
    if not model or model == "inherit":
        return None
    kind, _, rest = model.partition(":")
    if kind == "script" and rest:
        # A script beside the agent file: agents and their scripts travel together.
        return f"script:{(path.parent / rest).resolve()}"
    return model
