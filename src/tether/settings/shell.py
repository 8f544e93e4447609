"""Bash commands parsed with a real bash grammar (tree-sitter-bash), into what rules judge.

A command line becomes every simple command it would run — in lists, pipelines, subshells,
loops, functions and substitutions alike — each as its words, plus what rules cannot judge
by words: substitutions, redirections, assignments, anything that does not parse, and every
construct outside the closed grammar an allow rule can allow (`tether.settings.grammar`). A
word known only when the command runs (`$X`, `*.py`, `{a,b}`) is `None`.

tree-sitter is imported at the first parse, not before.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

__all__ = ["MAX_COMMAND_BYTES", "Redirect", "Script", "SimpleCommand", "Word", "parse_script"]

Word = str | None
"""A word as bash will see it, or `None` when only running the command tells."""

MAX_COMMAND_BYTES = 64 * 1024
"""Longer command lines are not parsed (they always ask)."""

_MAX_NODES = 50_000

_OUTPUT_OPERATORS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
_INPUT_OPERATORS = frozenset({"<", "<&"})

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
    for count, node in enumerate(_walk(tree.root_node)):
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


def _walk(root: Node) -> Iterator[Node]:
    """Every node below `root`, depth first, without recursion (deep input stays safe)."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def _visit(node: Node, script: Script) -> None:
    kind = node.type
    if node.is_missing or kind == "ERROR":
        script.unparsed = script.unparsed or "it does not parse as bash"
        return
    if not node.is_named:
        return
    _grammar(node, script)
    if kind == "compound_statement" and _text(node)[:2] not in ("{ ", "{\t", "{\n", "(("):
        script.skipped = True  # bash reads `{}` and `{ls;}` as words, not as a group
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


def _grammar(node: Node, script: Script) -> None:
    """Note why `node` leaves the closed grammar, if it does."""
    kind = node.type
    reason: str | None = None
    if _evaluates(node):
        script.evaluates = True
    if kind in _TEST_PARTS and _in_single_bracket_test(node):
        return  # `[ -f x ]`: the built-in `[`, which evaluates no string without -v
    if kind in ("command_substitution", "process_substitution"):
        return  # counted in `substitutions`
    if kind not in _GRAMMAR:
        reason = f"it uses {_NAMES.get(kind, kind.replace('_', ' '))}"
        if kind == "heredoc_body" and any(line.endswith("\\") for line in _text(node).split("\n")):
            script.misread = True
    elif kind == "word":
        reason = _word_problem(_text(node))
        if _bare_newline(_text(node)):
            script.skipped = True  # bash ends the command there; the parser reads on
    elif kind == "file_descriptor" and not _text(node).isdigit():
        reason = "it redirects a named descriptor ({name}>...)"
    if reason is not None and reason not in script.outside:
        script.outside.append(reason)


def _in_single_bracket_test(node: Node) -> bool:
    """Whether `node` is (in) a `[ ... ]` test that evaluates nothing (no -v, -R, -eq...)."""
    test: Node | None = node
    while test is not None and test.type != "test_command":
        test = test.parent
    if test is None:
        return False
    text = _text(test)
    return text.startswith("[") and not text.startswith("[[") and not _evaluates(test)


def _evaluates(node: Node) -> bool:
    """Whether bash evaluates what `node` holds as arithmetic or a variable reference, where
    a string such as `a[$(cmd)]` runs `cmd` though no parser sees a substitution."""
    kind = node.type
    text = _text(node)
    if kind in ("arithmetic_expansion", "c_style_for_statement", "unset_command"):
        return True
    if kind == "declaration_command":
        # `declare -i`, `local -n`, subscripts evaluate; `export X=1` does not.
        keyword = node.children[0].type if node.children else ""
        options = re.search(r"(?:^|\s)[-+]\w*[aAin]", text) is not None
        return keyword not in ("export", "readonly") or options or "[" in text or "(" in text
    if kind == "subscript":
        index = node.child_by_field_name("index")
        return index is None or not (index.type == "number" or _text(index) in ("@", "*"))
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
    for node in _walk(test):
        if node.type in ("word", "string", "raw_string", "concatenation", "number"):
            yield literal(node)
        elif node.type == "test_operator":
            yield _unescape_bare(_text(node))


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
        last = parent.named_children[-1] if parent.named_children else None
        if last is None or last.id != node.id:
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
    name = _text(name_node) if name_node is not None else ""
    if name_node is not None and name_node.type == "subscript":
        base = name_node.child_by_field_name("name")
        name = _text(base) if base is not None else name
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


def literal(node: Node) -> Word:
    """The text bash makes of word `node`, or `None` when it depends on the run."""
    match node.type:
        case "word":
            text = _text(node)
            if _is_pattern(text):
                return None
            return _unescape_bare(text)
        case "number":
            return _text(node)
        case "raw_string":
            return _text(node)[1:-1]
        case "string":
            parts = node.named_children
            if any(part.type != "string_content" for part in parts):
                return None
            return "".join(_unescape_double(_text(part)) for part in parts)
        case "concatenation":
            pieces = [literal(part) for part in node.named_children]
            if any(piece is None for piece in pieces):
                return None
            return "".join(piece for piece in pieces if piece is not None)
        case _:
            return None


def _text(node: Node) -> str:
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


def _unescape_bare(text: str) -> str:
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
