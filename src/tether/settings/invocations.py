"""What a command line runs, as rules see it: each program, through its wrappers.

`env VAR=1 nohup npm test` runs `npm test`: allow rules judge `npm test`, and deny and ask
rules judge every form (`env VAR=1 nohup npm test`, `nohup npm test`, `npm test`, and
`rm` for `/bin/rm`). `sh -c 'a && b'` runs `a` and `b`; `find -exec rm {} ;` runs `rm`;
`sudo` and `xargs` run their command too, but with more power or more arguments, so an allow
rule must name them. What rules cannot judge by words is a *concern* — a substitution,
`eval`, `source`, an output redirection outside the workspace, a variable such as `PATH`
that changes which program runs, anything that does not parse — and such a command always
asks. Some concerns also hide what runs (*opaque*): deny rules cannot be checked on them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tether.settings.shell import SimpleCommand, Word, parse_script
from tether.settings.wrappers import WRAPPERS, Wrapper, option_width

__all__ = ["INERT", "Check", "CommandAnalysis", "analyze_command"]

INERT = frozenset(
    {
        "cd",
        "pushd",
        "popd",
        "true",
        "false",
        ":",
        "echo",
        "printf",
        "pwd",
        "test",
        "[",
        "export",
        "local",
        "declare",
        "readonly",
        "typeset",
        "unset",
        "set",
        "exit",
        "return",
        "wait",
        "sleep",
    }
)
"""Commands that need no rule inside a command line whose other commands are allowed: they
run no program and touch no file (an output redirection is checked on its own)."""

_SAFE_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})

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
    }
)
_POWERFUL_PREFIXES = ("LD_", "DYLD_", "GIT_", "BASH_FUNC_")

_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash"})
_MAX_DEPTH = 4
_MAX_LAYERS = 8


@dataclass(frozen=True)
class Check:
    """One program a command line runs."""

    run: tuple[Word, ...] | None
    """The words an allow rule must cover; `None` when they are judged apart (`sh -c`)."""
    views: tuple[tuple[Word, ...], ...]
    """Every form deny and ask rules are matched against."""
    inert: bool = False
    """Whether it needs no allow rule beside commands that have one (`cd`, `echo`)."""


@dataclass(frozen=True)
class CommandAnalysis:
    """A command line as rules see it."""

    checks: tuple[Check, ...]
    concerns: tuple[str, ...]
    """Why no rule may allow it (it always asks); empty when rules decide."""
    opaque: bool
    """Whether part of it cannot be seen, so deny rules could not be checked on all of it."""


@dataclass
class _Analysis:
    cwd: Path
    roots: Sequence[Path]
    checks: list[Check] = field(default_factory=list)
    concerns: list[str] = field(default_factory=list)
    opaque: bool = False

    def concern(self, text: str, *, opaque: bool = False) -> None:
        if text not in self.concerns:
            self.concerns.append(text)
        self.opaque = self.opaque or opaque

    def script(self, text: str, depth: int) -> None:
        if depth > _MAX_DEPTH:
            self.concern("it nests commands in strings too deeply to check", opaque=True)
            return
        parsed = parse_script(text)
        if parsed.unparsed is not None:
            self.concern(f"{parsed.unparsed}, so tether cannot tell what it runs", opaque=True)
        if parsed.substitutions:
            self.concern("it runs a command or process substitution")
        for redirect in parsed.redirects:
            self.redirect(redirect.target)
        for name, _ in parsed.assignments:
            self.variable(name)
        for command in parsed.commands:
            self.simple(command, depth)

    def variable(self, name: str) -> None:
        if name in _POWERFUL_VARIABLES or name.startswith(_POWERFUL_PREFIXES):
            self.concern(f"it sets {name}, which changes what programs do")

    def redirect(self, target: Word) -> None:
        if target is None:
            self.concern("it writes to a file named only when it runs")
        elif not self.inside(target):
            self.concern(f"it writes outside the workspace ({target})")

    def inside(self, target: str) -> bool:
        if target in _SAFE_TARGETS or target.startswith("/dev/fd/"):
            return True
        path = Path(os.path.expanduser(target))
        try:
            resolved = Path(os.path.realpath(self.cwd / path))
        except (OSError, ValueError):
            return False
        return any(resolved == root or resolved.is_relative_to(root) for root in self.roots)

    def simple(self, command: SimpleCommand, depth: int) -> None:
        for name, _ in command.assignments:
            self.variable(name)
        if not command.words:
            return
        views: list[tuple[Word, ...]] = []
        run: tuple[Word, ...] | None = command.words
        current = command.words
        allow_follows = True
        for _ in range(_MAX_LAYERS):
            first = current[0]
            if first is None:
                self.concern("the program it runs is known only when it runs", opaque=True)
                break
            views.extend(_forms(current))
            program = os.path.basename(first)
            if self.special(program, current, depth):
                if current is run:
                    run = None
                break
            if program in ("cd", "pushd"):
                self.directory(current)
            if program == "find":
                self.find(current, depth)
            wrapper = WRAPPERS.get(program)
            if wrapper is None:
                break
            inner = self.unwrap(program, wrapper, current)
            if inner is None:
                break
            if wrapper.allow and allow_follows:
                run = inner
            else:
                allow_follows = False
            current = inner
        inert = run is not None and bool(run) and run[0] in INERT
        self.checks.append(Check(run, tuple(dict.fromkeys(views)), inert))

    def special(self, program: str, words: tuple[Word, ...], depth: int) -> bool:
        """Handle commands that run strings or change the shell; whether `words` was one."""
        arguments = words[1:]
        if program in {"eval", "trap"}:
            strings = arguments if program == "eval" else arguments[:1]
            if any(a is None for a in strings):
                self.concern(f"what {program} runs is known only when it runs", opaque=True)
                return True
            self.concern(f"it uses {program}")
            if strings:
                self.script(" ".join(a for a in strings if a is not None), depth + 1)
            return True
        if program in ("source", "."):
            self.concern("it sources a file, whose commands cannot be checked", opaque=True)
            return True
        if program in ("alias", "enable", "fc") or (program == "hash" and "-p" in arguments):
            self.concern(f"`{program}` changes what later commands run", opaque=True)
            return True
        if program in _SHELLS:
            code = _shell_code(arguments)
            if code is False:
                return False
            if isinstance(code, str):
                self.script(code, depth + 1)
            else:
                self.concern(f"what {program} -c runs is known only when it runs", opaque=True)
            return True
        return False

    def directory(self, words: tuple[Word, ...]) -> None:
        targets = [w for w in words[1:] if w is None or not w.startswith("-")]
        if not targets:
            self.concern("it changes to the home directory, outside the workspace")
        elif targets[0] is None or not self.inside(targets[0]):
            self.concern("it changes to a directory outside the workspace")

    def find(self, words: tuple[Word, ...], depth: int) -> None:
        index = 1
        while index < len(words):
            if words[index] in ("-exec", "-execdir", "-ok", "-okdir"):
                end = index + 1
                while end < len(words) and words[end] not in (";", "+"):
                    end += 1
                inner = words[index + 1 : end]
                if inner:
                    self.simple(SimpleCommand(tuple(inner)), depth)
                index = end
            index += 1

    def unwrap(
        self, program: str, wrapper: Wrapper, words: tuple[Word, ...]
    ) -> tuple[Word, ...] | None:
        """The command `wrapper` runs, or `None` when it runs none (a concern when unclear)."""
        index = 1
        while index < len(words):
            word = words[index]
            if word is None:
                self.concern(f"tether cannot tell which command {program} runs", opaque=True)
                return None
            if word == "--":
                index += 1
                break
            if wrapper.assignments and "=" in word and not word.startswith("-"):
                self.variable(word.split("=", 1)[0])
                index += 1
                continue
            if not word.startswith("-") or word == "-":
                break
            if word in wrapper.stops:
                return None
            step = option_width(word, wrapper)
            if step is None:
                if program == "env" and (
                    word in ("-S", "--split-string") or word.startswith("--split-string=")
                ):
                    self.concern("env -S splits a string into a command", opaque=True)
                else:
                    self.concern(f"tether cannot tell which command {program} runs", opaque=True)
                return None
            index += step
        index += wrapper.positionals
        inner = words[index:]
        return inner or None


def analyze_command(command: str, cwd: Path, roots: Sequence[Path]) -> CommandAnalysis:
    """Every program `command` runs in `cwd`, and why rules may not decide on it."""
    analysis = _Analysis(cwd, roots)
    analysis.script(command, 0)
    return CommandAnalysis(tuple(analysis.checks), tuple(analysis.concerns), analysis.opaque)


def _forms(words: tuple[Word, ...]) -> list[tuple[Word, ...]]:
    name = words[0]
    if name is not None and "/" in name and os.path.basename(name):
        return [words, (os.path.basename(name), *words[1:])]
    return [words]


def _shell_code(arguments: tuple[Word, ...]) -> str | bool | None:
    """The string `sh -c` runs; `None` when only the run knows it; `False` without `-c`."""
    skip = False
    for index, word in enumerate(arguments):
        if skip:
            skip = False
            continue
        if word is None:
            return None
        if word in ("-o", "+o", "-O", "+O"):
            skip = True
            continue
        if word == "--" or not word.startswith(("-", "+")):
            return False
        if not word.startswith("--") and "c" in word[1:]:
            following = arguments[index + 1 :]
            code = next((w for w in following if w is None or not w.startswith("-")), False)
            return code if code is not False else False
    return False
