"""The workspace: the session's cwd plus any extra roots, and how tool paths resolve in it."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tether.errors import ToolError

__all__ = ["Workspace"]


@dataclass(frozen=True)
class Workspace:
    """Directories a session may touch without asking; `cwd` is where relative paths start."""

    cwd: Path
    extra_roots: tuple[Path, ...] = ()

    @classmethod
    def at(cls, cwd: str | os.PathLike[str], *extra: str | os.PathLike[str]) -> Workspace:
        """A workspace whose roots are fully resolved (symlinks followed)."""
        return cls(Path(cwd).resolve(), tuple(Path(e).resolve() for e in extra))

    @property
    def roots(self) -> tuple[Path, ...]:
        """Every root, the cwd first."""
        return (self.cwd, *self.extra_roots)

    def resolve(self, raw: str) -> Path:
        """The absolute path a tool argument names, with `~`, `..` and symlinks resolved.

        Raises `ToolError` for a name no file can have (a NUL, a lone surrogate) or a
        symlink loop, so a bad argument is an error result rather than a crash.
        """
        try:
            path = Path(os.path.expanduser(raw))
            if not path.is_absolute():
                path = self.cwd / path
            return path.resolve()
        except (OSError, RuntimeError, ValueError) as exc:
            raise ToolError(f"Cannot resolve {raw!r}: {exc}") from None

    def contains(self, path: Path) -> bool:
        """Whether a resolved path lies in one of the roots."""
        return any(path == root or path.is_relative_to(root) for root in self.roots)
