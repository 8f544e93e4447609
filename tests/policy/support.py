"""Shared by the tests that ask a person: one who answers from a list (doing something while
they think, if told), and one who gives the same answer every time."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from tether.policy import PermissionAnswer, PermissionQuestion

__all__ = ["Always", "Asker"]


class Asker:
    """A person who answers from a list and remembers what was asked; `during` runs on each
    question before the answer (a file changed while the person reads the question)."""

    def __init__(
        self,
        *answers: PermissionAnswer,
        during: Callable[[PermissionQuestion], Awaitable[None] | None] | None = None,
    ) -> None:
        self.answers = list(answers)
        self.requests: list[PermissionQuestion] = []
        self.during = during

    async def ask(self, request: PermissionQuestion) -> PermissionAnswer:
        """The next answer."""
        self.requests.append(request)
        if self.during is not None:
            pending = self.during(request)
            if pending is not None:
                await pending
        return self.answers.pop(0)


class Always:
    """A person who gives `answer` to every question and remembers what was asked."""

    def __init__(self, answer: PermissionAnswer = "allow_once") -> None:
        self.answer = answer
        self.requests: list[PermissionQuestion] = []

    async def ask(self, request: PermissionQuestion) -> PermissionAnswer:
        """The same answer."""
        self.requests.append(request)
        return self.answer
