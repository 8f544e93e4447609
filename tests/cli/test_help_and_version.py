"""`tether --version` and `tether --help` load only what they print.

Each case runs the process entry (`tether.cli.main` with the process's arguments, as the
installed `tether` command does) in a fresh interpreter and lists the modules it imported
beyond those the interpreter had at its start.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tether.cli import _columns, build_parser, interactive_parser
from tether.version import version_line

_ENTRY = """
import gc, json, sys
out, sys.argv = sys.argv[1], ["tether", *sys.argv[2:]]
before, threshold = set(sys.modules), gc.get_threshold()
from tether.cli import main
try:
    main()
except SystemExit:
    pass
with open(out, "w") as file:
    json.dump({"modules": sorted(set(sys.modules) - before),
               "tuned": gc.get_threshold() != threshold}, file)
"""

UNNEEDED = (
    "importlib.metadata",  # the version is the package's own constant
    "subprocess",  # a checkout's HEAD is read from its files
    "shutil",  # the width of the help, worked out without it (it loads the compressors)
    "pathlib",
    "threading",  # tether.lazy's lock is the `_thread` one threading re-exports
    "tether.errors",  # needed only when the arguments do not parse
    "tether.session._gc",  # nothing to tune in a process that prints and ends
    "tether.session.session",
    "tether.settings.loaded",
    "tether.policy",
    "pydantic",
    "rich",
)


def _entry(tmp_path: Path, *argv: str, env: dict[str, str] | None = None) -> tuple[set[str], bool]:
    """(modules the entry imported, whether it tuned the collector) for `tether ARGV`."""
    out = tmp_path / "entry.json"
    done = subprocess.run(
        [sys.executable, "-c", _ENTRY, str(out), *argv],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    return set(report["modules"]), report["tuned"]


def _found(loaded: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in loaded if any(m == n or m.startswith(n + ".") for n in names))


def test_version_imports_the_entry_and_the_version_alone(tmp_path: Path) -> None:
    loaded, tuned = _entry(tmp_path, "--version")
    ours = {m for m in loaded if m.split(".")[0] == "tether"}
    assert ours == {"tether", "tether.cli", "tether.version", "tether.gitenv"}
    # Not even `typing`, `argparse` or `re`: a tenth, a fifth and a sixth of the time left.
    assert _found(loaded, ("typing", "argparse", "re", *UNNEEDED)) == []
    assert not tuned


@pytest.mark.skipif(not (REPO / ".git").exists(), reason="runs from a git checkout")
def test_a_checkouts_version_runs_no_git(tmp_path: Path) -> None:
    # This checkout has no build stamp, so its commit is its HEAD: read from git's files.
    loaded, _ = _entry(tmp_path, "--version")
    assert "subprocess" not in loaded
    assert f"(commit {_git_head(REPO)})" in version_line()


def test_help_imports_argparse_and_the_flags_defaults_alone(tmp_path: Path) -> None:
    loaded, tuned = _entry(tmp_path, "--help")
    assert "argparse" in loaded
    assert _found(loaded, UNNEEDED) == []
    # Nor does gettext look for a catalogue (with `locale`): argparse's words are its own where
    # none can be found (gettext's module is created, to run when first used).
    assert _found(loaded, ("locale",)) == []
    assert not tuned


def test_an_installed_command_answers_as_the_module_does(tmp_path: Path) -> None:
    # The `tether` script pip writes (for a wheel as for this editable install) runs main.
    script = Path(sys.executable).with_name("tether")
    if not script.exists():
        pytest.skip("no tether command beside this interpreter")
    env = {**os.environ, "COLUMNS": "100"}
    for argv in (["--version"], ["--help"]):
        installed = subprocess.run(
            [str(script), *argv], capture_output=True, text=True, env=env, timeout=60, check=True
        )
        module = subprocess.run(
            [sys.executable, "-m", "tether", *argv],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=True,
        )
        assert installed.stdout == module.stdout != ""


@pytest.mark.parametrize("columns", ["50", "132", "0", "-3", "wide", None])
def test_the_help_is_as_wide_as_argparse_makes_it(
    columns: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert _columns() == shutil.get_terminal_size().columns
    ours = interactive_parser()
    theirs = interactive_parser()
    theirs.formatter_class = argparse.RawDescriptionHelpFormatter  # argparse's own width
    assert ours.format_help() == theirs.format_help()
    # A subcommand's parser too (`tether show --help`, and the usage its errors print).
    ours, theirs = build_parser("show"), build_parser("show")
    theirs.formatter_class = argparse.HelpFormatter
    for name in ("show", "sessions"):
        _subparser(theirs, name).formatter_class = argparse.HelpFormatter
    assert ours.format_help() == theirs.format_help()
    for name in ("show", "sessions"):
        assert _subparser(ours, name).format_help() == _subparser(theirs, name).format_help()
        assert _subparser(ours, name).format_usage() == _subparser(theirs, name).format_usage()


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    [subparsers] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    found: argparse.ArgumentParser = subparsers.choices[name]
    return found


def _git_head(repo: Path) -> str:
    return subprocess.run(
        ["git", "rev-parse", "--short=12", "HEAD"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.strip()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--bogus"], "tether: error: unrecognized arguments: --bogus"),
        (["--max-steps", "0"], "tether: error: --max-steps must be at least 1"),
    ],
)
def test_bad_arguments_are_still_said_plainly(argv: list[str], said: str, tmp_path: Path) -> None:
    # The error class loads only when the arguments do not parse; it still says why.
    env = {**os.environ, "TETHER_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-m", "tether", *argv],
        input="",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert said in done.stderr.splitlines()
    assert done.stderr.startswith("usage: tether")
