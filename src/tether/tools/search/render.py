"""What the model reads from `grep` and `glob`: matches grouped by file, paths, and a footer.

grep (`content`; with context, `N-` marks a context line and `--` a gap, as in ripgrep):
    PATH
      N: line
      N: line

    PATH
      N- context
      N: line

    (FOOTER)

grep `count`: `PATH: N` per file, then the footer; grep `files_with_matches` and glob: one
path per line, newest first, with a footer only when the list is cut.
"""

from __future__ import annotations

from tether.tools.search.value import SEARCH_TIMEOUT_SECONDS, GlobValue, GrepValue, Stop
from tether.views import SearchFile

__all__ = ["file_lines", "glob_text", "grep_text"]

_NARROW = "Narrow the search with a more specific pattern, `path` or `include`"


def grep_text(value: GrepValue) -> str:
    """The search's result in its output mode, then how many exist and how to narrow."""
    if not value.files and value.stopped is None and not (value.offset and value.total):
        return f"No matches for {value.pattern}"
    match value.mode:
        case "content":
            blocks = ["\n".join([f.path, *file_lines(f)]) for f in value.files]
            return "\n\n".join([*blocks, _content_footer(value)])
        case "count":
            counts = "\n".join(f"{f.path}: {f.count}" for f in value.files)
            return f"{counts}\n\n{_count_footer(value)}"
        case "files_with_matches":
            return _paths_text([f.path for f in value.files], value, _NARROW)


def file_lines(file: SearchFile) -> list[str]:
    """A file's lines as `  N: text` (a match) or `  N- text` (context), `  --` at a gap."""
    lines: list[str] = []
    previous: int | None = None
    for line in file.matches:
        if previous is not None and line.line_number > previous + 1 and _has_context(file):
            lines.append("  --")
        mark = "-" if line.context else ":"
        lines.append(f"  {line.line_number}{mark} {line.line}")
        previous = line.line_number
    return lines


def _has_context(file: SearchFile) -> bool:
    return any(line.context for line in file.matches)


def _content_footer(value: GrepValue) -> str:
    shown, total, files = value.shown, value.total, len(value.files)
    if value.stopped is not None:
        return (
            f"({_stopped(value.stopped)}: showing {shown} matches; at least {total} exist. "
            f"{_NARROW}.)"
        )
    if value.offset:
        return _page(value.offset, shown, total, "matches")
    if value.truncated:
        return f"(Showing {shown} of {total} matches. {_NARROW} to see the rest.)"
    return f"({_count(total, 'match', 'matches')} in {_count(files, 'file', 'files')})"


def _count_footer(value: GrepValue) -> str:
    files = value.total_files if value.total_files is not None else len(value.files)
    in_all = f"{_count(value.total, 'match', 'matches')} in {_count(files, 'file', 'files')}"
    if value.stopped is not None:
        return f"({_stopped(value.stopped)}: at least {in_all}. {_NARROW}.)"
    if value.offset:
        return f"{_page(value.offset, len(value.files), files, 'files')[:-1]}; {in_all}.)"
    if len(value.files) < files:
        return f"(Showing {len(value.files)} of {files} files; {in_all}. {_NARROW}.)"
    return f"({in_all})"


def glob_text(value: GlobValue) -> str:
    """One path per line, newest first, then a footer when the list is cut."""
    if not value.paths and value.stopped is None:
        return f"No files matching {value.pattern}"
    return _paths_text(list(value.paths), value, "Use a more specific pattern or `path`")


def _paths_text(paths: list[str], value: GlobValue | GrepValue, how: str) -> str:
    lines = list(paths)
    if value.stopped is not None:
        lines += [
            "",
            f"({_stopped(value.stopped)}: showing {len(paths)} of at least "
            f"{value.total} files. {how}.)",
        ]
    elif isinstance(value, GrepValue) and value.offset:
        lines += ["", _page(value.offset, len(paths), value.total, "files")]
    elif value.truncated:
        lines += [
            "",
            f"(Showing the {len(paths)} most recently modified of {value.total} files. "
            f"{how} to see the rest.)",
        ]
    return "\n".join(lines)


def _page(offset: int, listed: int, total: int, what: str) -> str:
    """The footer of a page that `offset` started: which entries it lists, and the next."""
    first, last = offset + 1, offset + listed
    if not listed:
        return f"(No {what} past offset={offset}: there are {total}.)"
    if last < total:
        return f"(Showing {what} {first}-{last} of {total}. Use offset={last} for the next ones.)"
    return f"(Showing {what} {first}-{last} of {total}.)"


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
