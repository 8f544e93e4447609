"""Loading what `read` returns: a text window or an image, with the file's version.

Everything here is blocking I/O; the tool runs it in a worker thread.
"""

from __future__ import annotations

import base64
import codecs
import hashlib
import os
import stat
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from io import FileIO
from itertools import accumulate
from pathlib import Path

from tether.beneath import open_file
from tether.errors import ToolError
from tether.tools.fs.encoding import SNIFF_BYTES, looks_binary, sniff_encoding
from tether.tools.fs.notebook import (
    MAX_NOTEBOOK_BYTES,
    NotebookImage,
    notebook_text,
    parse_notebook,
)
from tether.tools.fs.read_count import count_segments
from tether.tools.fs.read_errors import (
    binary_message,
    directory_message,
    image_too_large_message,
    not_found_message,
    out_of_range_message,
)
from tether.tools.fs.read_window import Chunk, Window, scan_window, scan_window_from
from tether.tools.observations import HASHED_UP_TO, FileVersion, data_version
from tether.views.notebook import NotebookView

__all__ = [
    "CHUNK_BYTES",
    "IMAGE_TYPES",
    "MAX_IMAGE_BYTES",
    "ReadImage",
    "ReadNotebook",
    "ReadText",
    "ReadValue",
    "load",
]

CHUNK_BYTES = 1 << 20
"""One read of the scan; reused, so it is also most of the scan's memory."""

SEGMENT_BYTES = CHUNK_BYTES
"""A huge file's lines are counted per segment of this size, on several threads at once."""

MAX_IMAGE_BYTES = 5 * 1024 * 1024

IMAGE_TYPES = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
}
"""Image extensions returned as image content, with their MIME types."""


@dataclass(frozen=True)
class ReadText:
    """A window of a text file and the version of the file it came from."""

    path: Path
    offset: int
    window: Window
    byte_cap: int
    version: FileVersion


@dataclass(frozen=True)
class ReadImage:
    """An image file as base64, and the version of the file it came from."""

    path: Path
    data: str
    mime_type: str
    version: FileVersion


@dataclass(frozen=True)
class ReadNotebook:
    """A notebook's cells as text, the images of their outputs, and the file's version."""

    path: Path
    text: str
    images: tuple[NotebookImage, ...]
    version: FileVersion
    view: NotebookView
    """The cells as the read card shows them."""


ReadValue = ReadText | ReadImage | ReadNotebook


def load(
    path: Path, offset: int, limit: int, byte_cap: int, roots: Sequence[Path] = ()
) -> ReadValue:
    """Read `path` (resolved): an image, or lines `offset`.. of a text file; `ToolError` else.

    The file is reached from the workspace root among `roots` that holds it without
    following any symlink (see `beneath`), so what is read is what the policy checked.
    """
    with _open(path, roots) as handle:
        mime_type = IMAGE_TYPES.get(path.suffix.lower().lstrip("."))
        try:
            if mime_type is not None:
                return _load_image(path, handle, mime_type)
            if path.suffix.lower() == ".ipynb":
                return _load_notebook(path, handle)
            return _load_text(path, handle, offset, limit, byte_cap)
        except OSError as exc:
            # A file that opens but cannot be read (`/proc/self/mem`, a failing disk).
            raise ToolError(f"Cannot read {path}: {exc.strerror or exc}") from None


def _open(path: Path, roots: Sequence[Path]) -> FileIO:
    # Non-blocking, so that naming a FIFO cannot hang the call; the type is checked on the
    # open descriptor, so what is read is what was checked.
    try:
        fd = open_file(path, os.O_RDONLY | os.O_NONBLOCK, roots)
    except (FileNotFoundError, NotADirectoryError):
        raise ToolError(not_found_message(path)) from None
    except OSError as exc:
        raise ToolError(f"Cannot read {path}: {exc.strerror}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise ToolError(directory_message(path))
        raise ToolError(f"Cannot read {path}: not a regular file")
    return FileIO(fd, "rb", closefd=True)


def _load_image(path: Path, handle: FileIO, mime_type: str) -> ReadImage:
    info = os.fstat(handle.fileno())
    if info.st_size > MAX_IMAGE_BYTES:
        raise ToolError(image_too_large_message(path, info.st_size, MAX_IMAGE_BYTES))
    if info.st_size == 0:
        # An empty image block is refused by model providers; say so here instead.
        raise ToolError(f"Cannot read image {path}: the file is empty")
    data = handle.read(MAX_IMAGE_BYTES) or b""
    sha = hashlib.sha256(data).hexdigest()
    version = FileVersion(str(path), info.st_size, info.st_mtime_ns, sha)
    return ReadImage(path, base64.b64encode(data).decode("ascii"), mime_type, version)


def _load_notebook(path: Path, handle: FileIO) -> ReadNotebook:
    info = os.fstat(handle.fileno())
    if info.st_size > MAX_NOTEBOOK_BYTES:
        raise ToolError(
            f"Cannot read notebook {path}: {info.st_size} bytes, more than {MAX_NOTEBOOK_BYTES}"
        )
    data = handle.read(MAX_NOTEBOOK_BYTES) or b""
    version = data_version(path, info, data)
    read = notebook_text(parse_notebook(data, path), path)
    return ReadNotebook(path, read.text, tuple(read.images), version, read.view)


def _load_text(path: Path, handle: FileIO, offset: int, limit: int, cap: int) -> ReadText:
    info = os.fstat(handle.fileno())
    head = handle.read(SNIFF_BYTES)
    if looks_binary(path, head):
        raise ToolError(binary_message(path))
    handle.seek(0)
    # Hashing in the same pass gives exactly what `file_version` computes, without a second read.
    digest = hashlib.sha256() if info.st_size <= HASHED_UP_TO else None
    encoding = sniff_encoding(head)
    skip = len(encoding.bom)
    if digest is None and encoding.is_utf8:
        window = _scan_counted(path, handle, info.st_size, skip, (offset, limit, cap))
    else:
        chunks = _raw_chunks(handle, digest, skip)
        if not encoding.is_utf8:
            chunks = _transcoded(chunks, encoding.codec)
        window = scan_window(chunks, offset, limit, cap)
    if offset > max(window.total_lines, 1):
        raise ToolError(out_of_range_message(offset, path, window.total_lines))
    sha = digest.hexdigest() if digest is not None else ""
    version = FileVersion(str(path), info.st_size, info.st_mtime_ns, sha)
    return ReadText(path, offset, window, cap, version)


def _raw_chunks(
    handle: FileIO, digest: hashlib._Hash | None, skip: int, start: int = 0
) -> Iterator[Chunk]:
    """The file's bytes from `start` in chunks, hashed when there is a digest to update.

    The first `skip` bytes of the file (a BOM) are left out of the text.
    """
    handle.seek(start)
    skip = skip if start == 0 else 0
    buffer = bytearray(CHUNK_BYTES)
    view = memoryview(buffer)
    while read := handle.readinto(buffer):
        if digest is not None:
            digest.update(view[:read])
        # The buffer is reused: the scan is done with one chunk before the next is read.
        yield buffer if read == CHUNK_BYTES and not skip else buffer[skip:read]
        skip = 0


def _scan_counted(
    path: Path, handle: FileIO, size: int, skip: int, window: tuple[int, int, int]
) -> Window:
    """A huge UTF-8 file: count its lines on every core, then scan only near the window."""
    offset, limit, cap = window
    counts = count_segments(handle.fileno(), size, SEGMENT_BYTES)
    unterminated = size > skip and os.pread(handle.fileno(), 1, size - 1) != b"\n"
    total = sum(counts) + unterminated
    if offset > max(total, 1):
        raise ToolError(out_of_range_message(offset, path, total))
    # Line `offset` starts after the file's (offset - 1)th newline: scan from its segment.
    through = list(accumulate(counts))
    first = bisect_left(through, offset - 1)
    before = through[first] - counts[first]
    chunks = _raw_chunks(handle, None, skip, start=first * SEGMENT_BYTES)
    lines, capped = scan_window_from(chunks, offset, limit, cap, newlines_before=before)
    return Window(lines, total, capped)


def _transcoded(chunks: Iterator[Chunk], codec: str) -> Iterator[Chunk]:
    decoder = codecs.getincrementaldecoder(codec)(errors="replace")
    for chunk in chunks:
        yield decoder.decode(chunk).encode("utf-8", "replace")
    yield decoder.decode(b"", final=True).encode("utf-8", "replace")
