"""The read envelope the model sees, and the narrowing of stored read results for cards.

Rendering:
    <path>PATH</path>
    <type>file</type>
    <content>
    N: text
    ...

    FOOTER
    </content>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, TypeGuard

from tether.views import ReadFileLine, ReadLines

__all__ = [
    "ReadMeta",
    "envelope_content",
    "footer",
    "lang_from_path",
    "read_meta_from_meta",
    "render_envelope",
]

_TYPE = "</path>\n<type>file</type>\n<content>\n"
_CLOSE = "\n</content>"

_LANGS: dict[str, str] = {
    **dict.fromkeys(["ts", "mts", "cts"], "typescript"),
    "tsx": "tsx",
    **dict.fromkeys(["js", "mjs", "cjs"], "javascript"),
    "jsx": "jsx",
    **dict.fromkeys(["json", "jsonc", "json5"], "json"),
    **dict.fromkeys(["py", "pyi", "pyw"], "python"),
    **dict.fromkeys(["rb", "rake", "gemspec"], "ruby"),
    "go": "go",
    "rs": "rust",
    "java": "java",
    **dict.fromkeys(["c", "h"], "c"),
    **dict.fromkeys(["cpp", "cc", "cxx", "c++", "hpp", "hh", "hxx", "h++"], "cpp"),
    "cs": "csharp",
    **dict.fromkeys(["kt", "kts"], "kotlin"),
    "swift": "swift",
    "php": "php",
    **dict.fromkeys(["sh", "bash", "zsh"], "bash"),
    **dict.fromkeys(["yaml", "yml"], "yaml"),
    "toml": "toml",
    **dict.fromkeys(["ini", "cfg"], "ini"),
    **dict.fromkeys(["md", "markdown"], "markdown"),
    **dict.fromkeys(["html", "htm", "xhtml"], "html"),
    "css": "css",
    "scss": "scss",
    "sql": "sql",
    **dict.fromkeys(["xml", "xsd", "xsl", "svg"], "xml"),
    "lua": "lua",
}


def lang_from_path(path: str) -> str | None:
    """A highlighting hint from the extension of the last path segment, or `None`."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        return None
    return _LANGS.get(ext.lower())


def footer(offset: int, shown: int, total: int, capped: bool, byte_cap: int) -> str:
    """The last line of the body: why the window ends and where to continue."""
    last = offset + shown - 1
    if capped:
        return (
            f"(Output capped at {_kilobytes(byte_cap)}. Showing lines {offset}-{last}. "
            f"Use offset={last + 1} to continue.)"
        )
    if last < total:
        return f"(Showing lines {offset}-{last} of {total}. Use offset={last + 1} to continue.)"
    return f"(End of file - total {total} lines)"


def _kilobytes(cap: int) -> str:
    if cap < 1024:
        return f"{cap} bytes"
    if cap % 1024 == 0:
        return f"{cap // 1024} KB"
    return f"{cap / 1024:.1f} KB"


def render_envelope(path: str, lines: Sequence[ReadFileLine], footer_text: str) -> str:
    """The model-facing text of a window: numbered lines, a blank line, then the footer."""
    body = "".join(f"{line.number}: {line.text}\n" for line in lines)
    if body:
        body += "\n"
    return f"<path>{path}{_TYPE}{body}{footer_text}{_CLOSE}"


def envelope_content(text: str) -> str | None:
    """The text between `<content>\\n` and `\\n</content>`, or `None` if not a read envelope."""
    if not text.startswith("<path>") or not text.endswith(_CLOSE):
        return None
    start = text.find(_TYPE)
    if start < 0 or "\n" in text[len("<path>") : start]:
        return None
    start += len(_TYPE)
    end = len(text) - len(_CLOSE)
    if end < start:
        return None
    return text[start:end]


_tuple = tuple.__new__


class ReadMeta(NamedTuple):
    """A read result's stored projection, checked: what the read card is drawn from."""

    # A tuple: made for every read a replay shows, at a quarter of a frozen dataclass's cost.

    path: str
    offset: int
    lines: ReadLines
    """The stored list itself, checked (shared with the result it was narrowed from)."""
    total_lines: int
    lang: str | None
    byte_cap: int | None = None
    """The output cap in bytes, when it cut the window short."""


def read_meta_from_meta(meta: object) -> ReadMeta | None:
    """Narrow opaque persisted JSON to a `ReadMeta`; `None` when anything is off. Never raises."""
    if not isinstance(meta, dict):
        return None
    path, offset, total = meta.get("path"), meta.get("offset"), meta.get("totalLines")
    raw_lines, lang = meta.get("lines"), meta.get("lang", None)
    if not isinstance(path, str) or not isinstance(raw_lines, list):
        return None
    if not _is_int(offset) or offset < 1 or not _is_int(total) or total < 0:
        return None
    if "lang" in meta and not isinstance(lang, str):
        return None
    cap = meta.get("byteCap")
    if cap is not None and (not _is_int(cap) or cap < 1):
        return None
    lines = ReadLines.checked(raw_lines, offset - 1, total)
    if lines is None:
        return None
    # Made without the generated `__new__`'s Python call (a replay makes one per read).
    return _tuple(ReadMeta, (path, offset, lines, total, lang, cap))


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
