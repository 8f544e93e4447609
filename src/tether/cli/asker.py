"""Asking the person at the terminal: allow once, always, for the project, or reject, each
typed as `tether.policy.asker.DECISION_KEYS` says (y, a, p, n)."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from tether.policy.asker import DECISION_KEYS, PermissionQuestion, WorkspaceTrust
from tether.tools.access import PermissionDecision

__all__ = ["TerminalAsker"]

_ANSWERS: dict[str, PermissionDecision] = {
    typed: decision
    for decision, words in DECISION_KEYS.items()
    for typed in (words[0], words.split()[0])
}
"""Each decision by its letter and its first word (`y`, `yes`...)."""


def _prompt(decision: PermissionDecision) -> str:
    """The decision's wording with its letter in brackets: `[y]es once`."""
    words = DECISION_KEYS[decision]
    return f"\\[{words[0]}]{words[1:]}"


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
        """Ask until the answer is one offered (`DECISION_KEYS`); end of input rejects."""
        async with self._lock:
            if self.before is not None:
                self.before(request)
            question = f"[bold]Allow {escape(request.title)}?[/] ({escape(request.reason)})"
            self.console.print(question)
            offered = {option.decision: option for option in request.options}
            project = offered.get("allow_project")
            if project is not None:
                self.console.print(f"  p: {escape(project.name)}")
            keys = ", ".join(_prompt(decision) for decision in DECISION_KEYS if decision in offered)
            if isinstance(request.subject, WorkspaceTrust):
                for item in request.subject.withheld:
                    self.console.print(f"  - {escape(item)}", markup=True)
                keys = ", ".join(
                    f"\\[{DECISION_KEYS[o.decision][0]}] {escape(o.name.lower())}"
                    for o in request.options
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
