"""What a hook's command line reads when it runs: the files it names and the folders they sit in.

An unsandboxed hook (`"sandbox": false`) runs with the person's rights, so what it runs must
be what the person last saw (`tether.hooks.guard`). Guessing exactly which file a command
line executes cannot be made complete, so this errs wide. The line is split as the shell
splits it, variables expanded from the hook's own environment (`$CLAUDE_PROJECT_DIR`,
`$HOME`, `~`), `cd`/`pushd`/`env -C` followed, and every word (an option's value after `=`,
an assignment's value, an input redirection's file) is a path that is read, whether it
exists yet or not; a quoted word that is itself a command line (`sh -c './x.sh'`, `bash -lc
"..."`) is read as one too. Beside those:

- a program named by its bare name is looked up along the hook's `PATH`, and each place
  before the one found is watched for a file appearing there;
- a program given as a path (to a wrapper too: `timeout 5 ./x.sh`), and every word after an
  interpreter (`bash`, `python3`, `perl`, `node`, `make`, ...), brings its folder (siblings
  are what `source`, `import` and `-I` reach); an interpreter with no script (`-c`, `-m
  pkg.mod`, stdin) brings the working folder, and `-m` the module's files;
- a program in a virtual environment's `bin` brings its `pyvenv.cfg` and `site-packages`.

What those files then reach by themselves (a script running `../other/x.sh`, `npm run`
running `package.json`'s script) is not followed: such hooks belong in the sandbox.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tether.lazy import pattern

__all__ = ["MAX_READS", "Reads", "command_reads"]

MAX_READS = 512
"""Paths watched for one hook command at most (the words of a long pipeline)."""

_MAX_DEPTH = 3
"""Command lines inside quoted words followed this deep (`sh -c "bash -c '...'"`)."""

_SEPARATORS = frozenset({"&&", "||", ";", "|", "&", "(", ")", ";;", "|&", "{", "}", "!"})
_INPUTS = frozenset({"<", "<>"})
_OUTPUTS = frozenset({">", ">>", ">|", "&>", "&>>", "<<", "<<<", "<&", ">&"})
"""What the word after them names is written, duplicated or is a here-document's text."""
_CHANGE_DIRECTORY = frozenset({"cd", "pushd"})
_INTERPRETERS = frozenset(
    {"bash", "sh", "zsh", "dash", "ksh", "fish", "busybox", "source", ".", "node", "deno", "bun"}
    | {"tsx", "ts-node", "ruby", "perl", "php", "lua", "Rscript", "pwsh", "osascript", "uv"}
    | {"make", "tclsh", "wish"}
)
_PYTHON = pattern(r"(python|pypy)[0-9.]*")
_BUILTINS = frozenset(
    {"cd", "pushd", "popd", "echo", "printf", "test", "[", "[[", "true", "false", "exit"}
    | {"export", "set", "unset", "read", "local", "return", "shift", "eval", "exec", "wait"}
    | {"command", "builtin", "trap", "type", "hash", "ulimit", "umask", "declare", "let"}
    | {"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac"}
    | {"in", "function", "select", "time", ":", "]]", "source", "."}
)
_VARIABLE = pattern(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
_ASSIGNMENT = pattern(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)", re.DOTALL)
_COMMAND_LINE = pattern(r"[\s;&|<>()`$]")


@dataclass
class Reads:
    """The paths a command line reads: files (or what is missing there) and folders."""

    files: dict[Path, None] = field(default_factory=dict)
    folders: dict[Path, None] = field(default_factory=dict)

    def full(self) -> bool:
        """Whether the cap is reached."""
        return len(self.files) + len(self.folders) >= MAX_READS

    def file(self, path: Path) -> None:
        """Watch `path`, and where a symbolic link there leads."""
        if self.full():
            return
        self.files[path] = None
        try:
            real = path.resolve()
        except (OSError, RuntimeError):
            return
        if real != path:
            self.files[real] = None

    def folder(self, path: Path) -> None:
        """Watch what `path` holds (its entries, not their insides)."""
        if not self.full():
            self.folders[path] = None


def command_reads(command: str, cwd: Path, env: Mapping[str, str]) -> Reads:
    """The paths `command`, run with `bash -c` in `cwd` with `env`, reads."""
    reads = Reads()
    _line(command, cwd, env, reads, 0)
    return reads


def _line(command: str, cwd: Path, env: Mapping[str, str], reads: Reads, depth: int) -> Path:
    """Read one command line into `reads`; the folder it ends in (after its `cd`s)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        words = list(lexer)
    except ValueError:
        words = command.split()  # unbalanced quotes: bash refuses it, but watch its words
    simple: list[str] = []
    for word in [*words, ";"]:
        if word in _SEPARATORS:
            cwd = _simple(simple, cwd, env, reads, depth)
            simple = []
        else:
            simple.append(word)
    return cwd


def _simple(words: list[str], cwd: Path, env: Mapping[str, str], reads: Reads, depth: int) -> Path:
    """Read one simple command; the folder the next one runs in."""
    command = _Command(cwd, env, reads)
    redirected: str | None = None
    for word in words:
        if word in _INPUTS or word in _OUTPUTS:
            redirected = word
            continue
        expanded = _expand(word, env)
        if expanded is not None and depth < _MAX_DEPTH and _COMMAND_LINE.search(expanded):
            _line(expanded, command.cwd, env, reads, depth + 1)
        if redirected is not None:
            if expanded is not None and redirected in _INPUTS:
                reads.file(_at(command.cwd, expanded))
            redirected = None
        elif expanded is not None:
            command.word(expanded)
    if command.interpreted and not command.script_seen:
        reads.folder(command.cwd)  # `-c`, stdin: the working folder is where imports look first
    return command.cwd


class _Command:
    """The words of one simple command, read one by one."""

    def __init__(self, cwd: Path, env: Mapping[str, str], reads: Reads) -> None:
        self.cwd = cwd
        self._env = env
        self._reads = reads
        self._program: str | None = None
        self._previous = ""
        self.interpreted = False
        self.script_seen = False
        self._module = False

    def word(self, word: str) -> None:
        """Read the next word (expanded)."""
        previous, self._previous = self._previous, word
        reads = self._reads
        if self._program is None:
            assigned = _ASSIGNMENT.fullmatch(word)
            if assigned is not None:
                if assigned.group(2):  # `PYTHONPATH=lib`, `PATH=bin:$PATH`
                    _argument(assigned.group(2), self.cwd, reads, folder=True)
                return
            self._program = word
            self.interpreted = _interpreter(word)
            _program(word, self.cwd, self._env, reads)
        elif self._program in _CHANGE_DIRECTORY and not word.startswith("-"):
            self.cwd = _at(self.cwd, word)
            reads.folder(self.cwd)
            self._program = "cd:done"
        elif self._program == "env" and previous == "-C":
            self.cwd = _at(self.cwd, word)
            reads.folder(self.cwd)
        elif _interpreter(word) and not self.interpreted:
            self.interpreted = True  # behind a wrapper: `timeout 5 bash x.sh`
            _program(word, self.cwd, self._env, reads)
        elif word.startswith("-"):
            self._module = self._module or (self.interpreted and word == "-m")
            _option(word, self.cwd, reads)
        elif self._module:
            self._module = False
            self.script_seen = True
            _module(word, self.cwd, reads)
        else:
            # A path given to a wrapper (`timeout 5 ./x.sh`, `xargs ./x.sh`) is a program too.
            _argument(word, self.cwd, reads, folder=self.interpreted or "/" in word)
            self.script_seen = self.script_seen or self.interpreted


def _program(word: str, cwd: Path, env: Mapping[str, str], reads: Reads) -> None:
    """A program: a path to it, or each place along `PATH` its bare name could be found."""
    if "/" in word:
        path = _at(cwd, word)
        reads.file(path)
        reads.folder(path.parent)
        _virtual_environment(path, reads)
        return
    if word in _BUILTINS or not word:
        return
    for entry in env.get("PATH", os.defpath).split(os.pathsep):
        place = _at(cwd, entry or ".") / word
        reads.file(place)
        if os.path.lexists(place):
            _virtual_environment(place, reads)
            break


def _virtual_environment(program: Path, reads: Reads) -> None:
    """A python of a virtual environment also runs its `pyvenv.cfg` and `site-packages`."""
    venv = program.parent.parent
    if program.parent.name != "bin" or not (venv / "pyvenv.cfg").exists():
        return
    reads.file(venv / "pyvenv.cfg")
    for packages in sorted(venv.glob("lib*/python*/site-packages")):
        reads.folder(packages)


def _option(word: str, cwd: Path, reads: Reads) -> None:
    """`--config=ci/x.toml`, `-Ilib`: the value of an option, where it may be a path."""
    _, equals, value = word.partition("=")
    if equals and value:
        _argument(value, cwd, reads, folder=False)
    elif not word.startswith("--") and len(word) > 2 and os.path.lexists(_at(cwd, word[2:])):
        _argument(word[2:], cwd, reads, folder=True)


def _module(name: str, cwd: Path, reads: Reads) -> None:
    """`python -m pkg.mod`: the module's files, its packages, and the folder it is found in."""
    reads.folder(cwd)
    parts = [p for p in name.split(".") if p]
    if not parts:
        return
    path = cwd
    for part in parts[:-1]:
        path = path / part
        reads.folder(path)
        reads.file(path / "__init__.py")
    reads.file(path / f"{parts[-1]}.py")
    reads.file(path / parts[-1] / "__main__.py")
    reads.folder(path / parts[-1])


def _argument(word: str, cwd: Path, reads: Reads, *, folder: bool) -> None:
    """A word that may name a file; `folder`: what lies beside it matters too (an
    interpreter's script and include paths)."""
    for part in word.split(os.pathsep) if folder else [word]:
        if not part:
            continue
        path = _at(cwd, part)
        reads.file(path)
        if folder:
            reads.folder(path if path.is_dir() else path.parent)


def _interpreter(word: str) -> bool:
    name = os.path.basename(word)
    return name in _INTERPRETERS or _PYTHON.fullmatch(name) is not None


def _at(cwd: Path, word: str) -> Path:
    return Path(os.path.normpath(cwd / word))


def _expand(word: str, env: Mapping[str, str]) -> str | None:
    """`word` with `~` and the variables of `env` expanded; `None` when one is unknown or it
    holds what cannot be a path (a NUL)."""
    if word.startswith("~") and (word == "~" or word.startswith("~/")):
        word = env.get("HOME", os.path.expanduser("~")) + word[1:]
    unknown = False

    def value(match: re.Match[str]) -> str:
        nonlocal unknown
        name = match.group(1) or match.group(2)
        if name not in env:
            unknown = True
            return ""
        return env[name]

    expanded = _VARIABLE.sub(value, word)
    if unknown or "\0" in expanded:
        return None
    return expanded
