"""An MCP tool's cards, made from its `McpCard` and the stored result alone: the same for a live
tool (`tether.mcp.tool.McpTool`) and for a logged call whose server is not connected here
(`LoggedMcpTool`, what `logged_tool` makes from the call's record).

The call card is generic, titled `TITLE (SERVER)`, with the tool's kind; the result card is the
generic card with the answer's attachments (images, resources) when it had more than text.
Nothing here imports the SDK.
"""

from __future__ import annotations

import functools
import logging
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, JsonValue, ValidationError

from tether.content import ContentBlock
from tether.errors import ToolError
from tether.mcp.card import McpCard
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.context import ToolContext
from tether.tools.result import ToolResult
from tether.views import ATTACHMENTS, GenericCallView, GenericResultView, ToolKind

__all__ = ["LoggedMcpTool", "McpArgs", "McpPresenter", "logged_tool"]

log = logging.getLogger(__name__)

V = TypeVar("V")

_KINDS: dict[str, ToolKind] = {"read": "read", "fetch": "fetch", "other": "other"}


class McpArgs(BaseModel):
    """Any JSON object: the server validates its own arguments against its schema."""

    model_config = ConfigDict(extra="allow", defer_build=True)  # built with the first call


class McpPresenter(Tool[McpArgs, V]):
    """The presenting half of every MCP tool: its cards come from `card` alone."""

    args_model: ClassVar[type[BaseModel]] = McpArgs

    @property
    def card(self) -> McpCard:
        """The server, title and kind the cards show (and the log records with each call)."""
        raise NotImplementedError

    @property
    def card_title(self) -> str:
        """The tool's title (else its name) and its server, as its cards and questions say."""
        return self.card.heading

    def present_call(self, args: McpArgs, context: CardContext) -> GenericCallView:
        """A generic card titled by the tool, with its kind from the server's hints."""
        card = self.card
        kind = _KINDS.get(card.kind, "other")
        return GenericCallView(title=card.heading, kind=kind, raw_input=args.model_dump())

    def present_result(
        self, args: McpArgs, result: ToolResult, context: CardContext
    ) -> GenericResultView | None:
        """The generic card with the answer's attachments; `None` (the plain generic card)
        for a text-only answer, an error, or meta that does not read back."""
        meta = result.meta
        if result.is_error or not isinstance(meta, dict):
            return None
        text = meta.get("text")
        try:
            attachments = ATTACHMENTS.validate_python(meta.get("attachments"))
        except ValidationError:
            log.warning("%s: stored attachments do not read back; showing the text", self.name)
            return None
        if not isinstance(text, str):
            return None
        return GenericResultView(content=text or None, attachments=attachments or None)


class LoggedMcpTool(McpPresenter[None]):
    """A logged call's MCP tool whose server is not connected: it shows the call's cards as
    they were shown live, and cannot run (see `logged_tool`)."""

    _card: McpCard

    @property
    def card(self) -> McpCard:
        """The record logged with the call."""
        return self._card

    def unavailable(self) -> str | None:
        """Never offered: only its logged calls are shown."""
        return f"MCP server {self._card.server} is not connected"

    async def execute(self, args: McpArgs, ctx: ToolContext) -> None:
        """Refuse: the server is not connected."""
        raise ToolError(f"{self.name}: MCP server {self._card.server} is not connected")

    def render(self, args: McpArgs, value: None) -> list[ContentBlock]:
        """Nothing: it never runs."""
        return []


def logged_tool(call_id: str, name: str, record: JsonValue) -> LoggedMcpTool | None:
    """The tool that shows call `call_id` of `name` by the card logged with it; `None`, with
    a warning, when the record is not a card of that call (it then gets the generic card)."""
    card = McpCard.read(name, record)
    if isinstance(card, str):
        log.warning("call %s of %s: its logged MCP card is ignored (%s)", call_id, name, card)
        return None
    return _logged(name, card)


@functools.lru_cache(maxsize=256)
def _logged(name: str, card: McpCard) -> LoggedMcpTool:
    # One tool per name and card, as a live session has one per server tool: making a class
    # costs far more than presenting a call, and a long log calls the same few tools.
    cls: type[Any] = type(
        f"LoggedMcpTool[{name}]",
        (LoggedMcpTool,),
        {"name": name, "description": f"{card.title} from MCP server {card.server}"},
    )
    tool: LoggedMcpTool = cls()
    tool._card = card
    return tool
