"""`tether acp`: tether's sessions over the Agent Client Protocol.

The agent (`TetherAgent`) maps session updates to ACP `session/update`s with one function
(`acp_update`), which turns cards into standard content with another (`card_content`) and
carries the card itself in `_meta.tether.view`.
"""

from tether.acp.agent import TetherAgent
from tether.acp.content import card_content, console_text
from tether.acp.mapping import acp_update
from tether.acp.server import serve_stdio

__all__ = ["TetherAgent", "acp_update", "card_content", "console_text", "serve_stdio"]
