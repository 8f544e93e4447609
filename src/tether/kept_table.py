"""A table kept beside tether's bytecode: what a start reuses instead of making again.

`tether.dataclass_code` (compiled methods and regular expressions' programs) and
`tether.schema_table` (pydantic's core schemas) each keep one. A table is a marshalled tuple:
its layout's number, the versions it was made for, then its parts. A reader gets the parts only
when the layout and versions are its own; a writer replaces the file whole (`replace_file`,
which `tether.module_code`'s table of modules' bytecode is written with too), so a reader sees
the old table or the new one, never a part of either.
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["read_table", "replace_file", "write_table"]


def read_table(path: Path, layout: int, versions: Any, parts: int) -> tuple[Any, ...] | None:
    """The `parts` parts of the table at `path` written with `layout` for `versions`; `None`
    when there is none, or it is another layout's, another version's or no table at all."""
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(data, tuple) and len(data) == parts + 2):
        return None
    if data[0] != layout or data[1] != versions:
        return None
    return data[2:]


def write_table(path: Path, layout: int, versions: Any, *parts: Any) -> None:
    """`parts` written as the table at `path` (nothing, where the folder takes no file: a
    read-only installation makes what it needs at every start)."""
    replace_file(path, (marshal.dumps((layout, versions, *parts)),))


def replace_file(path: Path, pieces: Iterable[bytes]) -> None:
    """`pieces`, one after the other, written as the file at `path`, which is replaced whole:
    a reader sees the old file or the new one (nothing, where the folder takes no file)."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with partial.open("wb") as file:
            file.writelines(pieces)
        os.replace(partial, path)
    except OSError:
        partial.unlink(missing_ok=True)
