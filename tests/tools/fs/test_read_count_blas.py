"""numpy, imported for the first count of a large range, starts no OpenBLAS threads.

The threads OpenBLAS starts with the library spin on every core for about a tenth of a second;
tether never multiplies a matrix. The setting that stops them lives in the C environment only
while numpy loads: `os.environ`, and the commands started after, never hold it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tether.tools.fs.read_count import BLAS_THREADS, one_blas_thread

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="threads are listed under /proc on Linux"
)

_FIRST_COUNT = """
import os, subprocess, sys
from tether.tools.fs.read_count import BLOCK_BYTES, NUMPY_PAYS_FROM, NewlineCounter
assert "numpy" not in sys.modules
count = NewlineCounter(NUMPY_PAYS_FROM)
assert count(b"\\n" * BLOCK_BYTES, 0, BLOCK_BYTES) == BLOCK_BYTES
assert "numpy" in sys.modules
seen = subprocess.run(["sh", "-c", "echo ${OPENBLAS_NUM_THREADS-unset}"],
                      capture_output=True, text=True).stdout.strip()
print(len(os.listdir("/proc/self/task")), os.environ.get("OPENBLAS_NUM_THREADS", "unset"), seen)
"""


def _first_count(**env: str) -> list[str]:
    """Threads alive, `os.environ`'s setting and a child's, after a fresh process's first count."""
    clean = {k: v for k, v in os.environ.items() if k not in _SETTINGS}
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_COUNT],
        capture_output=True,
        text=True,
        env={**clean, **env},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


_SETTINGS = (BLAS_THREADS, "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def _child_sees() -> str:
    """The setting as a command started from the process's own environment sees it."""
    return subprocess.run(
        ["sh", "-c", "echo ${OPENBLAS_NUM_THREADS-unset}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.strip()


def test_the_first_count_in_a_process_starts_no_blas_thread() -> None:
    # Before: OpenBLAS started one thread per further core with the library.
    assert _first_count() == ["1", "unset", "unset"]


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="OpenBLAS starts threads on other cores")
def test_a_persons_own_setting_is_left_as_they_set_it() -> None:
    threads, ours, child = _first_count(OPENBLAS_NUM_THREADS="2")
    assert (ours, child) == ("2", "2")
    assert int(threads) == 2


@pytest.mark.skipif(
    any(name in os.environ for name in _SETTINGS), reason="this process has a setting of its own"
)
def test_the_setting_is_in_the_c_environment_only_while_numpy_loads() -> None:
    with one_blas_thread(loaded=set(), environ={}):
        assert _child_sees() == "1"
        assert BLAS_THREADS not in os.environ  # what tools build commands' environments from
    assert _child_sees() == "unset"
    with pytest.raises(ImportError), one_blas_thread(loaded=set(), environ={}):
        raise ImportError("numpy failed to load")
    assert _child_sees() == "unset"


@pytest.mark.parametrize(
    ("loaded", "environ"),
    [({"numpy"}, {}), (set(), {"OMP_NUM_THREADS": "4"}), (set(), {BLAS_THREADS: "8"})],
)
def test_nothing_is_set_once_numpy_is_loaded_or_when_the_person_chose(
    loaded: set[str], environ: dict[str, str]
) -> None:
    if any(name in os.environ for name in _SETTINGS):
        pytest.skip("this process has a setting of its own")
    with one_blas_thread(loaded=loaded, environ=environ):
        assert _child_sees() == "unset"
