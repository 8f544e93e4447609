"""Programs that run the command given after their options (`env`, `nohup`, `timeout`,
`sudo`, `xargs`...): which of their options take a value, and which mean they run none."""

from __future__ import annotations

from dataclasses import dataclass

from tether.shell.words import Word

__all__ = [
    "OPAQUE_WRAPPERS",
    "SHELLS",
    "WRAPPERS",
    "Wrapper",
    "option_width",
    "plain_shell_options",
    "shell_code",
]


@dataclass(frozen=True)
class Wrapper:
    """A program that runs the command given after its options."""

    allow: bool
    """Whether an allow rule for the inner command covers it (`nohup`, unlike `sudo`)."""
    args: frozenset[str] = frozenset()
    flags: frozenset[str] = frozenset()
    stops: frozenset[str] = frozenset()
    """Options after which it runs no command (`command -v`)."""
    positionals: int = 0
    """Words before the command (the duration of `timeout`)."""
    numeric: bool = False
    """Whether `-N` is an option (`nice -10`)."""
    assignments: bool = False
    """Whether `NAME=VALUE` words come before the command (`env`)."""
    any_flags: bool = False
    """Whether an option it does not list is taken for a flag (`sudo` has too many to list)."""


def _set(*items: str) -> frozenset[str]:
    return frozenset(items)


WRAPPERS: dict[str, Wrapper] = {
    "command": Wrapper(True, flags=_set("-p"), stops=_set("-v", "-V")),
    "builtin": Wrapper(True),
    "exec": Wrapper(True, args=_set("-a"), flags=_set("-c", "-l")),
    "nohup": Wrapper(True),
    "coproc": Wrapper(True),
    "time": Wrapper(
        True,
        args=_set("-o", "-f", "--output", "--format"),
        flags=_set("-p", "-v", "-a", "-q", "--verbose", "--portability", "--append", "--quiet"),
    ),
    "nice": Wrapper(True, args=_set("-n", "--adjustment"), numeric=True),
    "timeout": Wrapper(
        True,
        args=_set("-s", "-k", "--signal", "--kill-after"),
        flags=_set("-v", "-f", "--verbose", "--foreground", "--preserve-status"),
        positionals=1,
    ),
    "stdbuf": Wrapper(True, args=_set("-i", "-o", "-e", "--input", "--output", "--error")),
    "env": Wrapper(
        True,
        args=_set("-u", "-C", "--unset", "--chdir"),
        flags=_set("-i", "-0", "-v", "--ignore-environment", "--null", "--debug"),
        assignments=True,
    ),
    "setsid": Wrapper(True, flags=_set("-f", "-w", "-c", "--fork", "--wait", "--ctty")),
    "ionice": Wrapper(
        True, args=_set("-c", "-n", "--class", "--classdata"), flags=_set("-t", "--ignore"),
        stops=_set("-p", "-P", "-u", "--pid", "--pgid", "--uid"),
    ),
    "sudo": Wrapper(
        False,
        args=_set(
            "-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T",
            "--user", "--group", "--host", "--prompt", "--chdir", "--close-from",
        ),
        stops=_set("-l", "-v", "-k", "-K", "-V", "-e", "--list", "--validate", "--edit"),
        any_flags=True,
    ),
    "doas": Wrapper(False, args=_set("-u", "-C"), flags=_set("-n", "-s", "-L")),
    "xargs": Wrapper(
        False,
        args=_set(
            "-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a",
            "--max-args", "--max-procs", "--delimiter", "--arg-file", "--max-lines",
            "--max-chars", "--eof", "--replace",
        ),
        flags=_set(
            "-0", "-r", "-t", "-p", "-x", "-i", "-e", "-l",
            "--null", "--no-run-if-empty", "--verbose", "--interactive", "--exit",
        ),
    ),
}  # fmt: skip
"""By program name: what each wrapper takes before the command it runs."""


OPAQUE_WRAPPERS = frozenset(
    {
        *("chrt", "taskset", "flock", "setpriv", "unshare", "script", "nsenter", "runuser"),
        *("su", "sg", "watch", "strace", "ltrace", "valgrind", "firejail", "bwrap", "chroot"),
        *("systemd-run", "fakeroot", "proot", "busybox", "parallel", "numactl", "prlimit"),
        *("cgexec", "faketime", "eatmydata", "catchsegv", "torsocks", "proxychains"),
        *("proxychains4", "dbus-run-session", "xvfb-run", "pkexec", "capsh", "setarch"),
        *("linux32", "linux64", "gosu", "su-exec", "chpst", "dumb-init", "tini", "unbuffer"),
        *("rlwrap", "cpulimit", "trickle", "nsjail", "minijail0", "entr", "lxc-attach"),
    }
)
"""Programs that run a command given in their arguments in ways tether does not read (which
option takes a value, `-c STRING`): deny and ask rules see every tail of their words and
every word as a command line; an allow rule must name the program itself."""


def option_width(word: str, wrapper: Wrapper) -> int | None:
    """How many words option `word` takes up (itself and its value), or `None` if unknown."""
    if word.startswith("--"):
        name, has_value, _ = word.partition("=")
        if name in wrapper.args:
            return 1 if has_value else 2
        if name in wrapper.flags or wrapper.any_flags:
            return 1
        return None
    if word in wrapper.args:
        return 2
    if word[:2] in wrapper.args:
        return 1
    if wrapper.numeric and word[1:].isdigit():
        return 1
    letters = word[1:]
    if wrapper.any_flags or all(f"-{letter}" in wrapper.flags for letter in letters):
        return 1
    return None


SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash"})
"""Shells: `sh -c STRING` runs STRING."""


def plain_shell_options(arguments: tuple[Word, ...]) -> bool:
    """Whether the options before `sh -c`'s string change nothing but errors and exits."""
    expect_name = False
    for word in arguments:
        if word is None:
            return False
        if expect_name:
            if word not in ("errexit", "nounset", "pipefail"):
                return False
            expect_name = False
        elif word in ("-o", "+o"):
            expect_name = True
        elif word in ("--norc", "--noprofile"):
            continue
        elif word.startswith(("-", "+")) and not word.startswith("--"):
            if not set(word[1:]) <= set("ceu"):
                return False
            if "c" in word:
                return True
        else:
            return False
    return False


def shell_code(arguments: tuple[Word, ...]) -> str | bool | None:
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
