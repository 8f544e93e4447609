"""Bytes of a body to text, honouring the charset the response declares."""

from __future__ import annotations

import codecs
import re

from tether.tools.fs.encoding import sniff_encoding

__all__ = ["decode_body", "media_type"]

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_SNIFF_BYTES = 4096
"""How far into an HTML page a `<meta charset>` is looked for (browsers look at 1024)."""

# Browsers read these labels as windows-1252, a superset, and pages rely on it.
_WINDOWS_1252 = frozenset({"iso-8859-1", "iso8859-1", "latin1", "latin-1", "us-ascii", "ascii"})


def media_type(content_type: str) -> tuple[str, str | None]:
    """`text/html; charset=UTF-8` → (`text/html`, `UTF-8`); the type lower-cased."""
    kind, _, params = content_type.partition(";")
    charset = None
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset" and value.strip().strip("\"'"):
            charset = value.strip().strip("\"'")
    return kind.strip().lower(), charset


def decode_body(body: bytes | bytearray, charset: str | None, *, html: bool) -> str:
    """The text: a BOM first, then the declared charset, then `<meta charset>`, else UTF-8."""
    announced = sniff_encoding(bytes(body[:4]))
    if announced.bom:
        return str(memoryview(body)[len(announced.bom) :], announced.codec, "replace")
    codec = _known(charset, html=html)
    if codec is None and html:
        found = _META_CHARSET.search(bytes(body[:_SNIFF_BYTES]))
        if found is not None:
            codec = _known(found.group(1).decode("ascii"), html=True)
    return body.decode(codec or "utf-8", errors="replace")


def _known(label: str | None, *, html: bool) -> str | None:
    if label is None:
        return None
    label = label.strip().lower()
    if html and label in _WINDOWS_1252:
        return "cp1252"
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None
