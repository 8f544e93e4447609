"""Newline counting: per block, per segment, on several threads, exact."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tether.tools.fs.read_count import BLOCK_BYTES, NewlineCounter, count_segments


def test_a_range_is_counted_across_blocks() -> None:
    data = bytearray(b"x" * (3 * BLOCK_BYTES + 17))
    for index in (0, 5, BLOCK_BYTES - 1, BLOCK_BYTES, 2 * BLOCK_BYTES + 3, len(data) - 1):
        data[index] = ord("\n")
    count = NewlineCounter()
    assert count(data, 0, len(data)) == 6
    assert count(data, 1, len(data) - 1) == 4
    assert count(data, 6, BLOCK_BYTES - 1) == 0


@pytest.mark.parametrize("segments", [1, 2, 7])
def test_segments_are_counted_exactly_on_every_thread(tmp_path: Path, segments: int) -> None:
    segment = 4096
    rng = random.Random(segments)
    data = bytes(rng.choice(b"ab\n\r") for _ in range(segments * segment - 5))
    target = tmp_path / "lines.txt"
    target.write_bytes(data)
    with target.open("rb") as handle:
        counts = count_segments(handle.fileno(), len(data), segment)
    expected = [data[i : i + segment].count(b"\n") for i in range(0, len(data), segment)]
    assert counts == expected
    assert len(counts) == segments
