"""`@path` in a prompt: the file goes with it, as an editor's ACP client would send it.

Each `@path` that names a readable text file inside the workspace is attached after the
prompt as `<context ref="file://…">` (what `session/prompt` makes of an embedded resource);
the log keeps the prompt as it was typed. Folders, files outside the workspace, binary or
larger than `MAX_ATTACHED` files stay mentions the model can read itself.
"""

from __future__ import annotations

import re
from pathlib import Path

from tether.bounded import read_bounded_text
from tether.content import TextContent, context_block
from tether.errors import ToolError, UnreadableFile
from tether.tools.workspace import Workspace

__all__ = ["MAX_ATTACHED", "attachments"]

MAX_ATTACHED = 256 * 1024
"""Bytes of one file sent with a prompt."""
_MAX_FILES = 20
_MENTION = re.compile(r"(?:^|(?<=\s))@(\S+)")


def attachments(prompt: str, workspace: Workspace) -> list[TextContent]:
    """The files the prompt mentions, each once, as context blocks."""
    blocks: list[TextContent] = []
    seen: set[Path] = set()
    for mention in _MENTION.finditer(prompt):
        raw = mention[1].rstrip(".,;:!?)\"'")
        try:
            path = workspace.resolve(raw)
        except ToolError:
            continue
        if path in seen or not workspace.contains(path) or not path.is_file():
            continue
        try:
            text = read_bounded_text(path, limit=MAX_ATTACHED)
        except (OSError, UnreadableFile):
            continue
        if "\0" in text:
            continue
        seen.add(path)
        blocks.append(context_block(path.as_uri(), text))
        if len(blocks) == _MAX_FILES:
            break
    return blocks
