"""Which config keys a git directory a sandboxed command created may keep.

An allow-list, not a list of dangerous keys: git grows keys that run programs
(`gpg.ssh.defaultKeyCommand`, `url.*.insteadOf` to an `ext::` remote with
`protocol.ext.allow`, ...) faster than such a list can follow. Kept are the keys `git init`,
`git clone` and `git submodule add` write, each known to run nothing; a value naming a
remote must be a URL of a transport git speaks itself (no `ext::`, `fd::` or other
`helper::` address, no scheme git hands to a `git-remote-*` program).
"""

from __future__ import annotations

import re

__all__ = ["kept_key", "plain_remote"]

_PLAIN = frozenset(
    {
        "core.bare",
        "core.repositoryformatversion",
        "core.filemode",
        "core.logallrefupdates",
        "core.ignorecase",
        "core.precomposeunicode",
        "core.symlinks",
        "core.worktree",
        "core.sparsecheckout",
        "core.sparsecheckoutcone",
        "index.sparse",
        "init.defaultbranch",
        "extensions.objectformat",
        "extensions.compatobjectformat",
        "extensions.refstorage",
        "extensions.worktreeconfig",
    }
)
"""`section.name` keys kept whatever their value: git reads them as a flag, a number, a
name or a path, never as a program."""
_PLAIN_SUB = frozenset(
    {
        ("branch", "merge"),
        ("remote", "fetch"),
        ("remote", "promisor"),
        ("remote", "partialclonefilter"),
        ("submodule", "active"),
    }
)
"""`section.<sub>.name` keys kept whatever their value."""
_REMOTE_SUB = frozenset(
    {("remote", "url"), ("remote", "pushurl"), ("submodule", "url"), ("branch", "remote")}
)
"""`section.<sub>.name` keys whose value is where git fetches from: kept when plain."""
_SCHEMES = frozenset({"http", "https", "ftp", "ftps", "ssh", "git+ssh", "ssh+git", "git", "file"})
"""URL schemes git serves with its own transports (any other runs `git-remote-SCHEME`)."""
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def plain_remote(value: str) -> bool:
    """Whether `value`, as a remote's URL or name, reaches a transport that runs no program
    of the repository's choosing."""
    if not value or value.startswith("-") or _CONTROL.search(value) or "::" in value:
        return False  # `ext::CMD`, `fd::N`, `helper::address` run or hand over a program
    scheme = _SCHEME.match(value)
    return scheme is None or scheme.group(1).lower() in _SCHEMES


def kept_key(key: str, value: str) -> bool:
    """Whether config key `key` (as `git config --list` spells it) with `value` is kept in a
    git directory a sandboxed command created."""
    section, _, rest = key.partition(".")
    section = section.lower()
    sub, _, name = rest.rpartition(".")
    name = name.lower()
    if not name:
        return False  # no key git writes: a malformed line
    if section == "user" and not sub:
        return True  # a name, an address, a key's id: signing runs only `gpg.*`, not kept
    if not sub:
        if f"{section}.{name}" == "extensions.partialclone":
            return plain_remote(value)  # the remote lazy fetches go to
        return f"{section}.{name}" in _PLAIN
    if (section, name) in _REMOTE_SUB:
        return plain_remote(value)
    return (section, name) in _PLAIN_SUB
