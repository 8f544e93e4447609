"""The first moments once loaded: which session to open, and the first prompt to send."""

from __future__ import annotations

import asyncio

from tether.cli.interactive.conversation import Conversation
from tether.errors import SessionError

__all__ = ["open_first"]


async def open_first(conversation: Conversation) -> tuple[int, str] | None:
    """Open what `--continue` or `--resume ID` names and queue the prompt given on the command line.

    `--resume` without an id opens the picker. Returns an exit status and a message when the
    named session cannot be opened (the session does not start then).
    """
    work = conversation.work
    args = work.args
    wanted: str | None = None
    if args.continue_last:
        wanted = work.newest_here()
        if wanted is None:
            conversation.notice("no session in this workspace yet: this is a new one")
    elif args.resume:
        wanted = args.resume
    if wanted is not None:
        try:
            config = work.config(conversation.asker, conversation.mode, conversation.model)
            conversation.adopt(work.open(wanted, config))
        except SessionError as exc:
            return 1, f"tether: error: {exc}"
    if args.resume == "":
        from tether.cli.interactive.commands import resume

        picking = asyncio.get_running_loop().create_task(resume(conversation, ""))
        conversation.task = picking
        picking.add_done_callback(lambda _task: conversation.front.next())
    if args.prompt:
        conversation.front.queue.append(args.prompt)
    return None
