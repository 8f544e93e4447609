"""What the interactive `tether` leaves in the scrollback: the conversation, and nothing of
the live screen (no input box, no status bar, no spinner line, no pager page), in tmux as in
a plain terminal."""

from __future__ import annotations

import asyncio
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli.support import scripted_model
from tests.cli.tmux import Tmux, needs_tmux
from tests.cli.tui import Tui
from tests.models.sse_server import Reply, SSEServer, served_in_thread, sse_reply


@pytest.fixture
def panes() -> Iterator[list[Tmux]]:
    """Every tmux server a test starts is gone after it, whatever happened."""
    opened: list[Tmux] = []
    yield opened
    for pane in opened:
        pane.close()


def _before(text: str, marker: str) -> str:
    """What the scrollback holds above the first `marker`."""
    assert marker in text, text
    return text.split(marker, 1)[0]


@needs_tmux
def test_the_first_prompt_leaves_no_input_box_at_the_top(
    tmp_path: Path, ws: Path, panes: list[Tmux]
) -> None:
    home = tmp_path / "home"
    model = scripted_model(tmp_path / "s.json", {"text": "First answer."})
    # A fresh pane: the screen starts at its top-left corner, as after `clear`.
    pane = Tmux(home, ["--model", model], cwd=ws, columns=100, rows=24)
    panes.append(pane)
    pane.wait_for("script:s.json")
    pane.line("hello")
    pane.wait_for("First answer.")
    above = _before(pane.everything, "> hello")
    assert above.strip() == "", above
    pane.press("C-d")
    pane.wait(lambda: "Resume: tether --continue" in pane.everything, "the resume line")
    # Leaving erases the live screen without pushing it into the history either.
    assert "Type a prompt" not in pane.everything


def _openai_stream(pieces: list[str]) -> tuple[bytes, ...]:
    """A chat-completions event stream of `pieces`, one event each, as providers send it."""
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "m"}
    deltas: list[dict[str, Any]] = [{"role": "assistant", "content": ""}]
    deltas += [{"content": piece} for piece in pieces]
    events = [
        {**head, "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas
    ]
    events.append({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    return (*(f"data: {json.dumps(e)}\n\n".encode() for e in events), b"data: [DONE]\n\n")


REPLY = ["The reply ", "keeps its ", "first words ", "and its last ", "ones together."]


@pytest.fixture
def pausing() -> Iterator[tuple[str, threading.Event]]:
    """An OpenAI-compatible server on loopback whose answer stops after its first words until
    the event is set; its base URL and the event."""
    loop = asyncio.new_event_loop()
    server = SSEServer()
    started = threading.Event()
    stop = asyncio.Event()
    resume = threading.Event()
    headers = {"content-type": "text/event-stream", "cache-control": "no-cache"}
    reply = Reply(headers=headers, chunks=_openai_stream(REPLY), pause_after=3, resume=resume)

    async def serve() -> None:
        async with server:
            server.answer = lambda _request: reply
            started.set()
            await stop.wait()

    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    assert started.wait(10)
    try:
        yield server.url, resume
    finally:
        resume.set()
        loop.call_soon_threadsafe(stop.set)
        thread.join(10)
        loop.close()


def test_usage_typed_during_a_stream_leaves_the_reply_whole(
    tmp_path: Path, ws: Path, tuis: list[Tui], pausing: tuple[str, threading.Event]
) -> None:
    url, resume = pausing
    home = tmp_path / "home"
    args = ["--model", "openai:m", "--base-url", f"{url}/v1", "--api-key", "k"]
    tui = Tui(home, args, cwd=ws, columns=100)
    tuis.append(tui)
    tui.wait_for("m ·")
    tui.line("hello")
    tui.wait_for("The reply keeps its")  # streaming, under the spinner line
    tui.line("/usage")
    tui.wait_in_scrollback("no usage reported yet in this session")
    resume.set()
    tui.wait(lambda: "together." in tui.everything, "the end of the reply")
    # The reply goes to the scrollback in one write: the live part erased, the text, then the
    # box drawn again. A read can end between the erase and the text, so the screen is read
    # once the box is back (the write is then whole), not as soon as the spinner is gone.
    tui.wait(
        lambda: "writing" not in tui.display and "Type a prompt" in tui.display,
        "the reply printed and the input box drawn again",
    )
    said = " ".join(tui.everything.split())
    assert "The reply keeps its first words and its last ones together." in said
    tui.press("ctrl-d")
    assert tui.finish() == 0


@needs_tmux
@pytest.mark.skipif(shutil.which("less") is None, reason="less is not installed")
def test_the_transcript_pager_leaves_nothing_behind(
    tmp_path: Path, ws: Path, panes: list[Tmux]
) -> None:
    home = tmp_path / "home"
    answer = "\n".join(f"- item {n:02d} of the answer" for n in range(1, 41))
    model = scripted_model(tmp_path / "s.json", {"text": answer})
    # No $PAGER: the transcript goes through less, which has the screen meanwhile.
    pane = Tmux(home, ["--model", model], cwd=ws, columns=100, rows=24, env={"PAGER": ""})
    panes.append(pane)
    pane.wait_for("script:s.json")
    pane.line("list them")
    pane.wait(lambda: "item 40 of the answer" in pane.everything, "the answer")
    pane.line("/transcript")
    pane.wait(lambda: "Type a prompt" not in pane.display, "the pager")
    pane.wait_for("item 01 of the answer")  # its first page
    pane.press("G")  # its last page
    pane.wait_for("item 40 of the answer")
    pane.press("q")
    pane.wait_for("Type a prompt")
    # The conversation once, and no page of the pager left in the scrollback.
    assert pane.everything.count("item 40 of the answer") == 1
    assert pane.everything.count("item 20 of the answer") == 1


@pytest.fixture
def thinking_long() -> Iterator[str]:
    """An OpenAI-compatible server on loopback that answers nothing until the client hangs
    up (the spinner says `thinking` all along); its base URL."""

    def prepare(server: SSEServer) -> None:
        server.answer = lambda _request: sse_reply("openai_text.sse", hold_after=0)

    with served_in_thread(prepare) as server:
        yield server.url


@needs_tmux
@pytest.mark.parametrize("columns", [120, 200])
def test_a_narrower_terminal_leaves_no_spinner_line_behind(
    tmp_path: Path, ws: Path, panes: list[Tmux], thinking_long: str, columns: int
) -> None:
    home = tmp_path / "home"
    args = ["--model", "openai:m", "--base-url", f"{thinking_long}/v1", "--api-key", "k"]
    # A screen full of what came before: the live screen is at its bottom, as after a day.
    before = "seq 1 40"
    pane = Tmux(home, args, cwd=ws, columns=columns, rows=20, env={}, before=before)
    panes.append(pane)
    pane.wait_for("m ·")
    pane.line("first")
    pane.wait_for("thinking")
    # tmux rewraps each line wider than the pane: the rules, the status bar.
    pane.resize(60, 20)
    pane.wait(lambda: "─" * 61 not in pane.display, "the redraw at 60 columns")
    pane.wait_for("thinking")
    pane.press("Escape")
    pane.wait_for("cancelled")
    pane.wait_gone("thinking")
    assert "thinking" not in pane.everything
    assert pane.everything.count("> first") == 1


def test_a_prompt_typed_before_the_screen_shows_is_sent_and_not_echoed(
    tmp_path: Path, ws: Path, tuis: list[Tui]
) -> None:
    home = tmp_path / "home"
    model = scripted_model(tmp_path / "s.json", {"text": "First answer."})
    tui = Tui(home, ["--model", model], cwd=ws, columns=80)
    tuis.append(tui)
    # Typed as `tether` starts, before the screen has the terminal (still in line mode).
    tui.type("hello\rthe next draft")
    tui.wait_for("First answer.")
    tui.wait_for("› the next draft")  # the unfinished line is in the box, unsent
    assert _before(tui.everything, "> hello").strip() == ""  # the echo is gone
    tui.press("ctrl-c", "ctrl-d")
    assert tui.finish() == 0
