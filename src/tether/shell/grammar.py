"""The closed grammar an allow rule can allow: the part of bash tether fully understands.

An allow rule allows a command line only when every command in it is allowed *and* the line
stays inside this grammar; anything else asks (deny and ask rules still match anywhere):

- words that are literals: plain, `'single'` or `"double"` quoted, with no expansion of any
  kind — no `$` (variables, `$(...)`, `$((...))`, `$'...'`), no backquote, no `<(...)`, no
  brace expansion (`{a,b}`), no `~`. A glob (`*`, `?`, `[...]`) is a word known only when the
  line runs: it never matches a word a rule names, so it can stand only where a `:*` rule
  allows any word anyway;
- `;`, `&&`, `||`, `|`, `&`, newlines, `( ... )` and `{ ...; }`;
- redirections between descriptors (`2>&1`) and to or from files inside the workspace (and
  `/dev/null`); none into a protected path without asking (`tether.sandbox.protected`);
- variables set for a command or the line only from `SAFE_VARIABLES`, to literals;
- bash built-ins only from `INERT` (need no rule beside allowed commands) or `RULED` (a rule
  must name them), each only in forms that evaluate no string.

No here-document or here-string, loop, condition, function, `[[ ]]`, `(( ))`, `let`, `eval`,
`source`, `exec`, `trap`, `declare`/`export`/`local`/`readonly`/`typeset`, `unset`, `read`,
`mapfile`, `printf -v`, `test -v`, `set -x`, `wait -p`, `shopt`, `alias`, no line
continuation (`\\` at a line's end) and no control character (a carriage return included).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from tether.shell.words import Word

__all__ = [
    "INERT",
    "RULED",
    "SAFE_VARIABLES",
    "LineScan",
    "builtin_problem",
    "is_builtin",
    "scan_line",
    "variable_problem",
]

SAFE_VARIABLES = frozenset(
    {
        "CI",
        "NODE_ENV",
        "RAILS_ENV",
        "RACK_ENV",
        "NO_COLOR",
        "FORCE_COLOR",
        "CLICOLOR",
        "CLICOLOR_FORCE",
        "RUST_BACKTRACE",
        "RUST_LOG",
        "PYTHONUNBUFFERED",
        "PYTHONDONTWRITEBYTECODE",
    }
)
"""Variables a line an allow rule allows may set: read by programs as plain flags, never as
a path, a program or code (unlike `PATH`, `HOME`, `LD_*`, `BASH_ENV`, `PS4`...)."""

_POWERFUL_VARIABLES = frozenset(
    {
        "PATH",
        "BASH_ENV",
        "ENV",
        "IFS",
        "SHELLOPTS",
        "BASHOPTS",
        "PS4",
        "PROMPT_COMMAND",
        "NODE_OPTIONS",
        "PYTHONPATH",
        "PYTHONSTARTUP",
        "PYTHONHOME",
        "PERL5OPT",
        "PERL5LIB",
        "PERLLIB",
        "RUBYOPT",
        "RUBYLIB",
        "GCONV_PATH",
        "LESSOPEN",
        "PAGER",
        "EDITOR",
        "VISUAL",
        "HOME",
        "ZDOTDIR",
        "XDG_CONFIG_HOME",
        "CDPATH",
        "GLOBIGNORE",
        "PS0",
        "PS1",
        "JAVA_TOOL_OPTIONS",
        "_JAVA_OPTIONS",
    }
)
_POWERFUL_PREFIXES = ("LD_", "DYLD_", "GIT_", "BASH_FUNC_", "NPM_CONFIG_", "npm_config_")


def variable_problem(name: str) -> tuple[str, bool] | None:
    """Why a line that sets variable `name` may not be allowed, and whether what it does
    hides from deny rules (`PATH`, `BASH_ENV`: yes); `None` for `SAFE_VARIABLES`."""
    if name in _POWERFUL_VARIABLES or name.startswith(_POWERFUL_PREFIXES):
        return f"it sets {name}, which changes what programs do", True
    if name not in SAFE_VARIABLES:
        return f"it sets {name}, which tether does not know to be harmless", False
    return None


INERT = frozenset(
    {"cd", "echo", "printf", "true", "false", ":", "pwd", "test", "[", "set", "wait", "exit"}
)
"""Built-ins that need no rule beside commands that have one: in the forms the grammar
admits they run no program, evaluate no string and write no file (`cd` stays inside)."""

RULED = frozenset(
    {"kill", "umask", "type", "hash", "ulimit", "times", "dirs", "pushd", "popd"}
    | {"disown", "fg", "bg", "help", "command", "builtin", "time"}
)
"""Built-ins (and keywords) an allow rule may allow when it names them: they evaluate no
string (`command` and `builtin` pass on to the command they run, `time` to its pipeline)."""

_BASH_WORDS = frozenset(
    {
        *("alias", "bind", "break", "caller", "compgen", "complete", "compopt", "continue"),
        *("jobs",),
        *("declare", "enable", "eval", "exec", "export", "fc", "getopts", "history", "let"),
        *("local", "logout", "mapfile", "read", "readarray", "readonly", "return", "shift"),
        *("shopt", "source", ".", "suspend", "trap", "typeset", "unalias", "unset"),
        *("coproc", "select", "function", "[[", "((", "!", "{", "}", "if", "then", "else"),
        *("elif", "fi", "case", "esac", "for", "while", "until", "do", "done", "in"),
    }
)
"""The rest of bash's built-ins and keywords: outside the grammar wherever they appear."""

_SET_FLAGS = frozenset("euCfB")
_SET_NAMES = frozenset({"errexit", "nounset", "pipefail", "noclobber", "noglob"})


def is_builtin(name: str) -> bool:
    """Whether bash runs `name` itself (a built-in or keyword) rather than a program."""
    return name in INERT or name in RULED or name in _BASH_WORDS


def builtin_problem(words: tuple[Word, ...]) -> str | None:
    """Why bash built-in `words[0]`, run by bash itself, leaves the grammar; `None` if not."""
    name = words[0]
    if name is None or not is_builtin(name):
        return None
    arguments = words[1:]
    if name in _BASH_WORDS:
        return f"it uses the bash built-in `{name}`, which can run a string as code"
    if name == "printf" and any(a is None or a.startswith("-v") for a in arguments[:1]):
        return "it uses printf -v, which can run a string as code"
    if name in ("test", "[") and any(a in ("-v", "-R") for a in arguments):
        return f"it uses {name} -v, which can run a string as code"
    if name == "wait" and any(a is None or (a.startswith("-") and "p" in a) for a in arguments):
        return "it uses wait -p, which can run a string as code"
    if name == "set" and not _plain_set(arguments):
        return "it uses set with an option that can run a string as code (set -x)"
    return None


def _plain_set(arguments: tuple[Word, ...]) -> bool:
    """Whether `set ARGUMENTS` only turns on or off options that evaluate nothing."""
    expect_name = False
    for word in arguments:
        if word is None:
            return False
        if expect_name:
            if word not in _SET_NAMES:
                return False
            expect_name = False
        elif word == "--":
            return True
        elif word[:1] in ("-", "+") and len(word) > 1:
            letters = set(word[1:])
            if not letters <= _SET_FLAGS | {"o"}:
                return False
            expect_name = "o" in letters
        else:
            return True  # positional parameters from here on
    return not expect_name


@dataclass(frozen=True)
class LineScan:
    """What a reading of a command line's characters, with bash's quoting, finds."""

    outside: tuple[str, ...]
    """Why the line leaves the grammar; empty when its characters stay inside."""
    control: str | None
    """Why bash and the parser may read it differently (a control character), if they may."""
    joined: str | None
    """The line with its `\\`-newline continuations removed, as bash reads it; `None` when
    it has none."""
    comments: frozenset[int]
    """Where bash's comments start, as byte offsets into the UTF-8 line."""


def scan_line(text: str) -> LineScan:
    """Read `text` as bash quotes it: expansions, here-documents, continuations, controls.

    Independent of the parser on purpose: a character the parser reads otherwise than bash
    (a carriage return, a `$` it takes for a literal) still keeps the line from being allowed.
    """
    scanner = _Scanner(text)
    scanner.run()
    if any(_control(char) for char in text):  # escaped or quoted ones too
        scanner.control = "it holds a control character, which bash and tether may read differently"
    joined = "".join(scanner.joined) if scanner.continued else None
    comments = frozenset(
        len(text[:index].encode("utf-8", errors="surrogatepass")) for index in scanner.comments
    )
    return LineScan(tuple(scanner.outside), scanner.control, joined, comments)


class _Scanner:
    """One pass over a line, tracking bash's quoting (`plain`, `single`, `double`)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.outside: list[str] = []
        self.control: str | None = None
        self.joined: list[str] = []
        self.continued = False
        self.comments: list[int] = []
        self.state = "plain"
        self.at_word_start = True

    def note(self, reason: str) -> None:
        if reason not in self.outside:
            self.outside.append(reason)

    def run(self) -> None:
        text, index = self.text, 0
        while index < len(text):
            char = text[index]
            if _control(char):
                self.control = (
                    "it holds a control character, which bash and tether may read differently"
                )
            if self.state == "single":
                self.state = "plain" if char == "'" else "single"
                self.joined.append(char)
                index += 1
            elif char == "\\" and index + 1 < len(text):
                if self.state == "plain" and self.at_word_start and text[index + 1] in " \t":
                    # The parser drops a blank escaped at a word's start; bash keeps it.
                    self.note("it starts a word with an escaped blank, which tether misreads")
                if text[index + 1] == "\n":
                    self.note("it continues a line with \\, which bash and tether read differently")
                    self.continued = True
                else:
                    self.joined.append(text[index : index + 2])
                index += 2
                self.at_word_start = False
            elif char == "#" and self.state == "plain" and self.at_word_start:
                end = text.find("\n", index)
                end = len(text) if end < 0 else end
                self.comments.append(index)
                self.joined.append(text[index:end])
                index = end
            else:
                self.step(index)
                index += 1

    def step(self, index: int) -> None:
        """Read the character at `index` outside single quotes."""
        char = self.text[index]
        if char in "$`":
            self.note("it expands something ($, `), so what it runs is known only when it runs")
        elif self.state == "double":
            if char == '"':
                self.state = "plain"
        elif char == "'":
            self.state = "single"
        elif char == '"':
            self.state = "double"
        elif self.text.startswith("<<", index):
            self.note("it uses a here-document or here-string")
        elif self.text.startswith(("<(", ">("), index):
            self.note("it runs a process substitution")
        self.at_word_start = self.state == "plain" and char in " \t\n;&|()<>"
        self.joined.append(char)


def _control(char: str) -> bool:
    if char in " \t\n":
        return False
    category = unicodedata.category(char)
    return category in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp", "Zs")
