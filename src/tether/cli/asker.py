"""Asking the person at the terminal: allow once (y), always (a), or reject (n)."""

from __future__ import annotations

import asyncio

from rich.console import Console
from rich.markup import escape

from tether.policy import PermissionDecision, PermissionRequest

__all__ = ["TerminalAsker"]

_ANSWERS: dict[str, PermissionDecision] = {
    "y": "allow_once",
    "yes": "allow_once",
    "a": "allow_always",
    "always": "allow_always",
    "n": "reject",
    "no": "reject",
}


class TerminalAsker:
    """Asks one question at a time on the terminal (parallel calls wait their turn)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._lock = asyncio.Lock()

    async def ask(self, request: PermissionRequest) -> PermissionDecision:
        """Ask until the answer is y, a or n (end of input rejects)."""
        async with self._lock:
            self.console.print(
                f"[bold]Allow {escape(request.title)}?[/] ({escape(request.reason)})"
            )
            while True:
                try:
                    answer = await asyncio.to_thread(input, "[y]es once, [a]lways, [n]o: ")
                except EOFError:
                    return "reject"
                decision = _ANSWERS.get(answer.strip().lower())
                if decision is not None:
                    return decision
