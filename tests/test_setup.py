"""`scripts/setup` byte-compiles every installed module but those nothing here loads."""

from __future__ import annotations

import re
import sys
import sysconfig
from importlib.util import find_spec

from tests.conftest import REPO


def _left_uncompiled() -> re.Pattern[str]:
    """The paths `scripts/setup` leaves out of its byte-compiling (its `unused=` pattern)."""
    found = re.search(r"^\s*unused='([^']+)'$", (REPO / "scripts" / "setup").read_text(), re.M)
    assert found is not None
    return re.compile(found.group(1))


def test_nothing_a_test_worker_loads_is_left_uncompiled() -> None:
    """A worker has collected every test module (tether, the SDKs, the test tools); Ray's own
    driver and workers were checked once with bytecode written: nothing under the pattern."""
    if find_spec("ray") is not None:
        import ray  # noqa: F401  (what `tether batch --ray` loads first)
    unused = _left_uncompiled()
    installed = sysconfig.get_paths()["purelib"]
    loaded = [getattr(module, "__file__", None) or "" for module in list(sys.modules.values())]
    assert [p for p in loaded if p.startswith(installed) and unused.search(p)] == []
    assert any(p.startswith(installed) for p in loaded)
    assert unused.search("/x/site-packages/ray/rllib/algorithms/ppo.py")
    assert unused.search("/x/site-packages/numpy/_core/tests/test_api.py")
