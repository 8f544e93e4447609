"""Remembering an answer for a project: exact allow rules in `.tether/settings.local.json`.

The file is changed under a lock on `.tether/` (two tether processes answering at once both
keep their rule), through an atomic replace that never follows a symlink out of the
workspace, and only in its `permissions.allow` list. When tether creates it, the file is
added to the repository's `.git/info/exclude`. A workspace that was trusted (or had nothing
to trust) stays trusted with its new content: the rules are the user's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tether.bounded import read_bounded_text
from tether.errors import RememberFailed, SettingsError, ToolError, UnreadableFile
from tether.settings.gitexclude import exclude_from_git
from tether.settings.jsonedit import add_allow_rules
from tether.settings.loaded import load_settings
from tether.settings.locking import locked
from tether.settings.rules import Rule, parse_rule
from tether.settings.sources import LOCAL_FILE, PROJECT_DIR, SettingsSource
from tether.settings.trust import TrustStore, workspace_fingerprint
from tether.tools.fs.atomic import atomic_write

__all__ = ["RememberFailed", "remember_rules"]


def remember_rules(root: Path, home: Path, texts: Sequence[str]) -> tuple[Rule, ...]:
    """Add allow rules `texts` to the local settings of workspace `root`; the rules added."""
    path = root / LOCAL_FILE
    source = SettingsSource("local", path)
    rules = tuple(parse_rule(text, "allow", source, root=root, home=home) for text in texts)
    directory = root / PROJECT_DIR
    try:
        if not directory.is_symlink():
            directory.mkdir(exist_ok=True)
        with locked(directory, directory=True):
            created = _write(root, home, path, texts)
    except (OSError, ToolError, ValueError) as exc:
        raise RememberFailed(f"cannot add {', '.join(texts)} to {path}: {exc}") from None
    if created:
        exclude_from_git(path)
    return rules


def _write(root: Path, home: Path, path: Path, texts: Sequence[str]) -> bool:
    """Under the lock: edit the file; whether it was created."""
    try:
        current = load_settings(root, home)
    except SettingsError as exc:
        raise ValueError(f"the settings do not load ({exc}); fix them first") from None
    keep_trust = current.trust.trusted or not current.trust.withheld
    before = workspace_fingerprint(root)
    try:
        text: str | None = read_bounded_text(path, follow_symlinks=False)
    except FileNotFoundError:
        text = None
    except UnreadableFile as exc:
        raise ValueError(str(exc)) from None
    updated = add_allow_rules(text, texts)
    if updated != text:
        atomic_write(path, updated.encode("utf-8"), (root,))
    if keep_trust:
        store = TrustStore(home)
        after = workspace_fingerprint(root)
        if current.trust.trusted:
            store.retrust(root, before, after)
        else:
            store.trust(root, after)
    return text is None
