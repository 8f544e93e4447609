"""How a file's bytes become text: BOM sniffing and binary detection, shared by the fs tools."""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from pathlib import PurePath

__all__ = [
    "BINARY_EXTENSIONS",
    "SNIFF_BYTES",
    "TextEncoding",
    "looks_binary",
    "sniff_encoding",
]

SNIFF_BYTES = 4096
"""How much of a file's head decides whether it is binary."""

_CONTROL_RATIO = 0.30

BINARY_EXTENSIONS = frozenset(
    """
    7z a apk avi bin bmp bz2 class dat db dll dmg doc docx dylib ear eot exe flac gz ico iso
    jar lib lz4 mkv mov mp3 mp4 o obj odp ods odt ogg otf pdf pdb pyc pyd pyo rar so sqlite
    sqlite3 tar tgz tif tiff ttf war wasm wav webm woff woff2 xls xlsx xz zip zst
    """.split()
)
"""Extensions whose files are never text."""

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


@dataclass(frozen=True)
class TextEncoding:
    """A file's text encoding: the codec and the BOM bytes it starts with (b"" when none)."""

    codec: str
    bom: bytes = b""

    @property
    def is_utf8(self) -> bool:
        """Whether lines can be split on the byte `\\n` directly."""
        return self.codec == "utf-8"


def sniff_encoding(head: bytes) -> TextEncoding:
    """The encoding a file's first bytes announce; UTF-8 when there is no BOM.

    UTF-32-LE is tested before UTF-16-LE because its BOM starts with UTF-16-LE's.
    """
    for bom, codec in _BOMS:
        if head.startswith(bom):
            return TextEncoding(codec, bom)
    return TextEncoding("utf-8")


def looks_binary(path: PurePath, head: bytes) -> bool:
    """Binary by extension, by a NUL in the head, or by more than 30% control bytes.

    A head with a UTF-16/32 BOM is text: its NULs are part of the encoding.
    """
    if path.suffix.lower().lstrip(".") in BINARY_EXTENSIONS:
        return True
    if sniff_encoding(head).codec != "utf-8":
        return False
    sample = head[:SNIFF_BYTES]
    if b"\0" in sample:
        return True
    if not sample:
        return False
    control = sum(1 for byte in sample if byte < 9 or 13 < byte < 32)
    return control / len(sample) > _CONTROL_RATIO
