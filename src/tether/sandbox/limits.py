"""The sandbox's limits a command ran into, found from how it ended and what it printed.

The kernel refuses quietly: a `fork` that fails with EAGAIN past `RLIMIT_NPROC`, an `mmap`
that fails past `RLIMIT_AS`, a write that finds the capped /tmp full. The command says so in
its own words, which are recognised here; the process limit tether enforces itself (as root,
where the kernel does not) is known for certain. Each hit is stored in the result's meta
(`limitsHit`), said to the model, and shown on the terminal card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, get_args

from pydantic import JsonValue

from tether.lazy import pattern

if TYPE_CHECKING:
    from tether.sandbox.policy import SandboxPolicy  # a replayed card's notes need no policy

__all__ = ["LIMITS", "Limit", "LimitHit", "limit_note", "limits_hit"]

Limit = Literal["processes", "memory", "tmp"]
LIMITS: tuple[Limit, ...] = get_args(Limit)

_SAID: dict[Limit, re.Pattern[str]] = {
    "processes": pattern(
        r"fork.{0,40}Resource temporarily unavailable|Resource temporarily unavailable.{0,40}"
        r"fork|spawn EAGAIN|can't start new thread|unable to create (?:native|new native) thread"
        r"|BlockingIOError: \[Errno 11\]",
        re.IGNORECASE,
    ),
    "memory": pattern(
        r"Cannot allocate memory|\bMemoryError\b|std::bad_alloc|out of memory", re.IGNORECASE
    ),
    "tmp": pattern(r"No space left on device"),
}
"""How programs report the refusal of each limit."""


@dataclass(frozen=True)
class LimitHit:
    """A limit the command ran into, its value, and whether tether stopped the command."""

    limit: Limit
    value: int
    stopped: bool = False

    def meta(self) -> JsonValue:
        """The stored form: `{limit, value, stopped?}`."""
        data: dict[str, JsonValue] = {"limit": self.limit, "value": self.value}
        if self.stopped:
            data["stopped"] = True
        return data


def limits_hit(
    text: str, sandbox: SandboxPolicy | None, stopped: str | None
) -> tuple[LimitHit, ...]:
    """The limits of `sandbox` that a command which printed `text` ran into."""
    if sandbox is None:
        return ()
    values: dict[Limit, int | None] = {
        "processes": sandbox.max_processes,
        "memory": sandbox.memory_mib,
        "tmp": sandbox.tmp_size_mib,
    }
    hits = []
    for limit in LIMITS:
        value = values[limit]
        if value is None:
            continue
        if limit == "processes" and stopped == "processes":
            hits.append(LimitHit(limit, value, stopped=True))
        elif _SAID[limit].search(text):
            hits.append(LimitHit(limit, value))
    return tuple(hits)


def limit_note(meta: JsonValue) -> str | None:
    """What a stored hit says to people; `None` when `meta` is not one."""
    if not isinstance(meta, dict):
        return None
    limit, value, stopped = meta.get("limit"), meta.get("value"), meta.get("stopped", False)
    if limit not in LIMITS or isinstance(value, bool) or not isinstance(value, int):
        return None
    match limit:
        case "processes" if stopped is True:
            return (
                f"Stopped: more than {value} processes at once, the sandbox's limit"
                " (sandbox.maxProcesses)"
            )
        case "processes":
            return f"Hit the sandbox's limit of {value} processes (sandbox.maxProcesses)"
        case "memory":
            return f"Hit the sandbox's limit of {value} MiB of memory a process (sandbox.memoryMiB)"
        case _:
            return (
                f"No space left: if it was /tmp, the sandbox's holds {value} MiB"
                " (sandbox.tmpSizeMiB)"
            )
