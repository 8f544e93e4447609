"""An ACP prompt as a surface of `tether.surface.dispatch`: listings and notices as the
agent's message, no pickers (`/mode` needs its name), the mode told through
`current_mode_update` and the config options, and the answer to `session/prompt`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from acp import update_agent_message_text
from acp.schema import PromptResponse, TextContentBlock

from tether.acp import rewinding
from tether.acp.context import AgentContext, OpenSession
from tether.acp.prompt import PromptBlock
from tether.acp.switches import set_mode
from tether.commands import CheckpointCommand, PromptText, TerminalCommand
from tether.policy import PolicyMode
from tether.session import Session
from tether.surface.dispatch import Option

__all__ = ["AcpSurface"]


class AcpSurface:
    """What dispatching one `session/prompt` does; `turn` runs a prompt through the model."""

    def __init__(
        self,
        ctx: AgentContext,
        opened: OpenSession,
        blocks: Sequence[PromptBlock],
        turn: Callable[[PromptText], Awaitable[PromptResponse]],
    ) -> None:
        self.ctx = ctx
        self.opened = opened
        self.blocks = blocks
        self._turn = turn

    @property
    def mode(self) -> PolicyMode:
        """The session's mode."""
        return self.opened.session.gate.mode

    def session(self) -> Session:
        """The open session prompted."""
        return self.opened.session

    def say(self, text: str) -> None:
        """As the agent's message, in a text block that keeps its columns."""
        self.ctx.post_acp(self.opened, update_agent_message_text(f"```text\n{text}\n```\n"))

    def notice(self, text: str) -> None:
        """As a line of the agent's message."""
        self.ctx.post_acp(self.opened, update_agent_message_text(f"{text}\n"))

    async def pick(self, title: str, options: Sequence[Option], selected: int = 0) -> int | None:
        """A client has no picker to offer: nothing is picked."""
        return None

    def set_mode(self, mode: PolicyMode) -> None:
        """Switch it and tell the client (`current_mode_update`, the config options)."""
        set_mode(self.ctx, self.opened, mode)

    async def done(self) -> PromptResponse:
        """Once what the command posted is on the wire: the turn ended."""
        await self.ctx.flush()
        return PromptResponse(stop_reason="end_turn")

    async def prompt(self, meant: PromptText) -> PromptResponse:
        """The model's turn."""
        return await self._turn(meant)

    async def checkpoint(self, command: CheckpointCommand) -> PromptResponse:
        """Done by the session; conflicts asked with `session/request_permission`."""
        first = self.blocks[0]
        assert isinstance(first, TextContentBlock)  # a command is always typed text
        return await rewinding.checkpoint_command(self.ctx, self.opened, command, first.text)

    async def terminal(self, command: TerminalCommand) -> PromptResponse:
        """The interactive terminal's own commands are not offered over ACP."""
        self.notice(f"/{command.name} is a command of tether's interactive terminal")
        return await self.done()
