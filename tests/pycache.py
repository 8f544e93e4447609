"""A `PYTHONPYCACHEPREFIX` for a test's processes that already holds the bytecode of what this
process loaded, so that they read it instead of compiling every module from its source.

A test that sends its processes' bytecode (or a table kept beside it) to a folder of its own
leaves the checkout's alone; but under a new prefix Python finds no bytecode at all, and each
process compiled every module it imported again (pytest, hypothesis, pydantic, tether: about
a second of CPU a process), which no such test is about. Each link names the file this process
read its module from; a stale one is compiled again as without it (Python checks the source's
size and time), and a process that writes bytecode replaces a link, never the file it names.
"""

from __future__ import annotations

import sys
from pathlib import Path

from _pytest.assertion.rewrite import AssertionRewritingHook

__all__ = ["linked_bytecode"]


def linked_bytecode(prefix: Path) -> Path:
    """`prefix`, holding a link to the bytecode of each module this process loaded from a
    source file, where Python looks for it under that prefix; pytest's rewritten test
    modules and support modules are left out (their files are what the tests look for)."""
    for module in list(sys.modules.values()):
        spec = getattr(module, "__spec__", None)
        if spec is None or not spec.has_location or not spec.cached or not spec.origin:
            continue
        if isinstance(spec.loader, AssertionRewritingHook):
            continue
        cached = Path(spec.cached)
        if not spec.origin.endswith(".py") or not cached.is_file():
            continue
        # As `importlib.util.cache_from_source` places it: the source's folder under the prefix.
        folder = Path(spec.origin).parent
        link = prefix / folder.relative_to(folder.anchor) / cached.name
        if link.exists():
            continue
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(cached)
    return prefix
