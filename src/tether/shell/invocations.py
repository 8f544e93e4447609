"""What a command line runs, as rules see it: each program, through its wrappers.

`env VAR=1 nohup npm test` runs `npm test`: allow rules judge `npm test`, and deny and ask
rules judge every form (`env VAR=1 nohup npm test`, `nohup npm test`, `npm test`, and
`rm` for `/bin/rm`). `sh -c 'a && b'` runs `a` and `b`; `find -exec rm {} ;` runs `rm`;
`sudo` and `xargs` run their command too, but with more power or more arguments, so an allow
rule must name them. What rules cannot judge by words is a *concern* — a substitution,
`eval`, `source`, an output redirection outside the workspace, a variable such as `PATH`
that changes which program runs, anything that does not parse, anything outside the closed
grammar of `tether.shell.grammar` — and no allow rule allows such a command. Some concerns
also hide what runs (*opaque*): deny rules cannot be checked on all of it. A program that
runs another one tether does not read (`chrt`, `flock`, `script -c`) is taken to run each
of its arguments, and each string among them, for deny and ask rules; an allow rule must
name it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tether.shell.grammar import INERT, builtin_problem, scan_line, variable_problem
from tether.shell.parser import SimpleCommand, Word, parse_script
from tether.shell.wrappers import (
    OPAQUE_WRAPPERS,
    SHELLS,
    WRAPPERS,
    Wrapper,
    option_width,
    plain_shell_options,
    shell_code,
)

__all__ = ["Check", "CommandAnalysis", "analyze_command"]

_SAFE_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})

_SPECIAL = frozenset({"eval", "trap", "source", ".", "alias", "enable", "fc"})
"""Built-ins `special` judges itself (it reads what `eval` and `trap` run)."""

_DECLARATIONS = frozenset({"declare", "typeset", "local", "export", "readonly", "unset"})

_BASH_WRAPPERS = frozenset({"command", "builtin"})
"""Wrappers bash runs itself, so what they run is a built-in when its name is one (not
`time`: a keyword only at a pipeline's start, elsewhere the program)."""

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
    writes: tuple[Path, ...] = ()
    """The files its output redirections write, resolved (from each directory it may be in)."""


@dataclass
class _Analysis:
    cwd: Path
    roots: Sequence[Path]
    checks: list[Check] = field(default_factory=list)
    concerns: list[str] = field(default_factory=list)
    opaque: bool = False
    writes: list[Path] = field(default_factory=list)
    hidden: int = 0
    """How many of `concerns` (the first ones) hide a part from deny rules."""
    cwds: list[Path] = field(default_factory=list)
    """Every directory the line may run a command in (`cd` inside the workspace moves it)."""

    def __post_init__(self) -> None:
        self.cwds.append(self.cwd)

    def concern(self, text: str, *, opaque: bool = False) -> None:
        if text not in self.concerns:
            # What hides a part from deny rules comes first: it is what the question names.
            hidden = self.hidden
            self.concerns.insert(hidden if opaque else len(self.concerns), text)
            self.hidden += opaque
        self.opaque = self.opaque or opaque

    def script(self, text: str, depth: int) -> None:
        if depth > _MAX_DEPTH:
            self.concern("it nests commands in strings too deeply to check", opaque=True)
            return
        scanned = scan_line(text)
        if scanned.control:
            self.concern(scanned.control, opaque=True)
        if scanned.joined is not None:
            self.deny_only(scanned.joined, depth)  # bash joins what the parser splits
        parsed = parse_script(text)
        if parsed.unparsed is not None:
            self.concern(f"{parsed.unparsed}, so tether cannot tell what it runs", opaque=True)
        if parsed.skipped:
            self.concern(
                "the parser reads part of it otherwise than bash, so tether cannot tell what "
                "it runs",
                opaque=True,
            )
        if parsed.misread:
            self.concern(
                "a here-document line ends in \\, which bash and tether read differently",
                opaque=True,
            )
        if "<<" not in text and not set(parsed.comments) <= scanned.comments:
            self.concern("the parser reads a comment where bash reads commands", opaque=True)
        if parsed.substitutions:
            self.concern("it runs a command or process substitution")
        if parsed.evaluates:
            self.concern(
                "bash evaluates part of it as code (arithmetic, a subscript, ${x@P}), so "
                "tether cannot tell what it runs",
                opaque=True,
            )
        for reason in parsed.outside:
            self.concern(reason)
        if not parsed.outside and not parsed.substitutions:
            # The parser found the line plain; bash's own quoting must agree.
            for reason in scanned.outside:
                self.concern(reason)
        for redirect in parsed.redirects:
            self.redirect(redirect.target)
        for source in parsed.inputs:
            self.read(source)
        for name, _ in parsed.assignments:
            self.variable(name)
        for command in parsed.commands:
            self.simple(command, depth)

    def deny_only(self, text: str, depth: int) -> None:
        """Add what `text` runs to what deny and ask rules see, and nothing else."""
        other = _Analysis(self.cwd, self.roots)
        other.script(text, depth + 1)
        views = tuple(view for check in other.checks for view in check.views)
        if views:
            self.checks.append(Check(None, tuple(dict.fromkeys(views))))
        self.opaque = self.opaque or other.opaque

    def variable(self, name: str) -> None:
        problem = variable_problem(name)
        if problem is not None:
            self.concern(problem[0], opaque=problem[1])

    def redirect(self, target: Word) -> None:
        if target is None:
            self.concern("it writes to a file named only when it runs")
            return
        for cwd in self.cwds:
            if not self.inside(target, cwd):
                self.concern(f"it writes outside the workspace ({target})")
            if target not in _SAFE_TARGETS and not target.startswith("/dev/fd/"):
                self.writes.append(_resolve(cwd, target))

    def read(self, source: Word) -> None:
        if source is None:
            self.concern("it reads a file named only when it runs")
        elif source != "/dev/null" and not all(self.inside(source, cwd) for cwd in self.cwds):
            self.concern(f"it reads from outside the workspace ({source})")

    def inside(self, target: str, cwd: Path | None = None) -> bool:
        if target in _SAFE_TARGETS or target.startswith("/dev/fd/"):
            return True
        try:
            resolved = _resolve(cwd or self.cwd, target)
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
        direct = True  # whether bash itself runs `current` (so a built-in name is one)
        for _ in range(_MAX_LAYERS):
            first = current[0]
            if first is None:
                self.concern("the program it runs is known only when it runs", opaque=True)
                break
            views.extend(_forms(current))
            program = os.path.basename(first)
            if direct and program not in _SPECIAL and (problem := builtin_problem(current)):
                # The parser marks the declarations that evaluate (`declare -i`, `local -n`).
                parsed = current is command.words and program in _DECLARATIONS
                self.concern(problem, opaque=not parsed)
            if self.special(program, current, depth):
                if current is run:
                    run = None
                break
            if program in ("cd", "pushd"):
                self.directory(current)
            if program == "find":
                self.find(current, depth)
            if program in OPAQUE_WRAPPERS:
                views.extend(self.arguments_run(current, depth))
                break
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
            direct = direct and program in _BASH_WRAPPERS
            current = inner
        # Built-ins such as `cd` need no rule beside an allowed command, when bash runs them.
        inert = run is not None and bool(run) and run[0] in INERT and direct
        self.checks.append(Check(run, tuple(dict.fromkeys(views)), inert))

    def arguments_run(self, words: tuple[Word, ...], depth: int) -> list[tuple[Word, ...]]:
        """What deny rules see of a program that runs its arguments in a way tether does not
        read: every tail of its words, and every word that is itself a command line."""
        views: list[tuple[Word, ...]] = []
        for index in range(1, len(words)):
            views.extend(_forms(words[index:]) if words[index] is not None else [])
        for word in words[1:]:
            if word is not None and word.strip():
                other = _Analysis(self.cwd, self.roots)
                other.script(word, depth + 1)
                views.extend(view for check in other.checks for view in check.views)
        return views

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
        if program in SHELLS:
            code = shell_code(arguments)
            if code is False:
                return False
            if isinstance(code, str):
                if not plain_shell_options(arguments):
                    self.concern(
                        f"it starts {program} with options that read startup files or trace "
                        "(-l, -i, -x, --rcfile)",
                        opaque=True,
                    )
                self.script(code, depth + 1)
            else:
                self.concern(f"what {program} -c runs is known only when it runs", opaque=True)
            return True
        return False

    def directory(self, words: tuple[Word, ...]) -> None:
        targets = [w for w in words[1:] if w is None or not w.startswith("-")]
        if not targets:
            self.concern("it changes to the home directory, outside the workspace")
        else:
            self.change_to(targets[0])

    def change_to(self, target: Word) -> None:
        """Note a change of directory to `target` (`cd`, `env -C`)."""
        if target is None or not all(self.inside(target, cwd) for cwd in self.cwds):
            self.concern("it changes to a directory outside the workspace")
            return
        if os.environ.get("CDPATH") and not target.startswith(("/", "./", "../")):
            # Inherited by the command: `cd src` may go to a `src` elsewhere.
            self.concern("it uses cd while CDPATH is set, so where it goes is known when it runs")
            return
        for cwd in list(self.cwds):
            moved = _resolve(cwd, target)
            if moved not in self.cwds:
                self.cwds.append(moved)

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
            if word == "-" and program == "env":
                index += 1  # `env -` is `env -i`
                continue
            if not word.startswith("-") or word == "-":
                break
            if word in wrapper.stops:
                return None
            step = option_width(word, wrapper)
            if program == "env" and step is not None:
                self.env_directory(words, index, step)
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

    def env_directory(self, words: tuple[Word, ...], index: int, step: int) -> None:
        """`env -C DIR` and `env --chdir=DIR` are a `cd`."""
        word = words[index]
        assert word is not None
        if word.startswith("--chdir"):
            self.change_to(word.partition("=")[2] if step == 1 else _at(words, index + 1))
        elif word == "-C" or (word.startswith("-C") and step == 1 and len(word) > 2):
            self.change_to(word[2:] if len(word) > 2 else _at(words, index + 1))


def _at(words: tuple[Word, ...], index: int) -> Word:
    return words[index] if index < len(words) else None


def analyze_command(command: str, cwd: Path, roots: Sequence[Path]) -> CommandAnalysis:
    """Every program `command` runs in `cwd`, and why rules may not decide on it."""
    analysis = _Analysis(cwd, roots)
    analysis.script(command, 0)
    return CommandAnalysis(
        tuple(analysis.checks),
        tuple(analysis.concerns),
        analysis.opaque,
        tuple(dict.fromkeys(analysis.writes)),
    )


def _resolve(cwd: Path, target: str) -> Path:
    """`target` as a path from `cwd`, symlinks followed (`~` as bash would take it)."""
    return Path(os.path.realpath(cwd / os.path.expanduser(target)))


def _forms(words: tuple[Word, ...]) -> list[tuple[Word, ...]]:
    name = words[0]
    if name is not None and "/" in name and os.path.basename(name):
        return [words, (os.path.basename(name), *words[1:])]
    return [words]
