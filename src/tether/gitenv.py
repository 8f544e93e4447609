"""Which git tether runs, and how it runs git on files it does not trust: an environment in
which git reads no config but a repository's, and settings under which nothing it names runs."""

from __future__ import annotations

import os

__all__ = ["GIT_ENV", "SAFE_CONFIG", "VERBATIM_ATTRIBUTES", "find_git", "isolated_environment"]

GIT_ENV = "TETHER_GIT"
"""Names the git binary to use; `off` (or a path that is no program) means no git."""

VERBATIM_ATTRIBUTES = "* -text -eol -filter -ident -working-tree-encoding\n"
"""A snapshot repository's `info/attributes`, which wins over the workspace's
`.gitattributes`: the bytes on disk are the bytes saved, and no filter runs on them."""

SAFE_CONFIG = (
    "core.fsmonitor=false",
    "core.hooksPath=" + os.devnull,
    "diff.external=",
)
"""`-c` settings for a git run on a workspace's files: nothing it names runs."""


def find_git() -> str | None:
    """The git program tether runs, or `None` when there is none."""
    chosen = os.environ.get(GIT_ENV)
    if chosen is not None:
        if chosen in ("", "off"):
            return None
        return chosen if os.access(chosen, os.X_OK) and os.path.isfile(chosen) else None
    import shutil  # here, not above: `tether --version` imports this module

    return shutil.which("git")


def isolated_environment() -> dict[str, str]:
    """This process's environment for a git that reads no config but its repository's.

    The person's `GIT_*` variables (`GIT_DIR`, `GIT_EXTERNAL_DIFF`, `GIT_CONFIG_*`...) are
    dropped and the system and global config files are not read: a filter, fsmonitor or
    diff program named there would otherwise run on the workspace's files, which a model
    may have written. No prompt, no optional lock, C messages.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_OPTIONAL_LOCKS="0",
        GIT_TERMINAL_PROMPT="0",
        LC_ALL="C",
    )
    return env
