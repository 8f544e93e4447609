"""numpy is imported only for a file large enough to pay for its import.

A process that has not loaded numpy counts a smaller file with `bytes.count`: the first read
of a 10 MB file does not wait for numpy's import (about 50 ms of CPU). From `NUMPY_PAYS_FROM`
bytes, and whenever numpy is loaded already, large ranges are counted by numpy. Either way
the count is exact.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tether.tools.fs.read_count import (
    BLOCK_BYTES,
    NUMPY_PAYS_FROM,
    NewlineCounter,
    read_buffer,
)

_FRESH = """
import json, os, sys
from pathlib import Path
from tether.tools.fs.read_count import count_segments
from tether.tools.fs.read_file import load
path, offset = Path(sys.argv[1]), int(sys.argv[2])
if sys.argv[3] == "load":
    value = load(path, offset, 5, 51_200, (path.parent,))
    result = [value.window.total_lines, [line.text for line in value.window.lines]]
else:
    fd = os.open(path, os.O_RDONLY)
    result = sum(count_segments(fd, os.fstat(fd).st_size, 1 << 20))
print(json.dumps({"result": result, "numpy": "numpy" in sys.modules}))
"""


def _fresh(path: Path, how: str, offset: int = 1) -> dict[str, object]:
    """What a fresh interpreter gets from `path` (through `load` or `count_segments`), and
    whether it imported numpy for it."""
    done = subprocess.run(
        [sys.executable, "-c", _FRESH, str(path), str(offset), how],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    return report


def test_the_first_read_of_a_10_mb_file_imports_no_numpy(tmp_path: Path) -> None:
    target = tmp_path / "log.txt"
    target.write_bytes(b"".join(b"line %d\n" % n for n in range(1_250_000)))  # about 11 MB
    report = _fresh(target, "load", offset=600_000)
    assert report["result"] == [1_250_000, [f"line {n}" for n in range(599_999, 600_004)]]
    assert report["numpy"] is False


def test_a_file_large_enough_is_counted_by_numpy(tmp_path: Path) -> None:
    # A sparse file of NUMPY_PAYS_FROM bytes, a newline every 10 MB.
    target = tmp_path / "huge.txt"
    with target.open("wb") as handle:
        handle.truncate(NUMPY_PAYS_FROM)
        for offset in range(0, NUMPY_PAYS_FROM, 10 << 20):
            handle.seek(offset)
            handle.write(b"\n")
    report = _fresh(target, "count")
    assert report == {"result": len(range(0, NUMPY_PAYS_FROM, 10 << 20)), "numpy": True}


@pytest.mark.parametrize(
    ("expected", "loaded"),
    [
        (0, set()),  # too small to pay, numpy not loaded: bytes.count
        (NUMPY_PAYS_FROM - 1, set()),
        (0, {"numpy"}),  # loaded already: numpy, whatever the size
        (NUMPY_PAYS_FROM, set()),  # large enough: numpy imported
    ],
)
@pytest.mark.parametrize("seed", range(2))
def test_every_way_counts_what_bytes_count_counts(
    expected: int, loaded: set[str], seed: int
) -> None:
    rng = random.Random(seed)
    data = rng.randbytes(3 * BLOCK_BYTES + rng.randrange(BLOCK_BYTES)).replace(b"\0", b"\n")
    mapped = read_buffer(len(data))
    mapped[:] = data
    count = NewlineCounter(expected, loaded)
    for pos, end in [(0, len(data)), (5, len(data) - 7), (10, BLOCK_BYTES - 1), (3, 3)]:
        assert count(data, pos, end) == data.count(b"\n", pos, end)
        assert count(mapped, pos, end) == data.count(b"\n", pos, end)
    blank = bytes(2 * BLOCK_BYTES)  # no newline: memchr finds none, nothing is counted
    assert count(blank, 0, len(blank)) == 0
