"""`/rewind`, `/undo`, `/redo` and `/fork` in the interactive terminal.

`/rewind` opens a picker of the session's prompts (newest first, with the files each changed
and their `+N -M` lines), then asks what to restore: code and conversation (the files, and
the conversation continues from before that prompt in a fork, its text back in the input),
the conversation only (a fork), or the code only. A file someone else changed too is shown
with its diff and asked about: keep mine (the default) or take the checkpoint's version.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, assert_never

from rich.text import Text

from tether.cli.interactive.picker import Choice, Picker
from tether.cli.rewinding import conflict_diff
from tether.commands import CheckpointCommand
from tether.errors import RewindError, SessionError
from tether.session import Conflict, PromptChanges, Session
from tether.session.rewind.conflicts import KEEP, KEPT, TAKE
from tether.session.rewind.plan import counted
from tether.session.rewind.rewinder import Forked, Listing, Restored

if TYPE_CHECKING:
    from tether.cli.interactive.conversation import Conversation

__all__ = ["WHAT", "ScreenConflicts", "checkpoint_command"]

What = Literal["both", "conversation", "code"]

WHAT: tuple[tuple[What, str, str], ...] = (
    ("both", "Code and conversation", "restore the files and continue from before it"),
    ("conversation", "Conversation only", "continue from before it; the files stay"),
    ("code", "Code only", "restore the files; the conversation stays"),
)
"""What a rewind may restore, as the picker offers it."""


async def checkpoint_command(
    conversation: Conversation, command: CheckpointCommand, typed: str
) -> None:
    """Run one checkpoint command against the conversation's session.

    What it did goes into the log as the command that does it (`/rewind 2` for a prompt
    picked from `/rewind`'s list, `/fork 2` for its conversation), with tether's answer, as
    ACP and `tether run` log theirs: `tether show` and a client's `session/load` show it.
    """
    session = conversation.session
    if session is None:
        conversation.notice(f"/{command.action}: no session yet, nothing to go back to")
        return
    try:
        if command.action == "rewind":
            await _rewind(conversation, session, command.prompt)
        else:
            asker = ScreenConflicts(conversation)
            done = await session.rewind.run(command, asker, typed=typed)
            await _done(conversation, session, done, typed)
    except RewindError as exc:
        if conversation.session is session:
            session.rewind.answer(typed, f"Cannot {command.action}: {exc}\n")
        conversation.notice(f"/{command.action}: {exc}", "red")
    except SessionError as exc:
        conversation.notice(f"/{command.action}: {exc}", "red")


async def _rewind(conversation: Conversation, session: Session, number: int | None) -> None:
    listing = await session.rewind.run(CheckpointCommand("rewind"), ScreenConflicts(conversation))
    assert isinstance(listing, Listing)
    prompts = listing.prompts
    if not prompts:
        conversation.notice("/rewind: no prompts yet")
        return
    if number is None:
        newest_first = list(reversed(prompts))
        picked = await conversation.pick(
            Picker("Rewind to before which prompt?", [_prompt_choice(p) for p in newest_first])
        )
        if picked is None:
            return
        number = newest_first[picked].number
    chosen = next((p for p in prompts if p.number == number), None)
    if chosen is None:
        conversation.notice(f"/rewind: there is no prompt {number}", "red")
        return
    what = await conversation.pick(
        Picker(
            f"Rewind to before prompt {number}: {chosen.text}",
            [Choice(label, detail=detail) for _, label, detail in WHAT],
        )
    )
    if what is None:
        return
    asker = ScreenConflicts(conversation)
    what_ = WHAT[what][0]
    if what_ in ("code", "both"):
        typed = f"/rewind {number}"
        done = await session.rewind.run(CheckpointCommand("rewind", number), asker, typed=typed)
        await _done(conversation, session, done, typed)
    if what_ in ("conversation", "both"):
        done = await session.rewind.run(CheckpointCommand("fork", number), asker)
        await _done(conversation, session, done, f"/fork {number}", chosen.text)


async def _done(
    conversation: Conversation,
    session: Session,
    done: Restored | Listing | Forked,
    typed: str,
    text: str = "",
) -> None:
    """Show what a command did; after a fork, continue in it (with `text` in the input),
    its id and `typed` kept in the log of the session it came from."""
    match done:
        case Restored(notice=notice):
            conversation.printer(notice)
            conversation.printer.close()
        case Forked(session_id=forked, source_id=original, prompt=number):
            at = f"before prompt {number}" if number else "as it is now"
            said = f"Forked this session {at} as {forked}: tether --resume {forked}\n"
            session.rewind.answer(typed, said, fork=forked, prompt=number)
            await conversation.continue_in(forked, text)
            where = f"before prompt {number}" if number else "as it was"
            conversation.notice(
                f"forked {original} {where}; it stays as it is: tether --resume {original}"
            )
        case Listing():
            pass  # `/rewind` alone opens the picker instead
        case _:
            assert_never(done)


class ScreenConflicts:
    """Each conflict shown with its diff, then asked in a picker (keep mine first)."""

    def __init__(self, conversation: Conversation) -> None:
        self._conversation = conversation

    async def ask(self, conflict: Conflict) -> bool:
        """Whether the person picks the checkpoint's version."""
        self._show(conflict)
        picker = Picker(conflict.question, [Choice(KEEP), Choice(TAKE)])
        return await self._conversation.pick(picker) == 1

    def keep(self, conflict: Conflict) -> None:
        """Show a conflict that stays as it is."""
        self._show(conflict)
        self._conversation.notice(f"  {KEPT}")

    def _show(self, conflict: Conflict) -> None:
        self._conversation.say(Text(conflict.heading, style="yellow"))
        if conflict.diff:
            self._conversation.say(conflict_diff(conflict))


def _prompt_choice(prompt: PromptChanges) -> Choice:
    if not prompt.restorable:
        detail = "no checkpoint before it"
    elif not prompt.files:
        detail = "no file changes"
    else:
        detail = ", ".join(counted(f) for f in prompt.files[:4])
        if len(prompt.files) > 4:
            detail += f" and {len(prompt.files) - 4} more"
    # The picker numbers its rows (the keys); the prompt's own number goes with the detail.
    return Choice(prompt.text, detail=f"prompt {prompt.number} · {detail}")
