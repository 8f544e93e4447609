"""Asking the person at the terminal: allow once (y), always (a), for the project (p), or
reject (n)."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from tether.policy import PermissionQuestion, WorkspaceTrust
from tether.tools.access import PermissionDecision

__all__ = ["TerminalAsker"]

_ANSWERS: dict[str, PermissionDecision] = {
    "y": "allow_once",
    "yes": "allow_once",
    "a": "allow_always",
    "always": "allow_always",
    "p": "allow_project",
    "project": "allow_project",
    "n": "reject",
    "no": "reject",
}


_KEYS: dict[PermissionDecision, str] = {
    "allow_once": "y",
    "allow_always": "a",
    "allow_project": "p",
    "reject": "n",
}


class TerminalAsker:
    """Asks one question at a time on the terminal (parallel calls wait their turn)."""

    def __init__(
        self,
        console: Console,
        stdin_fd: int | None = None,
        *,
        before: Callable[[PermissionQuestion], None] | None = None,
    ) -> None:
        self.console = console
        self.stdin_fd = sys.stdin.fileno() if stdin_fd is None else stdin_fd
        self.before = before
        """Called before each question: shows the card of what would happen."""
        self._lock = asyncio.Lock()

    async def ask(self, request: PermissionQuestion) -> PermissionDecision:
        """Ask until the answer is one offered (y, a, p, n); end of input rejects."""
        async with self._lock:
            if self.before is not None:
                self.before(request)
            question = f"[bold]Allow {escape(request.title)}?[/] ({escape(request.reason)})"
            self.console.print(question)
            offered = {option.decision: option for option in request.options}
            project = offered.get("allow_project")
            if project is not None:
                self.console.print(f"  p: {escape(project.name)}")
            keys = "\\[y]es once, \\[a]lways, " + ("\\[p]roject, " if project else "") + "\\[n]o"
            if isinstance(request.subject, WorkspaceTrust):
                for item in request.subject.withheld:
                    self.console.print(f"  - {escape(item)}", markup=True)
                keys = ", ".join(
                    f"\\[{_KEYS[o.decision]}] {escape(o.name.lower())}" for o in request.options
                )
            while True:
                self.console.print(f"{keys}: ", end="")
                answer = await self._read_line()
                if answer is None:
                    self.console.print()
                    return "reject"
                decision = _ANSWERS.get(answer.strip().lower())
                if decision is not None and decision in offered:
                    return decision

    async def _read_line(self) -> str | None:
        # Wait on the descriptor, not in a thread: a cancelled prompt must not leave a
        # blocked `input()` behind that keeps the process alive until Enter is pressed.
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[bytes] = loop.create_future()

        def read() -> None:
            if not ready.done():
                ready.set_result(os.read(self.stdin_fd, 4096))

        loop.add_reader(self.stdin_fd, read)
        try:
            data = await ready
        finally:
            loop.remove_reader(self.stdin_fd)
        return data.decode(errors="replace") if data else None
