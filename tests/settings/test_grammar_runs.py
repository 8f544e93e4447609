"""Allowed lines run for real: no line the rules allow starts a program the rules do not name.

Lines are generated from bash's grammar — commands, words with and without expansions,
operators, redirections, built-ins, here-documents, control characters, nested shells — and
every one the rules allow is run by bash in a temporary workspace, with a `PATH` of tiny
scripts that each record their name and arguments, and a home whose startup files run
`evil` too. Whatever ran must be what an allow rule names.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tether.settings.matcher import Allow, CommandUse, judge
from tether.settings.rules import Rule, parse_rule
from tether.settings.sources import SettingsSource

from .hidden_commands import HIDDEN

BASH = shutil.which("bash")
PROGRAMS = ("npm", "ls", "git", "rm", "curl", "evil", "make", "cat", "sleep", "echo", "env")
ALLOW = ("bash(npm test)", "Bash(ls:*)", "bash(git status)", "bash(cat)")

pytestmark = pytest.mark.skipif(BASH is None, reason="bash is not installed")


def allowed_by_rules(argv: list[str]) -> bool:
    """What the ALLOW rules name, written out independently of the matcher."""
    named = argv in (["npm", "test"], ["git", "status"], ["cat"])
    return named or argv[:1] == ["ls"]


@dataclass(frozen=True)
class Bench:
    """A workspace, a home, a `PATH` of recording programs and the log they append to."""

    workspace: Path
    home: Path
    bin: Path
    log: Path
    rules: tuple[Rule, ...]

    def run(self, line: str) -> tuple[list[list[str]], list[str]]:
        """Run `line` with bash; the programs it started and the names bash could not find."""
        self.log.write_bytes(b"")
        done = subprocess.run(
            [str(BASH), "-c", line],
            cwd=self.workspace,
            env={"PATH": str(self.bin), "HOME": str(self.home), "LANG": "C"},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=10,
            check=False,
        )
        records = self.log.read_bytes().decode(errors="replace").split("\x1e\x1f")
        started = [record.split("\x1f")[:-1] for record in records if record]
        missing = re.findall(r": (.*): command not found", done.stderr.decode(errors="replace"))
        return started, missing


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Bench:
    root = tmp_path_factory.mktemp("grammar")
    workspace, home, bin_ = root / "ws", root / "home", root / "bin"
    for folder in (workspace / "src", home, bin_):
        folder.mkdir(parents=True)
    log = root / "log"
    for name in PROGRAMS:
        script = bin_ / name
        # Built-ins only (the line's PATH holds nothing else), and one write per record, so
        # the programs of a pipeline do not interleave theirs.
        script.write_text(
            f"#!/bin/sh\nend=$(printf '\\036')\n"
            f'printf \'%s\\037\' {name} "$@" "$end" >> {shlex.quote(str(log))}\n'
        )
        script.chmod(0o755)
    for shell in ("bash", "sh"):
        (bin_ / shell).symlink_to(str(BASH))  # nested shells run their string, judged apart
    for startup in (".bashrc", ".bash_profile", ".profile", "e"):
        (home / startup).write_text("evil startup\n")
    (workspace / "x").write_text("a[$(evil)]\n")
    (workspace / "e").write_text("evil bash_env\n")
    source = SettingsSource("user", None)
    allow = [parse_rule(text, "allow", source, root=workspace, home=home) for text in ALLOW]
    deny = parse_rule("Bash(rm:*)", "deny", source, root=workspace, home=home)
    rules = (*allow, deny)
    return Bench(workspace.resolve(), home, bin_, log, rules)


def mostly(safe: st.SearchStrategy[str], hostile: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """`safe` three times in four: most lines stay allowed but for one hostile piece."""
    return st.one_of(safe, safe, safe, hostile)


# Words, from plain literals to every kind of expansion and quoting.
PLAIN = st.sampled_from(["test", "status", "-l", "-la", "src", "x", "'a b'", '"c d"', "e\\ f", "*"])
HOSTILE = st.sampled_from(
    [
        "'$(evil)'",
        "'a[$(evil)]'",
        '"$(evil)"',
        "$(evil)",
        "`evil`",
        "$x",
        '"${x@P}"',
        "$((x))",
        "${!x}",
        "${s:x}",
        "${PS4:='$(evil)'}",
        "{a,evil}",
        "~",
        "PS4",
        "-v",
        "-p",
        "-n",
        "-x",
        "%s",
        "evil",
        "<(evil)",
        "$'\\x65vil'",
        "'\\'",
        "\\$x",
    ]
)
WORD = mostly(PLAIN, HOSTILE)
ASSIGNMENT = mostly(
    st.sampled_from(["CI=1", "NODE_ENV=test", "RUST_BACKTRACE=1"]),
    st.sampled_from(["x='$(evil)'", "x='a[$(evil)]'", "PS4='$(evil)'", "HOME=.", "BASH_ENV=e"]),
)
ALLOWED = st.sampled_from(["npm test", "git status", "ls", "ls -l src", "cat"])
BUILTIN = mostly(
    st.sampled_from(["echo", "printf", "test -f", "[ -f", "set -e", "cd src", ":", "true"]),
    st.sampled_from(
        [
            *("printf -v", "printf -v PS4 %s", "test -v", "[ -v", "set", "set -x", "declare"),
            *("declare -n r=PS4; r", "export", "local", "readonly", "typeset", "unset", "read"),
            *("mapfile -C evil -c 1 a", "wait", "wait -n -p", "let", "eval", "source", "."),
            *("exec", "trap", "command", "builtin", "shopt -s", "alias", "hash -p ./x", "kill"),
            *("type", "getopts", "pwd", "(( ", "[[ ", "unset PS4; :", "cd ..", "cd"),
        ]
    ),
)
OTHER = st.sampled_from(["evil", "rm x", "curl x", "make", "sleep 0", "env", "/bin/evil"])
REDIRECT = mostly(
    st.sampled_from(["> out", "2>&1", "< x", "> /dev/null", ">> src/log", "2> err"]),
    st.sampled_from(
        [
            ">> .bash_profile",
            "<<< evil",
            "<<EOF\n\\\nEOF\nevil\nEOF\n",
            "<<EOF\nx\\\nEOF\nevil\nEOF\n",
            "<<'EOF'\n$(evil)\nEOF\n",
            "> ../outside",
            "> .git/hooks/pre-commit",
            "< /dev/tcp/127.0.0.1/9",
            "{fd}> out",
        ]
    ),
)
CONTROL = st.sampled_from(["\r", "\x0b", "\x0c", "\x1b", "\u2028", "\xa0", "\\\n", "\x85"])
# Single characters and pieces bash and a parser may read differently, dropped anywhere.
NOISE = st.sampled_from(
    [
        *("$", "(", ")", "'", '"', "\\", ";", "&", "|", "<", ">", "#", "{", "}", "{}", "~"),
        *("*", "\n", "=", "[", "]", "`", "!", "-", "2", "@", ",", "|-", "\\ ", ">&", "<&"),
        *("<<", "((", "[[", "if ", "time ", "! ", "CI=1 ", "$'", "\\\n", "\n\\", " #"),
    ]
)
OPERATOR = st.sampled_from(["; ", " && ", " || ", " | ", " & ", "\n", " |& ", ";\n"])


@st.composite
def statements(draw: st.DrawFn, depth: int = 0) -> str:
    """One simple command with its assignments and redirections, or a nested shell."""
    kind = draw(st.sampled_from(["allowed"] * 6 + ["builtin"] * 3 + ["other", "nested"]))
    if kind == "nested" and depth < 1:
        inner = draw(lines(depth + 1))
        shell = draw(mostly(st.sampled_from(["bash -c", "sh -c", "bash -ec"]), st.just("bash -lc")))
        return f"{shell} {shlex.quote(inner)}"
    words = draw(st.lists(WORD, max_size=2))
    if kind == "builtin":
        head = draw(BUILTIN)
        tail = " ]" if head.startswith("[ ") else (" ]]" if head.startswith("[[") else "")
        tail = " ))" if head.startswith("((") else tail
        command = " ".join([head, *words]) + tail
    elif kind == "other":
        command = " ".join([draw(OTHER), *words])
    else:
        command = draw(ALLOWED) + (" " + " ".join(words) if words and draw(st.booleans()) else "")
    prefix = draw(st.lists(ASSIGNMENT, max_size=1)) if draw(st.integers(0, 4)) == 0 else []
    suffix = draw(st.lists(REDIRECT, max_size=1)) if draw(st.integers(0, 2)) == 0 else []
    text = " ".join([*prefix, command, *suffix])
    if draw(st.integers(0, 11)) == 0:
        spot = draw(st.integers(0, len(text)))
        text = text[:spot] + draw(CONTROL) + text[spot:]
    if draw(st.integers(0, 9)) == 0:
        text = f"( {text} )" if draw(st.booleans()) else f"{{ {text}; }}"
    for _ in range(draw(st.integers(1, 2)) if draw(st.integers(0, 5)) == 0 else 0):
        spot = draw(st.integers(0, len(text)))
        text = text[:spot] + draw(NOISE) + text[spot:]
    return text


@st.composite
def lines(draw: st.DrawFn, depth: int = 0) -> str:
    """Statements joined by bash's operators."""
    parts = draw(st.lists(statements(depth), min_size=1, max_size=3))
    line = parts[0]
    for part in parts[1:]:
        line += draw(OPERATOR) + part
    return line


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(line=lines())
def test_no_allowed_line_runs_a_program_no_rule_names(bench: Bench, line: str) -> None:
    use = CommandUse(line, bench.workspace, (bench.workspace,))
    if not isinstance(judge(bench.rules, use), Allow):
        event("asks or denies")
        return
    event("allowed, and run")
    started, missing = bench.run(line)
    assert [argv for argv in started if not allowed_by_rules(argv)] == [], line
    assert missing == [], line


# Bash gives PS4 a value, so `${PS4:=...}` assigns only after `unset PS4` (also listed).
QUIET = {": ${PS4:='$(PAYLOAD)'}; set -x; npm test"}


@pytest.mark.parametrize(
    "line", [h for h in HIDDEN if ("PAYLOAD" in h or h.startswith("\r")) and h not in QUIET]
)
def test_the_bench_catches_what_each_hidden_shape_runs(bench: Bench, line: str) -> None:
    """The issue's shapes, run as they are: each starts `evil` or a program bash cannot find,
    so the property above would see it if a rule let the line through."""
    started, missing = bench.run(line.replace("PAYLOAD", "evil"))
    names = {argv[0] for argv in started} | set(missing)
    assert names - {"npm"}, (line, started, missing)


def test_an_allowed_line_runs_as_expected(bench: Bench) -> None:
    line = "cd src && npm test > out.log 2>&1; ls -l; ls | cat; git status || echo no"
    use = CommandUse(line, bench.workspace, (bench.workspace,))
    assert isinstance(judge(bench.rules, use), Allow)
    started, missing = bench.run(line)
    assert sorted(started) == [["cat"], ["git", "status"], ["ls"], ["ls", "-l"], ["npm", "test"]]
    assert missing == []
    assert (bench.workspace / "src" / "out.log").exists()
    os.remove(bench.workspace / "src" / "out.log")
