"""The test modules' rewritten bytecode, kept and written once for every process.

pytest rewrites the asserts of each test module, conftest and plugin it imports, and keeps the
result as a `.pyc` beside the source (`-pytest-` in its name), but writes none where bytecode
is not to be written (`PYTHONDONTWRITEBYTECODE`, which CI machines and this one set). Each
process then parsed, rewrote and compiled all 300 test modules again: about half of a
worker's 14 s of collection. Two things keep them:

- collection runs with bytecode writing on (the tests' own processes keep the setting);
- under xdist, the controller, which collects nothing itself, rewrites and writes what its
  workers will read before it starts them: every test module and conftest under the paths
  given, the support modules registered for rewriting, and the plugins and conftests pytest
  rewrote as it started (hypothesis, anyio, this folder's own), which no collection wrote.
  In a clean clone the three workers then find them all written instead of each rewriting
  them; in a checkout that has run once the controller only checks them (a hash of each
  source, as pytest does at import).

This leans on `_pytest.assertion.rewrite` (pinned in requirements.lock): its rewriter, its
writer and its reader, so what is written is what pytest reads (`tests/test_collection.py`
checks that the workers find them written).
"""

from __future__ import annotations

import fnmatch
import os
import sys
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from _pytest.assertion.rewrite import (
    PYC_TAIL,
    AssertionRewritingHook,
    _read_pyc,
    _rewrite_test,
    _write_pyc,
    assertstate_key,
    get_cache_dir,
    try_makedirs,
)


def _written(config: pytest.Config, source: Path) -> bool:
    """Whether `source`'s rewritten code is in its `.pyc` (written now, or already fresh)."""
    cache = get_cache_dir(source)
    pyc = cache / (source.name[:-3] + PYC_TAIL)
    if _read_pyc(source, pyc) is not None:
        return True
    if not try_makedirs(cache):
        return False
    try:
        source_hash, code = _rewrite_test(source, config)
    except (OSError, SyntaxError):
        return False  # the worker that imports it reports it, as it would have
    return _write_pyc(config.stash[assertstate_key], code, source_hash, pyc)


def _in_order(folder: Path, patterns: list[str]) -> Iterator[Path]:
    """The conftests and test modules under `folder`, in the order pytest collects them."""
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return
    if (folder / "conftest.py").is_file():
        yield folder / "conftest.py"
    for entry in entries:
        if entry.is_dir() and not entry.name.startswith((".", "__")):
            yield from _in_order(Path(entry.path), patterns)
        elif entry.is_file() and any(fnmatch.fnmatch(entry.name, p) for p in patterns):
            yield Path(entry.path)


def rewritten_at_start() -> list[Path]:
    """The plugins and conftests this process rewrote as it started: each worker rewrites
    the same ones first thing."""
    return [
        Path(module.__spec__.origin)
        for module in list(sys.modules.values())
        if getattr(module, "__spec__", None) is not None
        and isinstance(module.__spec__.loader, AssertionRewritingHook)
        and module.__spec__.origin is not None
    ]


def to_collect(config: pytest.Config) -> list[Path]:
    """What the workers' collection will rewrite: the support modules registered for
    rewriting, the conftests and the test modules under the paths given, in pytest's order."""
    # Registered by name (`tests/assert_rewriting.py`); the names of installed plugins' own
    # packages, registered too, are no file under the root.
    marked = sorted(getattr(config.stash[assertstate_key].hook, "_must_rewrite", ()))
    registered = [config.rootpath / f"{name.replace('.', '/')}.py" for name in marked]
    found = [path for path in registered if path.is_file()]
    patterns = list(config.getini("python_files"))
    for arg in config.args:
        path = config.invocation_params.dir / arg.partition("::")[0]
        if path.is_dir():
            found.extend(_in_order(path, patterns))
        elif path.suffix == ".py":
            found.append(path)
    return list(dict.fromkeys(found))


def _controller(config: pytest.Config) -> bool:
    """Whether this process hands tests to xdist workers and rewrites asserts."""
    if config.pluginmanager.get_plugin("dsession") is None:
        return False  # one process: its collection writes as it goes (`pytest_collection`)
    return config.stash.get(assertstate_key, None) is not None  # else `--assert=plain`


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """In an xdist controller, before its workers start: write what they will rewrite.

    Before, not while they start: a worker imports a module faster than this process rewrites
    one, so workers started first overtook it and rewrote a third of the modules themselves
    (a clean tree's collection on three workers: 20.6 s of CPU in all, 17.5 s when written
    first; under `scripts/test` the other core checks the types meanwhile)."""
    config = session.config
    if _controller(config):
        for source in [*rewritten_at_start(), *to_collect(config)]:
            _written(config, source)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Generator[None, object, object]:
    """Collect with the test modules' rewritten code kept in `__pycache__`, even where
    `PYTHONDONTWRITEBYTECODE` is set (the tests' own processes keep the setting)."""
    saved = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = saved
