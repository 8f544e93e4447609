"""Bash commands parsed with a real bash grammar (tree-sitter-bash), into what rules judge.

A command line becomes every simple command it would run — in lists, pipelines, subshells,
loops, functions and substitutions alike — each as its words, plus what rules cannot judge
by words: substitutions, redirections, assignments, anything that does not parse, and every
construct outside the closed grammar an allow rule can allow (`tether.shell.grammar`). A
word known only when the command runs (`$X`, `*.py`, `{a,b}`) is `None`.

tree-sitter is imported at the first parse, not before.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tether.shell.treecheck import examine
from tether.shell.words import Word, literal, node_text, walk

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

__all__ = [
    "MAX_COMMAND_BYTES",
    "Redirect",
    "Script",
    "SimpleCommand",
    "Word",
    "literal",
    "parse_script",
]


MAX_COMMAND_BYTES = 64 * 1024
"""Longer command lines are not parsed (they always ask)."""

_MAX_NODES = 50_000

_OUTPUT_OPERATORS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
_INPUT_OPERATORS = frozenset({"<", "<&"})

_STRUCTURE = frozenset(
    {
        "program",
        "list",
        "pipeline",
        "subshell",
        "compound_statement",
        "redirected_statement",
        "negated_command",
        "for_statement",
        "c_style_for_statement",
        "while_statement",
        "if_statement",
        "elif_clause",
        "else_clause",
        "case_statement",
        "case_item",
        "do_group",
        "function_definition",
        "test_command",
        "comment",
        "heredoc_redirect",
        "herestring_redirect",
        "heredoc_body",
        "heredoc_content",
        "heredoc_start",
        "heredoc_end",
        "command_name",
        "variable_assignments",
        "word",
        "string",
        "string_content",
        "raw_string",
        "ansi_c_string",
        "translated_string",
        "number",
        "concatenation",
        "simple_expansion",
        "expansion",
        "arithmetic_expansion",
        "variable_name",
        "special_variable_name",
        "subscript",
        "array",
        "brace_expression",
        "binary_expression",
        "unary_expression",
        "postfix_expression",
        "ternary_expression",
        "parenthesized_expression",
        "test_operator",
        "extglob_pattern",
        "regex",
        "file_descriptor",
    }
)
"""Nodes that run nothing by themselves (what they contain is walked)."""


@dataclass(frozen=True)
class SimpleCommand:
    """One simple command: its words (the command first) and the assignments before it."""

    words: tuple[Word, ...]
    assignments: tuple[tuple[str, Word], ...] = ()


@dataclass(frozen=True)
class Redirect:
    """An output redirection to a file (`None`: a name known only when it runs)."""

    target: Word


@dataclass
class Script:
    """What one command line runs, and what about it rules cannot judge."""

    commands: list[SimpleCommand] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)
    assignments: list[tuple[str, Word]] = field(default_factory=list)
    """Variables set for the rest of the line (`X=1; ...`, `export X=1`)."""
    substitutions: int = 0
    """Command and process substitutions (their commands are in `commands` too)."""
    unparsed: str | None = None
    """Why (part of) the line could not be parsed; `None` when all of it was."""
    inputs: list[Word] = field(default_factory=list)
    """Files read by an input redirection (`< FILE`)."""
    outside: list[str] = field(default_factory=list)
    """Why the line leaves the closed grammar an allow rule can allow; empty if it does not."""
    comments: list[int] = field(default_factory=list)
    """Where the parser found comments, as byte offsets."""
    evaluates: bool = False
    """Whether bash may evaluate a string in it as code where the parser sees only a word
    (arithmetic, `[[ -eq ]]`, `${x@P}`, an array subscript): deny rules cannot see all."""
    skipped: bool = False
    """Whether the parser passed over characters that are not blanks (`|-`, `\\ `, `\\r`)
    or read on past a newline that ends a command for bash (`ls\\n\\\\rm`): bash reads
    otherwise, so deny rules cannot be checked on all of it."""
    misread: bool = False
    """Whether bash may read part of it otherwise than the parser (a here-document line
    ending in `\\`): deny rules cannot be checked on all of it."""


@functools.cache
def _parser() -> Parser:
    import tree_sitter_bash
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_bash.language()))


def parse_script(command: str) -> Script:
    """Every simple command, redirection and assignment of `command`."""
    script = Script()
    data = command.encode("utf-8", errors="surrogatepass")
    if len(data) > MAX_COMMAND_BYTES:
        script.unparsed = f"it is longer than {MAX_COMMAND_BYTES} bytes"
        return script
    tree = _parser().parse(data)
    covered = bytearray(len(data))
    for count, node in enumerate(walk(tree.root_node)):
        if count > _MAX_NODES:
            script.unparsed = "it is too complex to check"
            break
        _visit(node, script)
        if node.child_count == 0 or node.type == "heredoc_body":  # a body's text is its own
            covered[node.start_byte : node.end_byte] = b"\x01" * (node.end_byte - node.start_byte)
            if not node.is_named and node.text != node.type.encode():
                script.skipped = True  # a token stretched over more: `"\\ "` read as `"`
    if script.unparsed is None and _skipped(data, covered):
        script.skipped = True
    return script


def _skipped(data: bytes, covered: bytearray) -> bool:
    """Whether the parser passed over a character bash reads: anything but a blank, a
    newline or a `\\`-newline continuation outside every token."""
    index = 0
    while index < len(data):
        if not covered[index]:
            byte = data[index]
            if byte == 0x5C and data[index + 1 : index + 2] == b"\n":
                index += 2
                continue
            if byte not in b" \t\n":
                return True
        index += 1
    return False


def _visit(node: Node, script: Script) -> None:
    kind = node.type
    if node.is_missing or kind == "ERROR":
        script.unparsed = script.unparsed or "it does not parse as bash"
        return
    if not node.is_named:
        return
    found = examine(node)
    if found.outside is not None and found.outside not in script.outside:
        script.outside.append(found.outside)
    script.evaluates = script.evaluates or found.evaluates
    script.skipped = script.skipped or found.skipped
    script.misread = script.misread or found.misread
    if kind == "comment":
        script.comments.append(node.start_byte)
    elif kind == "command":
        script.commands.append(_simple(node))
    elif kind in ("declaration_command", "unset_command"):
        script.commands.append(_declaration(node, script))
    elif kind in ("command_substitution", "process_substitution"):
        script.substitutions += 1
    elif kind == "file_redirect":
        _redirect(node, script)
    elif kind == "variable_assignment":
        parent = node.parent
        if parent is None or parent.type not in ("command", "declaration_command"):
            script.assignments.append(_assignment(node))
    elif kind not in _STRUCTURE:
        script.unparsed = script.unparsed or f"it uses {kind.replace('_', ' ')}"


def _simple(node: Node) -> SimpleCommand:
    words: list[Word] = []
    assignments: list[tuple[str, Word]] = []
    for child in node.named_children:
        match child.type:
            case "variable_assignment" if not words:
                assignments.append(_assignment(child))
            case "file_redirect" | "herestring_redirect" | "heredoc_redirect" | "comment":
                pass
            case "command_name":
                words.append(literal(child.named_children[0]) if child.named_children else None)
            case _:
                words.append(literal(child))
    words.extend(_trailing_words(node))
    return SimpleCommand(tuple(words), tuple(assignments))


def _trailing_words(command: Node) -> list[Word]:
    """Arguments the parser files under a redirection that follows the command: in
    `git > log push`, tree-sitter-bash reads `push` as a second target, bash as an argument.
    In `a | b > log x` and `a && b > log x` the parser wraps the redirection around the
    pipeline or list; bash gives it, and `x`, to the last command."""
    node = command
    parent = node.parent
    while parent is not None and parent.type in ("pipeline", "list"):
        if node.next_named_sibling is not None:
            return []
        node, parent = parent, parent.parent
    body = parent.child_by_field_name("body") if parent is not None else None
    if parent is None or parent.type != "redirected_statement" or body is None:
        return []
    if body.id != node.id:
        return []
    words: list[Word] = []
    for redirect in parent.children_by_field_name("redirect"):
        if redirect.type == "file_redirect":
            words.extend(literal(d) for d in redirect.children_by_field_name("destination")[1:])
        elif redirect.type == "heredoc_redirect":
            words.extend(literal(a) for a in redirect.children_by_field_name("argument"))
    return words


def _declaration(node: Node, script: Script) -> SimpleCommand:
    """`export X=1`, `declare -x Y`, `unset Z`: a command whose assignments last."""
    keyword = node.children[0].type if node.children else "declare"
    words: list[Word] = [keyword]
    for child in node.named_children:
        if child.type == "variable_assignment":
            name, value = _assignment(child)
            script.assignments.append((name, value))
            words.append(None if value is None else f"{name}={value}")
        elif child.type != "file_redirect":
            words.append(literal(child))
    return SimpleCommand(tuple(words))


def _assignment(node: Node) -> tuple[str, Word]:
    name_node = node.child_by_field_name("name")
    value = node.child_by_field_name("value")
    name = node_text(name_node) if name_node is not None else ""
    if name_node is not None and name_node.type == "subscript":
        base = name_node.child_by_field_name("name")
        name = node_text(base) if base is not None else name
    return name, ("" if value is None else literal(value))


def _redirect(node: Node, script: Script) -> None:
    operator = next((c.type for c in node.children if not c.is_named), "")
    if operator in _INPUT_OPERATORS:
        _input(node, operator, script)
        return
    if operator in (">&-", "<&-"):
        return  # closes a descriptor
    if operator not in _OUTPUT_OPERATORS:
        script.outside.append(f"it uses the redirection {operator}")
        return
    destination = node.child_by_field_name("destination")
    if destination is None:
        destinations = [c for c in node.named_children if c.type != "file_descriptor"]
        destination = destinations[-1] if destinations else None
    if destination is None:
        return
    target = literal(destination)
    if operator == ">&":
        if target is not None and (target == "-" or target.isdigit()):
            return  # a duplicated descriptor, not a file
        # `>&WORD` names a file, but bash expands WORD twice: `>&'$(cmd)'` runs cmd.
        script.evaluates = True
        script.outside.append("it redirects with >& to a word, which bash expands twice")
    script.redirects.append(Redirect(target))


def _input(node: Node, operator: str, script: Script) -> None:
    sources = node.children_by_field_name("destination")
    if not sources:
        return  # `<&-` closes standard input
    source = literal(sources[0])
    if operator == "<&":
        if source is None or not (source == "-" or source.isdigit()):
            script.outside.append("it duplicates a descriptor named only when it runs")
        return
    script.inputs.append(source)
