"""Where a parsed bash line leaves the closed grammar an allow rule can allow, node by node
(`tether.shell.grammar` says what the grammar is), and where bash would evaluate a string
or read the text otherwise than tree-sitter-bash does."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tether.shell.words import Word, literal, node_text, unescape_bare, walk

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["Finding", "examine"]

_GRAMMAR = frozenset(
    {
        "program",
        "list",
        "pipeline",
        "subshell",
        "compound_statement",
        "redirected_statement",
        "command",
        "command_name",
        "word",
        "string",
        "string_content",
        "raw_string",
        "number",
        "concatenation",
        "file_redirect",
        "file_descriptor",
        "comment",
        "variable_assignment",
        "variable_name",
    }
)
"""Nodes of the closed grammar an allow rule can allow; any other node makes the line ask."""

_EXPRESSIONS = frozenset(
    {
        "binary_expression",
        "unary_expression",
        "postfix_expression",
        "ternary_expression",
        "parenthesized_expression",
    }
)
_TEST_PARTS = frozenset({"test_command", "test_operator", *_EXPRESSIONS})
_ARITHMETIC_TEST = re.compile(r"(?<![\w-])-(eq|ne|lt|le|gt|ge|v|R)(?![\w-])")

_NAMES = {
    "while_statement": "a loop",
    "for_statement": "a loop",
    "c_style_for_statement": "a loop",
    "if_statement": "a condition (if)",
    "case_statement": "case",
    "binary_expression": "arithmetic or a test",
    "unary_expression": "arithmetic or a test",
    "postfix_expression": "arithmetic",
    "ternary_expression": "arithmetic",
    "parenthesized_expression": "arithmetic or a test",
    "heredoc_redirect": "a here-document",
    "herestring_redirect": "a here-string",
    "simple_expansion": "a variable expansion",
    "expansion": "a variable expansion",
    "command_substitution": "a command substitution",
    "process_substitution": "a process substitution",
    "arithmetic_expansion": "arithmetic",
    "test_command": "[[ ]] or (( ))",
    "declaration_command": "declare, export, local, readonly or typeset",
    "unset_command": "unset",
    "function_definition": "a function definition",
    "negated_command": "!",
    "ansi_c_string": "$'...' quoting",
    "translated_string": '$"..." quoting',
    "subscript": "an array element",
    "heredoc_start": "a here-document",
    "heredoc_body": "a here-document",
    "heredoc_content": "a here-document",
    "heredoc_end": "a here-document",
}


@dataclass(frozen=True)
class Finding:
    """What one node says about its line."""

    outside: str | None = None
    """Why the line leaves the grammar, if this node makes it."""
    evaluates: bool = False
    """Whether bash evaluates a string there (arithmetic, a subscript, `${x@P}`)."""
    skipped: bool = False
    """Whether bash reads the text there otherwise than the parser."""
    misread: bool = False
    """Whether it is a here-document with a line ending in `\\`."""


NOTHING = Finding()


def examine(node: Node) -> Finding:
    """What named node `node` says about the line it is in."""
    kind = node.type
    text = node_text(node)
    evaluates = _evaluates(node)
    if kind in _TEST_PARTS and _in_single_bracket_test(node):
        return Finding(evaluates=evaluates)  # `[ -f x ]`: no string evaluated without -v
    if kind in ("command_substitution", "process_substitution"):
        return Finding(evaluates=evaluates)  # counted apart
    if kind == "compound_statement" and text[:2] not in ("{ ", "{\t", "{\n", "(("):
        return Finding(evaluates=evaluates, skipped=True)  # bash reads `{}`, `{ls;}` as words
    if kind not in _GRAMMAR:
        misread = kind == "heredoc_body" and any(line.endswith("\\") for line in text.split("\n"))
        reason = f"it uses {_NAMES.get(kind, kind.replace('_', ' '))}"
        return Finding(reason, evaluates, misread=misread)
    if kind == "word":
        # A bare newline: bash ends the command there; the parser reads on.
        return Finding(_word_problem(text), evaluates, skipped=_bare_newline(text))
    if kind == "file_descriptor" and not text.isdigit():
        return Finding("it redirects a named descriptor ({name}>...)", evaluates)
    return Finding(evaluates=evaluates) if evaluates else NOTHING


def _in_single_bracket_test(node: Node) -> bool:
    """Whether `node` is (in) a `[ ... ]` test that evaluates nothing (no -v, -R, -eq...)."""
    test: Node | None = node
    while test is not None and test.type != "test_command":
        test = test.parent
    if test is None:
        return False
    text = node_text(test)
    return text.startswith("[") and not text.startswith("[[") and not _evaluates(test)


def _evaluates(node: Node) -> bool:
    """Whether bash evaluates what `node` holds as arithmetic or a variable reference, where
    a string such as `a[$(cmd)]` runs `cmd` though no parser sees a substitution."""
    kind = node.type
    text = node_text(node)
    if kind in ("arithmetic_expansion", "c_style_for_statement", "unset_command"):
        return True
    if kind == "declaration_command":
        # `declare -i`, `local -n`, subscripts evaluate; `export X=1` does not.
        keyword = node.children[0].type if node.children else ""
        options = re.search(r"(?:^|\s)[-+]\w*[aAin]", text) is not None
        return keyword not in ("export", "readonly") or options or "[" in text or "(" in text
    if kind == "subscript":
        index = node.child_by_field_name("index")
        return index is None or not (index.type == "number" or node_text(index) in ("@", "*"))
    if kind == "expansion":
        inner = text[2:-1]
        offset = re.search(r":[^-=?+]", inner) is not None
        return inner.startswith("!") or "@" in inner or "=" in inner or offset
    if kind == "test_command":
        if text.startswith("((") or _ARITHMETIC_TEST.search(text) is not None:
            return True
        # As bash reads them: `[ -\\v 'a[$(cmd)]' ]` is `-v`.
        return any(_ARITHMETIC_TEST.fullmatch(word or "") for word in _test_words(node))
    if kind in _EXPRESSIONS:
        parent = node.parent
        while parent is not None and parent.type != "test_command":
            parent = parent.parent
        return parent is None  # inside `[[ ]]` the test command decides; `(( ))` evaluates
    return False


def _bare_newline(text: str) -> bool:
    """Whether bare word `text` holds a newline no odd run of backslashes escapes."""
    for index, char in enumerate(text):
        if char == "\n":
            run = len(text[:index]) - len(text[:index].rstrip("\\"))
            if run % 2 == 0:
                return True
    return False


def _test_words(test: Node) -> Iterator[Word]:
    """The words of a `[ ]` or `[[ ]]` test as bash reads them (`None` when they expand)."""
    for node in walk(test):
        if node.type in ("word", "string", "raw_string", "concatenation", "number"):
            yield literal(node)
        elif node.type == "test_operator":
            yield unescape_bare(node_text(node))


def _word_problem(text: str) -> str | None:
    """Why bare word `text` expands in a way the grammar excludes (braces, `~`)."""
    if text != "{}" and _unquoted(text, "{}"):
        return "it uses brace expansion"
    if text.startswith("~") or "=~" in text or ":~" in text:
        return "it uses ~, which expands to a home directory"
    return None


def _unquoted(text: str, chars: str) -> bool:
    escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in chars:
            return True
    return False
