"""A finished command, and its two views: the model's text and the card's JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import JsonValue

from tether.sandbox.limits import LimitHit, limit_note
from tether.tools.bash.card import DISABLED_NOTE
from tether.tools.bash.group import KILL_GRACE_SECONDS, KILL_WAIT_SECONDS, Member, Stop
from tether.tools.bash.output import Clipped, cut_marker
from tether.tools.invocation import MAX_META_BYTES

if TYPE_CHECKING:
    # Made by a command run, not by its cards (`tether show` loads no sandbox policy).
    from tether.sandbox.gitdefuse import Defused
    from tether.sandbox.policy import SandboxPolicy

__all__ = [
    "DISABLED_NOTE",
    "MAX_CARD_OUTPUT_BYTES",
    "MODEL_TEXT_LIMIT",
    "BashValue",
    "card_meta",
    "card_output",
    "collapse_redraws",
    "model_text",
]

MODEL_TEXT_LIMIT = 30_000
"""The most characters of text the model sees for one command, notes included."""

MAX_CARD_OUTPUT_BYTES = 768 * 1024
"""The card's output as JSON stays under this, leaving room in the stored meta for the rest."""

NO_OUTPUT = "(no output)"
_LEFTOVERS_SHOWN = 20
"""How many stopped background processes a result names one by one."""
_BLOCKED_FILES = (
    "Read-only file system",
    "Permission denied",
    "Operation not permitted",  # a Unix socket, a mount: refused to the sandbox
    "Device or resource busy",  # moving a protected path aside
)
_BLOCKED_NETWORK = (
    "Network is unreachable",
    "Could not resolve host",
    "Temporary failure in name resolution",
    "Name or service not known",
    "Connection refused",
    "No address associated with hostname",
)
"""What a command prints when the sandbox stopped it writing outside or reaching the network."""


@dataclass(frozen=True)
class BashValue:
    """A finished command: its kept output, how it ended and why it was stopped, if it was."""

    command: str
    cwd: str
    card: Clipped
    """Raw output with escape sequences, head and tail kept."""
    model: Clipped
    """Output without escape sequences, head and tail kept."""
    exit_code: int | None
    signal: str | None
    stopped: Stop | None
    timeout_ms: int
    detached: bool
    """Background jobs still held the output open when the shell exited."""
    leftovers: tuple[Member, ...] = ()
    """Background processes still running when the shell exited, stopped then."""
    survivors: tuple[Member, ...] = ()
    """Processes still running after the stop (SIGKILL and a bounded wait for the kernel)."""
    limits: tuple[LimitHit, ...] = ()
    """The sandbox's limits the command ran into."""
    created_protected: tuple[str, ...] = ()
    """Protected entries (`.git`, `.tether`...) that did not exist when the command started and
    do now: the sandbox keeps them read-only only once they exist."""
    defused: tuple[Defused, ...] = ()
    """What was disabled in the git directories among them: hooks renamed aside, config keys
    naming a program removed (git would have run them outside the sandbox)."""
    sandbox: SandboxPolicy | None = None
    """The sandbox the command ran in; `None` when it ran unsandboxed."""
    sandbox_problem: str | None = None
    """Why it ran unsandboxed although the session is sandboxed (the sandbox cannot start)."""
    background: str | None = None
    """The job id (`shell-N`) of a command started in the background: it may still run."""
    moved: bool = False
    """The person moved the command to the background while it ran (Ctrl+B)."""


def _blocked_hint(value: BashValue) -> str | None:
    """Tells the model the sandbox may be why a failed command failed, and how to ask."""
    sandbox = value.sandbox
    if sandbox is None or value.exit_code == 0 or value.stopped is not None:
        return None
    text = value.model.text()
    files = any(s in text for s in _BLOCKED_FILES)
    network = not sandbox.allow_network and any(s in text for s in _BLOCKED_NETWORK)
    if not files and not network:
        return None
    writable = (
        "nothing is writable but /tmp"
        if sandbox.mode == "read-only"
        else ("only the workspace and /tmp are writable")
    )
    offline = "" if sandbox.allow_network else " and the network is off"
    return (
        f"The sandbox may have blocked this ({sandbox.label()}: {writable}{offline}). If the"
        " command really needs more, call bash again with `unsandboxed: true`; the person will"
        " be asked to allow it."
    )


def _names(members: tuple[Member, ...]) -> str:
    """`12 sleep 5; 13 sleep 6`, the first few, then how many more."""
    names = "; ".join(m.describe() for m in members[:_LEFTOVERS_SHOWN])
    more = len(members) - _LEFTOVERS_SHOWN
    if more > 0:
        names += f"; and {more} more"
    return names


def _disabled(defused: tuple[Defused, ...]) -> str:
    """`A (renamed to A.disabled); core.fsmonitor in C`, the first few, then how many more."""
    text = "; ".join(d.describe() for d in defused[:_LEFTOVERS_SHOWN])
    more = len(defused) - _LEFTOVERS_SHOWN
    return f"{text}; and {more} more" if more > 0 else text


def _notes(value: BashValue) -> str:
    lines = []
    if value.sandbox_problem is not None:
        lines.append(
            f"The sandbox cannot start ({value.sandbox_problem}); the command ran unsandboxed."
        )
    if value.stopped == "timeout":
        lines.append(f"Command timed out after {value.timeout_ms} ms.")
    elif value.stopped == "cancelled":
        lines.append("Command was cancelled.")
    if value.leftovers:
        lines.append(
            "Background processes were still running when the command ended and were stopped"
            f" (SIGTERM, then SIGKILL after {KILL_GRACE_SECONDS:g} s): {_names(value.leftovers)}"
        )
    for hit in value.limits:
        if note := limit_note(hit.meta()):
            lines.append(f"{note}.")
    if value.survivors:
        lines.append(
            f"Still running {KILL_WAIT_SECONDS:g} s after SIGKILL (the kernel had not finished"
            f" with them): {_names(value.survivors)}"
        )
    if value.created_protected:
        lines.append(
            f"Appeared while the command ran: {', '.join(value.created_protected)}. The sandbox"
            " keeps these read-only only once they exist; what was written there (git hooks"
            " and config, tool settings) runs with the person's rights outside the sandbox"
            " and should be reviewed before use."
        )
    if value.defused:
        lines.append(f"{DISABLED_NOTE}: {_disabled(value.defused)}.")
    if value.detached:
        lines.append(
            "Background processes still held the output open when the shell exited;"
            " their later output is not captured."
        )
    if value.background is not None and value.signal is None and value.exit_code is None:
        moved = "The user moved the command to the background while it ran: it is r" * value.moved
        lines.append(
            f"{moved or 'R'}unning in the background as {value.background}. Read what it "
            "prints next with "
            f'bash_output {{"id": "{value.background}"}}; stop it with kill_shell.'
        )
    elif value.signal is not None:
        lines.append(f"Terminated by signal {value.signal}")
    else:
        lines.append(f"Exit code: {value.exit_code}")
    if value.background is not None and (value.signal or value.exit_code is not None):
        lines.append(f"(It was started in the background as {value.background} and has ended.)")
    if hint := _blocked_hint(value):
        lines.append(hint)
    return "\n".join(lines)


def collapse_redraws(text: str) -> str:
    """Each line as a terminal would leave it: what follows its last carriage return.

    Progress bars redraw one line with `\r` many times; the model needs only the last state.
    A `\r` that ends a line (CRLF) is just dropped.
    """
    if "\r" not in text:
        return text
    return "\n".join(line.rstrip("\r").rsplit("\r", 1)[-1] for line in text.split("\n"))


def model_text(value: BashValue) -> str:
    """The output without escape sequences, cut to fit with the notes in the model's limit."""
    notes = _notes(value)
    if value.model.total == 0:
        return f"{NO_OUTPUT}\n{notes}"
    # The marker's length depends on the count it states, which is at most the total.
    room = MODEL_TEXT_LIMIT - len(notes) - 1 - len(cut_marker(value.model.total))
    body = collapse_redraws(value.model.fit(room).text())
    separator = "" if body.endswith("\n") else "\n"
    return f"{body}{separator}{notes}"


def card_meta(value: BashValue) -> JsonValue:
    """The plain-JSON projection stored with the result, from which the card is drawn."""
    # The stored meta as a whole has a size limit; a long command leaves less for the output.
    room = MAX_META_BYTES - 1024 - len(json.dumps(value.command)) - len(json.dumps(value.cwd))
    meta: dict[str, JsonValue] = {
        "command": value.command,
        "cwd": value.cwd,
        "output": _fit_json(value.card, max(0, min(MAX_CARD_OUTPUT_BYTES, room))),
    }
    if value.signal is not None:
        meta["signal"] = value.signal
    elif value.background is None or value.exit_code is not None:
        meta["exitCode"] = value.exit_code
    if value.background is not None:
        meta["background"] = value.background
    if value.stopped == "timeout":
        meta["timedOut"] = True
    elif value.stopped == "cancelled":
        meta["cancelled"] = True
    if value.leftovers:
        meta["stoppedProcesses"] = [
            {"pid": m.pid, "command": m.command} for m in value.leftovers[:_LEFTOVERS_SHOWN]
        ]
    if value.limits:
        meta["limitsHit"] = [hit.meta() for hit in value.limits]
    if value.created_protected:
        meta["createdProtected"] = list(value.created_protected)
    if value.defused:
        meta["disabledOnCreate"] = [d.meta() for d in value.defused[:_LEFTOVERS_SHOWN]]
        if len(value.defused) > _LEFTOVERS_SHOWN:
            meta["disabledOnCreateMore"] = len(value.defused) - _LEFTOVERS_SHOWN
    if value.survivors:
        meta["survivingProcesses"] = [
            {"pid": m.pid, "command": m.command} for m in value.survivors[:_LEFTOVERS_SHOWN]
        ]
    return meta


def card_output(clipped: Clipped) -> str:
    """A command's output as its stored card keeps it (within the card's size)."""
    return _fit_json(clipped, MAX_CARD_OUTPUT_BYTES)


def _fit_json(clipped: Clipped, limit: int) -> str:
    """The clipped text, cut further until its JSON form fits in `limit` bytes.

    Escape sequences and non-ASCII text take up to twelve bytes a character in JSON, so a
    character bound alone does not bound the stored size.
    """
    for _ in range(16):
        text = clipped.text()
        size = len(json.dumps(text))
        if size <= limit:
            return text
        kept = len(clipped.head) + len(clipped.tail)
        clipped = clipped.fit(int(kept * limit / size * 0.9))
    return clipped.fit(0).text()
