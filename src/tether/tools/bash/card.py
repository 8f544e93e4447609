"""What a stored command's terminal card says beyond its output, read from the result's meta.

A replay shows every command's card from what its result stored: this needs none of the
modules that run a command (its process group, its output capture, the sandbox's limits),
which load only for the rare note that names them.
"""

from __future__ import annotations

from pydantic import JsonValue

__all__ = ["DISABLED_NOTE", "card_notes"]

DISABLED_NOTE = (
    "Disabled in the git directories the command created (hooks, and config keys not known to"
    " run nothing), which git could have run outside the sandbox with the person's rights"
)
"""Opens the line naming the hooks renamed aside and the config keys removed."""


def card_notes(meta: dict[str, JsonValue]) -> tuple[str, ...]:
    """What the terminal card says beyond the output, from the stored meta (never raises)."""
    notes: list[str] = []
    hits = meta.get("limitsHit")
    if isinstance(hits, list) and hits:
        from tether.sandbox.limits import limit_note

        notes.extend(note for hit in hits if (note := limit_note(hit)))
    survivors = meta.get("survivingProcesses")
    if isinstance(survivors, list) and survivors:
        from tether.tools.bash.group import KILL_WAIT_SECONDS

        names = [
            f"{p['pid']} {p['command']}"
            for p in survivors
            if isinstance(p, dict)
            and isinstance(p.get("pid"), int)
            and isinstance(p.get("command"), str)
        ]
        notes.append(f"Still running {KILL_WAIT_SECONDS:g} s after SIGKILL: {'; '.join(names)}")
    created = meta.get("createdProtected")
    if isinstance(created, list) and created:
        paths = ", ".join(p for p in created if isinstance(p, str))
        notes.append(f"Protected paths appeared while it ran (unprotected until then): {paths}")
    if disabled := _stored_disabled(meta):
        notes.append(f"{DISABLED_NOTE}: {disabled}")
    return tuple(notes)


def _stored_disabled(meta: dict[str, JsonValue]) -> str:
    """The stored `disabledOnCreate` as the card says it (`""` when there is none)."""
    stored = meta.get("disabledOnCreate")
    items: list[str] = []
    for entry in stored if isinstance(stored, list) else ():
        if not isinstance(entry, dict) or not isinstance(path := entry.get("path"), str):
            continue
        key, renamed = entry.get("key"), entry.get("renamedTo")
        if isinstance(key, str):
            items.append(f"{key} in {path}")
        elif isinstance(renamed, str):
            items.append(f"{path} (renamed to {renamed.rsplit('/', 1)[-1]})")
    more = meta.get("disabledOnCreateMore")
    if items and isinstance(more, int) and not isinstance(more, bool) and more > 0:
        items.append(f"and {more} more")
    return "; ".join(items)
