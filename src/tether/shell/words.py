"""Words of a bash line as bash makes them: a tree-sitter node's literal text, or `None`
when only running the line tells (`$X`, `*.py`, `{a,b}`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["Word", "literal", "node_text", "unescape_bare", "walk"]

Word = str | None
"""A word as bash will see it, or `None` when only running the command tells."""


def walk(root: Node) -> Iterator[Node]:
    """Every node below `root`, depth first, without recursion (deep input stays safe)."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def literal(node: Node) -> Word:
    """The text bash makes of word `node`, or `None` when it depends on the run."""
    match node.type:
        case "word":
            text = node_text(node)
            if _is_pattern(text):
                return None
            return unescape_bare(text)
        case "number":
            return node_text(node)
        case "raw_string":
            return node_text(node)[1:-1]
        case "string":
            parts = node.named_children
            if any(part.type != "string_content" for part in parts):
                return None
            return "".join(_unescape_double(node_text(part)) for part in parts)
        case "concatenation":
            pieces = [literal(part) for part in node.named_children]
            if any(piece is None for piece in pieces):
                return None
            return "".join(piece for piece in pieces if piece is not None)
        case _:
            return None


def node_text(node: Node) -> str:
    """The source text of `node`."""
    return (node.text or b"").decode("utf-8", errors="surrogateescape")


def _is_pattern(text: str) -> bool:
    """Whether bare `text` expands (globs, braces): an unescaped `*`, `?`, `[` or `{`."""
    escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in "*?[{}":
            return True
    return False


def unescape_bare(text: str) -> str:
    """Bare word `text` with its backslashes applied as bash applies them."""
    out = []
    chars = iter(text)
    for char in chars:
        if char == "\\":
            following = next(chars, "")
            if following != "\n":
                out.append(following)
        else:
            out.append(char)
    return "".join(out)


def _unescape_double(text: str) -> str:
    out = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text) and text[i + 1] in '$`"\\\n':
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        out.append(char)
        i += 1
    return "".join(out)
