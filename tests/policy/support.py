"""Shared by the tests that ask a person: one who answers from a list."""

from __future__ import annotations

from tether.policy import PermissionAnswer, PermissionQuestion

__all__ = ["Asker"]


class Asker:
    """A person who answers from a list and remembers what was asked."""

    def __init__(self, *answers: PermissionAnswer) -> None:
        self.answers = list(answers)
        self.requests: list[PermissionQuestion] = []

    async def ask(self, request: PermissionQuestion) -> PermissionAnswer:
        """The next answer."""
        self.requests.append(request)
        return self.answers.pop(0)
