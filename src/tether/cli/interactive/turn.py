"""One turn of the interactive session: a prompt sent with the files it mentions and the
person's `!` commands, or a `!` command run in the session's sandbox.

A prompt runs while the screen stays live; Esc cancels it the way ACP's `session/cancel`
does (tools stop, the log records it, the session stays usable). A model or network error
is printed and the session waits for the next prompt.
"""

from __future__ import annotations

import asyncio

from rich.text import Text

from tether.cli.interactive.conversation import Conversation
from tether.cli.mcp import CliMcp
from tether.cli.model_args import missing_key
from tether.content import ContentBlock, TextContent
from tether.errors import PromptFailed, SessionError
from tether.models.retry import retry_notices
from tether.session import Session
from tether.session.commanded import CommandFile, CommandPrompt, prepare_command
from tether.session.log.shown import ShownBlock
from tether.session.mentions import attachments
from tether.session.shell import run_shell

__all__ = ["run_bang", "send_prompt"]


async def send_prompt(
    conversation: Conversation,
    text: str,
    typed: str | None = None,
    command: CommandFile | None = None,
) -> None:
    """Send a prompt (with the files it mentions and the person's `!` commands); a slash
    command's file (`command`) first runs its `` !`cmd` `` lines, each with its card."""
    if (missing := missing_key(conversation.model)) is not None:
        # Nothing is sent or logged without a key: the prompt goes back into the box.
        conversation.notice(f"{missing}, or /login", "red")
        conversation.front.keep(typed if typed is not None else text)
        return
    try:
        session = conversation.current()
    except SessionError as exc:
        conversation.notice(f"error: {exc}", "red")
        return
    runs, conversation.shell_runs = conversation.shell_runs, []
    prepared = CommandPrompt([TextContent(text=text)])
    if command is not None:
        conversation.shell_cancel = asyncio.Event()
        try:
            prepared = await prepare_command(
                session, text, command, conversation.emit, conversation.shell_cancel
            )
            if conversation.shell_cancel.is_set():
                conversation.notice("cancelled", "red")
                return
        finally:
            conversation.shell_cancel = None
            conversation.printer.close()
        for warning in prepared.warnings:
            conversation.notice(f"warning: {warning}", "yellow")
    mentioned = attachments(text, session.workspace) if command is None else []
    content: list[ContentBlock] = [*(r.for_model for r in runs), *prepared.content]
    content.extend(mentioned)
    shown: list[ShownBlock] | None = None
    if runs or mentioned or typed is not None or command is not None:
        shown = [TextContent(text=f"!{r.command}") for r in runs]
        shown.append(TextContent(text=typed if typed is not None else text))
    await _start_servers(conversation, session)
    if session.events:
        conversation.say(Text(""))  # a blank line between one turn and the next
    # Each retry of a failing request says so on the spinner line.
    retry_notices.set(lambda notice: conversation.printer.status.show(notice.text))
    try:
        await session.prompt(
            content, conversation.emit, shown=shown, grants=prepared.grants, model=prepared.model
        )
    except PromptFailed:
        pass  # the printer has shown the error; the session waits for the next prompt
    except SessionError as exc:
        conversation.notice(f"error: {exc}", "red")
    finally:
        conversation.printer.close()


async def run_bang(conversation: Conversation, command: str) -> None:
    """`!command`: run it in the session's sandbox, its card in the scrollback; the model
    sees it with the next prompt."""
    try:
        session = conversation.current()
    except SessionError as exc:
        conversation.notice(f"error: {exc}", "red")
        return
    conversation.shell_cancel = asyncio.Event()
    try:
        ran = await run_shell(
            session, command, conversation.emit, conversation.shell_cancel, typed=True
        )
    finally:
        conversation.shell_cancel = None
        conversation.printer.close()
    if ran is None:
        conversation.notice("this session has no bash tool", "red")
    else:
        conversation.shell_runs.append(ran)


async def _start_servers(conversation: Conversation, session: Session) -> None:
    """The MCP servers, once per session, with its first prompt."""
    if conversation.servers_started:
        return
    conversation.servers_started = True
    work = conversation.work
    mcp = CliMcp(home=work.store.root, asker=conversation.asker, err=conversation.console)
    conversation.servers = await mcp.start(session)
