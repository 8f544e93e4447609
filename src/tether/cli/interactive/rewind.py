"""`/rewind`, `/undo`, `/redo` and `/fork` in the interactive terminal.

`/rewind` opens a picker of the session's prompts (newest first, with the files each changed
and their `+N -M` lines), then asks what to restore: code and conversation (the files, and
the conversation continues from before that prompt in a fork, its text back in the input),
the conversation only (a fork), or the code only. A file someone else changed too is shown
with its diff and asked about: keep mine (the default) or take the checkpoint's version.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, assert_never

from rich.text import Text

from tether.cli.interactive.picker import Choice, Picker
from tether.commands import CheckpointCommand
from tether.session import Conflict, PromptChanges, RestorePlan, SessionError
from tether.session.rewind.plan import counted

if TYPE_CHECKING:
    from tether.cli.interactive.conversation import Conversation

__all__ = ["WHAT", "checkpoint_command"]

What = Literal["both", "conversation", "code"]

WHAT: tuple[tuple[What, str, str], ...] = (
    ("both", "Code and conversation", "restore the files and continue from before it"),
    ("conversation", "Conversation only", "continue from before it; the files stay"),
    ("code", "Code only", "restore the files; the conversation stays"),
)
"""What a rewind may restore, as the picker offers it."""


async def checkpoint_command(conversation: Conversation, command: CheckpointCommand) -> None:
    """Run one checkpoint command against the conversation's session."""
    session = conversation.session
    if session is None:
        conversation.notice(f"/{command.action}: no session yet, nothing to go back to")
        return
    try:
        match command.action:
            case "rewind":
                await _rewind(conversation, command.prompt)
            case "undo":
                await _restore(conversation, await session.rewind.plan_undo())
            case "redo":
                await _restore(conversation, await session.rewind.plan_redo())
            case "fork":
                await _fork(conversation, command.prompt)
            case _:
                assert_never(command.action)
    except SessionError as exc:
        conversation.notice(f"/{command.action}: {exc}", "red")


async def _rewind(conversation: Conversation, number: int | None) -> None:
    session = conversation.session
    assert session is not None
    prompts = await session.rewind.prompts()
    if not prompts:
        conversation.notice("/rewind: no prompts yet")
        return
    if number is None:
        newest_first = list(reversed(prompts))
        picked = await conversation.front.screen.pick(
            Picker("Rewind to before which prompt?", [_prompt_choice(p) for p in newest_first]),
        )
        if picked is None:
            return
        number = newest_first[picked].number
    chosen = next((p for p in prompts if p.number == number), None)
    if chosen is None:
        conversation.notice(f"/rewind: there is no prompt {number}", "red")
        return
    what = await conversation.front.screen.pick(
        Picker(
            f"Rewind to before prompt {number}: {chosen.text}",
            [Choice(label, detail=detail) for _, label, detail in WHAT],
        ),
    )
    if what is None:
        return
    match WHAT[what][0]:
        case "code":
            await _restore(conversation, await session.rewind.plan_rewind(number))
        case "conversation":
            await _fork(conversation, number, chosen.text)
        case "both":
            await _restore(conversation, await session.rewind.plan_rewind(number))
            await _fork(conversation, number, chosen.text)


async def _restore(conversation: Conversation, plan: RestorePlan) -> None:
    session = conversation.session
    assert session is not None
    take = await _ask(conversation, plan.conflicts)
    notice = await session.rewind.restore(plan, take)
    conversation.printer(notice)
    conversation.printer.close()


async def _fork(conversation: Conversation, number: int | None, text: str = "") -> None:
    """Continue here in a fork of the session (before prompt `number`), its text in the input."""
    session = conversation.session
    assert session is not None
    work = conversation.work
    forked = work.store.fork(session.id, number)
    forked.close()
    original = session.id
    await conversation.end_session()
    config = work.config(conversation.asker, conversation.mode, conversation.model)
    conversation.adopt(work.open(forked.header.id, config))
    where = f"before prompt {number}" if number else "as it was"
    conversation.notice(f"forked {original} {where}; it stays as it is: tether --resume {original}")
    if text:
        conversation.front.screen.input.text = text


async def _ask(conversation: Conversation, conflicts: Sequence[Conflict]) -> set[str]:
    take: set[str] = set()
    for conflict in conflicts:
        conversation.say(Text(f"{conflict.path}: {conflict.reason}", style="yellow"))
        if conflict.diff:
            diff = Text()
            for line in conflict.diff.splitlines():
                style = "red" if line.startswith("-") else "green" if line.startswith("+") else ""
                diff.append(f"  {line}\n", style=style)
            conversation.say(diff)
        if conflict.take is None:
            conversation.notice("  kept as it is")
            continue
        choices = [Choice("Keep mine"), Choice("Take the checkpoint's version")]
        picked = await conversation.front.screen.pick(Picker(f"Restore {conflict.path}?", choices))
        if picked == 1:
            take.add(conflict.path)
    return take


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
