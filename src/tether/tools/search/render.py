"""What the model reads from `grep` and `glob`: matches grouped by file, paths, and a footer.

grep:
    PATH
      N: line
      N: line

    PATH
      N: line

    (FOOTER)
"""

from __future__ import annotations

from tether.tools.search.rg import SEARCH_TIMEOUT_SECONDS
from tether.tools.search.value import GlobValue, GrepValue, Stop

__all__ = ["glob_text", "grep_text"]


def grep_text(value: GrepValue) -> str:
    """Matches by file, each line as `  N: text`, then how many exist and how to narrow."""
    if not value.files and value.stopped is None:
        return f"No matches for {value.pattern}"
    blocks = [
        "\n".join([f.path, *(f"  {m.line_number}: {m.line}" for m in f.matches)])
        for f in value.files
    ]
    return "\n\n".join([*blocks, _grep_footer(value)])


def _grep_footer(value: GrepValue) -> str:
    shown, total, files = value.shown, value.total, len(value.files)
    if value.stopped is not None:
        return (
            f"({_stopped(value.stopped)}: showing {shown} matches; at least {total} exist. "
            "Narrow the search with a more specific pattern, `path` or `include`.)"
        )
    if value.truncated:
        return (
            f"(Showing {shown} of {total} matches. Narrow the search with a more specific "
            "pattern, `path` or `include` to see the rest.)"
        )
    return f"({_count(total, 'match', 'matches')} in {_count(files, 'file', 'files')})"


def glob_text(value: GlobValue) -> str:
    """One path per line, newest first, then a footer when the list is cut."""
    if not value.paths and value.stopped is None:
        return f"No files matching {value.pattern}"
    lines = list(value.paths)
    if value.stopped is not None:
        lines += [
            "",
            f"({_stopped(value.stopped)}: showing {len(value.paths)} of at least "
            f"{value.total} files. Use a more specific pattern or `path`.)",
        ]
    elif value.truncated:
        lines += [
            "",
            f"(Showing the {len(value.paths)} most recently modified of {value.total} files. "
            "Use a more specific pattern or `path` to see the rest.)",
        ]
    return "\n".join(lines)


def _stopped(stop: Stop) -> str:
    match stop:
        case "timeout":
            return f"The search timed out after {SEARCH_TIMEOUT_SECONDS:g} s"
        case "cancelled":
            return "The search was cancelled"
        case "overflow":
            return "The search stopped at its output limit"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"
