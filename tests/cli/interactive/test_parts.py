"""The interactive terminal's parts that need no terminal: the status bar, ranking paths,
collapsed pastes, pickers, completion, mentions, ages and usage."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import to_plain_text

from tether.cli.interactive.completion import CommandEntry, PromptCompleter
from tether.cli.interactive.paste import COLLAPSE_LINES, Pastes
from tether.cli.interactive.paths import FileIndex, rank
from tether.cli.interactive.picker import Choice, Picked, Picker
from tether.cli.interactive.sessions import age
from tether.cli.interactive.statusbar import StatusFacts, budget_level, short_cwd, status_fragments
from tether.cli.interactive.usage import usage_by_model
from tether.session.log.events import SessionConfigEvent, UsageEvent
from tether.session.mentions import MAX_ATTACHED, attachments
from tether.tools.workspace import Workspace


@pytest.mark.parametrize("width", [60, 80, 120, 160, 250])
def test_the_status_bar_fits_and_keeps_the_mode_and_the_budget(width: int) -> None:
    facts = StatusFacts(
        cwd=Path("/srv/projects/a-rather-long-name/services/payments"),
        mode="auto",
        model="deepseek-chat",
        sandbox="workspace-write",
        budget="37% of 128k",
        level="amber",
        threshold="compacts at 80%",
        note="press Ctrl+C again to exit",
    )
    fragments = status_fragments(facts, width)
    text = to_plain_text(fragments)
    assert len(text) <= width
    assert " auto " in text and "press Ctrl+C again" in text
    assert ("class:mode.auto", " auto ") in fragments
    if width >= 80:
        assert "37% of 128k" in text and "deepseek-chat" in text
    if width >= 160:
        assert "compacts at 80%" in text and "workspace-write" in text and "…/" in text


def test_the_budget_turns_amber_then_red_past_the_threshold() -> None:
    assert budget_level(59, 100, 0.8) == "ok"
    assert budget_level(61, 100, 0.8) == "amber"
    assert budget_level(81, 100, 0.8) == "red"
    assert budget_level(0, 0, 0.8) == "ok"


def test_the_workspace_is_said_from_home_and_cut_from_the_left() -> None:
    home = Path(os.path.expanduser("~"))
    assert short_cwd(home / "src" / "app") == "~/src/app"
    cut = short_cwd(Path("/a/very/long/path/that/does/not/fit/in/thirty/two/columns"))
    assert cut.startswith("…/") and cut.endswith("/columns") and len(cut) <= 32


def test_paths_rank_by_name_then_anywhere_then_in_order() -> None:
    paths = ["src/", "src/greet.py", "docs/greeting.md", "tests/test_greet.py", "g/r/e/t.txt"]
    assert rank(paths, "greet", 10) == ["src/greet.py", "docs/greeting.md", "tests/test_greet.py"]
    assert rank(paths, "grt", 10)[0] == "g/r/e/t.txt"  # in order only: the shortest first
    assert rank(paths, "", 2) == ["src/", "src/greet.py"]
    assert rank(paths, "zzz", 10) == []


async def test_the_file_index_lists_what_ripgrep_lists(ws: Path) -> None:
    (ws / "src").mkdir()
    (ws / "src" / "a.py").write_text("")
    (ws / "skip.log").write_text("")
    (ws / ".gitignore").write_text("*.log\n")
    index = FileIndex(ws)
    assert index.stale
    await index.refresh()
    assert not index.stale
    assert "src/" in index.paths and "src/a.py" in index.paths
    assert "skip.log" not in index.paths and index.matches("a") == ["src/a.py"]


def test_a_long_paste_is_one_token_sent_whole() -> None:
    pastes = Pastes()
    short = "one\ntwo"
    assert pastes.insertion(short) == short
    long = "\r\n".join(f"line {n}" for n in range(COLLAPSE_LINES + 5))
    token = pastes.insertion(long)
    assert token == f"[Pasted text #1 +{COLLAPSE_LINES + 5} lines]"
    wide = pastes.insertion("x" * 1500)
    assert wide == "[Pasted text #2 1500 characters]"
    sent = pastes.expand(f"look at {token} and {wide}")
    assert sent == f"look at {long.replace(chr(13), '')} and {'x' * 1500}"
    assert pastes.expand("[Pasted text #1 +13 line]") == "[Pasted text #1 +13 line]"


async def test_a_picker_moves_wraps_chooses_and_asks_for_text() -> None:
    picker = Picker("Allow?", [Choice("Yes"), Choice("No", asks="Why not?")], note="reason")
    picker.move(-1)
    assert picker.selected == 1
    picker.move(1)
    assert picker.selected == 0
    picker.choose(1)
    assert picker.asking == 1 and not picker.result.done()
    assert "Why not?" in to_plain_text(picker.fragments(60))
    assert picker.back() and picker.asking is None
    picker.choose(1)
    picker.text.text = "  use the other file  "
    picker.choose()
    assert picker.result.result() == Picked(1, "use the other file")
    dismissed = Picker("Which?", [Choice(f"item {n}") for n in range(30)], selected=25)
    drawn = to_plain_text(dismissed.fragments(40))
    assert "❯    item 25" in drawn and "item 0" not in drawn
    dismissed.dismiss_now()
    assert dismissed.result.result() is None


async def test_a_question_is_guarded_until_drawn_and_a_picker_without_a_guard_never() -> None:
    question = Picker("Allow?", [Choice("Yes"), Choice("No")], guard=0.05)
    await asyncio.sleep(0.1)  # longer than its guard, but not drawn yet
    assert question.guarded() and "waiting for you" in to_plain_text(question.fragments(80))
    question.shown()
    # Guarded once drawn: looked at with a guard no pause of a loaded machine between the draw
    # and the look outlasts (this question's 50 ms one can pass between two statements there).
    drawn = Picker("Allow?", [Choice("Yes"), Choice("No")], guard=60.0)
    drawn.shown()
    assert drawn.guarded() and "waiting for you" in to_plain_text(drawn.fragments(80))
    await asyncio.sleep(0.1)
    assert not question.guarded() and "enter to choose" in to_plain_text(question.fragments(80))
    question.shown()  # a later draw does not start the guard again
    assert not question.guarded()
    plain = Picker("Which?", [Choice("a"), Choice("b")])
    assert not plain.guarded()


def test_completion_lists_commands_after_a_slash_and_paths_after_an_at(ws: Path) -> None:
    completer = PromptCompleter()
    completer.commands = [
        CommandEntry("help", "Keys and commands"),
        CommandEntry("compact", "Summarize", hint="focus"),
        CommandEntry("clear", "A new session"),
    ]

    def names(text: str) -> list[str]:
        found = completer.get_completions(Document(text), CompleteEvent())
        return [c.text for c in found]

    assert names("/c") == ["/compact", "/clear"]
    assert names("/le") == ["/clear"]
    assert names("/help me") == [] and names("not /c") == []
    (ws / "src").mkdir()
    (ws / "src" / "greet.py").write_text("")
    index = FileIndex(ws)

    async def listed() -> None:
        await index.refresh()

    asyncio.run(listed())
    completer.files = index
    assert names("look at @gre") == ["@src/greet.py "]
    assert names("@sr") == ["@src/", "@src/greet.py "]
    assert names("mail@sr") == []


def test_mentions_attach_readable_workspace_files_once(ws: Path, tmp_path: Path) -> None:
    (ws / "a.py").write_text("print(1)\n")
    (ws / "blob.bin").write_bytes(b"\x00\x01")
    (ws / "big.txt").write_text("x" * (MAX_ATTACHED + 1))
    (ws / "dir").mkdir()
    outside = tmp_path / "secret.txt"
    outside.write_text("no")
    prompt = f"see @a.py, @a.py @blob.bin @big.txt @dir @{outside} @../secret.txt and a@b.py"
    blocks = attachments(prompt, Workspace.at(ws))
    assert [b.text for b in blocks] == [
        f'<context ref="{(ws / "a.py").as_uri()}">\nprint(1)\n</context>'
    ]


def test_ages_as_people_say_them() -> None:
    from datetime import UTC, datetime, timedelta

    now = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
    assert age((now - timedelta(seconds=5)).isoformat(), now) == "just now"
    assert age((now - timedelta(minutes=5)).isoformat(), now) == "5m ago"
    assert age((now - timedelta(hours=3)).isoformat(), now) == "3h ago"
    assert age((now - timedelta(days=2)).isoformat(), now) == "2d ago"
    assert age("not a time", now) == "not a time"


def test_usage_is_counted_per_model_in_the_order_used() -> None:
    events = [
        UsageEvent(input_tokens=100, output_tokens=10, cached_read_tokens=50),
        SessionConfigEvent(config_id="model", value="openai:deepseek-reasoner"),
        UsageEvent(input_tokens=200, output_tokens=20),
        UsageEvent(input_tokens=300, output_tokens=30, cached_write_tokens=7),
    ]
    rows = usage_by_model(events, "openai:deepseek-chat")
    assert [(r.model, r.requests, r.input_tokens, r.output_tokens) for r in rows] == [
        ("openai:deepseek-chat", 1, 100, 10),
        ("openai:deepseek-reasoner", 2, 500, 50),
    ]
    assert rows[0].cached_read_tokens == 50 and rows[1].cached_write_tokens == 7
