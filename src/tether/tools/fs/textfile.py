"""A whole text file as a string, and back to exactly the same bytes.

Decoding keeps everything encoding back needs: the codec, the BOM and the line-ending style.
UTF-8 is decoded with `surrogateescape`, so invalid bytes survive an edit untouched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from tether.tools.fs.encoding import TextEncoding, sniff_encoding

__all__ = ["NEW_FILE", "LineEndings", "TextFile", "count_lines", "display_text", "line_endings"]

LineEndings = Literal["lf", "crlf", "mixed"]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def line_endings(text: str) -> LineEndings:
    """`crlf` when every `\\n` follows a `\\r`, `lf` when none does, `mixed` otherwise."""
    crlf = text.count("\r\n")
    if crlf == 0:
        return "lf"
    return "crlf" if crlf == text.count("\n") else "mixed"


def display_text(text: str) -> str:
    """Text fit for a card: LF line endings and no lone surrogates (escaped invalid bytes)."""
    return _LONE_SURROGATE.sub("\ufffd", text.replace("\r\n", "\n"))


@dataclass(frozen=True)
class TextFile:
    """A file's text with its original line endings, and the encoding it came in."""

    text: str
    encoding: TextEncoding

    @classmethod
    def decode(cls, data: bytes) -> TextFile:
        """Decode bytes; raises `UnicodeDecodeError` when a UTF-16/32 file is truncated."""
        encoding = sniff_encoding(data)
        body = data[len(encoding.bom) :]
        return cls(body.decode(encoding.codec, _errors(encoding)), encoding)

    @property
    def line_endings(self) -> LineEndings:
        """The file's line-ending style."""
        return line_endings(self.text)

    def encode(self, text: str) -> bytes:
        """`text` in this file's encoding, BOM first; `decode(d).encode(d.text) == d` holds.

        Raises `UnicodeEncodeError` when `text` holds a surrogate the codec cannot write.
        """
        return self.encoding.bom + text.encode(self.encoding.codec, _errors(self.encoding))


def _errors(encoding: TextEncoding) -> str:
    # Invalid UTF-8 bytes and lone UTF-16 surrogates both round-trip through these handlers.
    return "surrogateescape" if encoding.is_utf8 else "surrogatepass"


def count_lines(text: str) -> int:
    """Lines as the read tool counts them: a last line without `\\n` counts, `""` has none."""
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


NEW_FILE = TextFile("", TextEncoding("utf-8"))
"""How a file that does not exist yet is written: UTF-8, no BOM."""
