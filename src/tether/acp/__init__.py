"""`tether acp`: tether's sessions over the Agent Client Protocol.

The agent (`TetherAgent`) maps session updates to ACP `session/update`s with one function
(`acp_update`), which turns cards into standard content with another (`card_content`) and
carries the card itself in `_meta.tether.view`. Each name loads its module on first use, and
the agent and its server load no part of the SDK at import, so `tether acp` answers a plain
`initialize` before the SDK and the session machinery load (`tether.acp.handover`).
"""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
    from tether.acp.agent import TetherAgent
    from tether.acp.content import card_content, console_text
    from tether.acp.mapping import acp_update
    from tether.acp.server import serve_stdio

__all__ = ["TetherAgent", "acp_update", "card_content", "console_text", "serve_stdio"]

__getattr__ = lazy_names(
    __name__,
    {
        "TetherAgent": "tether.acp.agent",
        "card_content": "tether.acp.content",
        "console_text": "tether.acp.content",
        "acp_update": "tether.acp.mapping",
        "serve_stdio": "tether.acp.server",
    },
)
