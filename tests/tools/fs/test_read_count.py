"""Newline counting: per block, per segment, on several threads, exact."""

from __future__ import annotations

import ctypes
import random
from pathlib import Path

import pytest

from tether.tools.fs.read_count import (
    BLOCK_BYTES,
    NUMPY_PAYS_FROM,
    SCRATCH_BYTES,
    NewlineCounter,
    count_segments,
    read_buffer,
)


def test_a_range_is_counted_across_blocks() -> None:
    data = bytearray(b"x" * (3 * SCRATCH_BYTES + 17))
    block = SCRATCH_BYTES
    for index in (0, 5, block - 1, block, 2 * block + 3, 3 * block + 1, len(data) - 1):
        data[index] = ord("\n")
    count = NewlineCounter(NUMPY_PAYS_FROM)  # with numpy
    assert count(data, 0, len(data)) == 7
    assert count(data, 1, len(data) - 1) == 5
    assert count(data, 6, block - 1) == 0
    assert count(data, 6, BLOCK_BYTES - 1) == 0


def test_a_block_of_nothing_but_newlines_is_counted_without_a_carry() -> None:
    # Every flag set: each byte of the column sums is at its largest.
    count = NewlineCounter(NUMPY_PAYS_FROM)  # with numpy
    assert count(b"\n" * SCRATCH_BYTES, 0, SCRATCH_BYTES) == SCRATCH_BYTES
    assert count(b"\n" * (2 * SCRATCH_BYTES + 5), 3, 2 * SCRATCH_BYTES + 5) == 2 * SCRATCH_BYTES + 2


@pytest.mark.parametrize("seed", range(4))
def test_random_text_is_counted_as_bytes_count_counts_it(seed: int) -> None:
    rng = random.Random(seed)
    data = rng.randbytes(SCRATCH_BYTES + rng.randrange(SCRATCH_BYTES)).replace(b"\0", b"\n")
    pos, end = rng.randrange(100), len(data) - rng.randrange(100)
    count = NewlineCounter(NUMPY_PAYS_FROM)  # with numpy
    assert count(data, pos, end) == data.count(b"\n", pos, end)
    mapped = read_buffer(len(data))
    mapped[:] = data
    assert count(mapped, pos, end) == data.count(b"\n", pos, end)
    assert count(mapped, end - 100, end) == data.count(b"\n", end - 100, end)


def test_reads_land_at_the_start_of_a_page() -> None:
    # The kernel's copy into a buffer 16 bytes off a 32-byte boundary took twice the CPU.
    buffer = read_buffer(SCRATCH_BYTES)
    assert ctypes.addressof(ctypes.c_char.from_buffer(buffer)) % 4096 == 0


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


def test_a_file_cut_short_while_counted_counts_what_is_left(tmp_path: Path) -> None:
    # The size was taken before the file lost its tail: short reads, no stale buffer counted.
    segment = BLOCK_BYTES
    target = tmp_path / "cut.txt"
    target.write_bytes(b"\n" * (2 * segment + segment // 2))
    with target.open("rb") as handle:
        counts = count_segments(handle.fileno(), 5 * segment, segment)
    assert counts == [segment, segment, segment // 2, 0, 0]
