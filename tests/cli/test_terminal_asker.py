"""`tether run`'s question at the terminal: the keys it offers are the question's own, typed
as a letter or a word (`tether.policy.asker.DECISION_KEYS`)."""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path

from rich.console import Console

from tether.cli.asker import TerminalAsker
from tether.policy import PermissionChoice, PermissionQuestion
from tether.tools import CommandAccess


def _question(*decisions: str) -> PermissionQuestion:
    names = {"allow_once": "Allow", "allow_always": "Always", "allow_project": "Project"}
    options = tuple(
        PermissionChoice(d, names.get(d, "Reject"))  # type: ignore[arg-type]
        for d in decisions
    )
    return PermissionQuestion(CommandAccess(command="make"), options, "the mode is ask")


async def _answer(question: PermissionQuestion, *lines: str) -> tuple[str, str]:
    """Type each line once the prompt has been shown for it, as a person would; then end the
    input."""
    read, write = os.pipe()
    out = io.StringIO()
    asking = asyncio.create_task(TerminalAsker(Console(file=out, width=200), read).ask(question))
    try:
        for shown, line in enumerate(lines, start=1):
            while out.getvalue().count(": ") < shown and not asking.done():
                await asyncio.sleep(0.01)
            os.write(write, line.encode())
        os.close(write)
        write = -1
        decision = await asyncio.wait_for(asking, 10)
    finally:
        if write != -1:
            os.close(write)
        os.close(read)
    return decision, out.getvalue()


async def test_every_decision_is_offered_by_its_letter(tmp_path: Path) -> None:
    question = _question("allow_once", "allow_always", "allow_project", "reject")
    decision, shown = await _answer(question, "project\n")
    assert decision == "allow_project"
    assert "[y]es once, [a]lways, [p]roject, [n]o: " in shown
    assert (await _answer(question, "A\n"))[0] == "allow_always"


async def test_only_the_offered_keys_are_shown(tmp_path: Path) -> None:
    """A question without "always" (an unsandboxed hook whose files changed) does not offer it."""
    question = _question("allow_once", "reject")
    decision, shown = await _answer(question, "a\n", "yes\n")
    assert decision == "allow_once"
    assert shown.count("[y]es once, [n]o: ") == 2  # `a` is not an answer here: asked again
    assert "[a]lways" not in shown
    assert (await _answer(question))[0] == "reject"  # end of input
