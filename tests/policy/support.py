"""Shared by the tests that ask a person: one who answers from a list."""

from __future__ import annotations

from tether.policy import PermissionQuestion
from tether.tools.access import PermissionDecision

__all__ = ["Asker"]


class Asker:
    """A person who answers from a list and remembers what was asked."""

    def __init__(self, *answers: PermissionDecision) -> None:
        self.answers = list(answers)
        self.requests: list[PermissionQuestion] = []

    async def ask(self, request: PermissionQuestion) -> PermissionDecision:
        """The next answer."""
        self.requests.append(request)
        return self.answers.pop(0)
