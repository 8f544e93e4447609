"""The task card in the terminal: the agent and its task, its report, what it did and spent."""

from __future__ import annotations

from rich.style import Style

from tests.golden import check_golden
from tests.render.helpers import GOLDEN, plain, segments
from tether.render.task_card import COLLAPSE_OVER, task_state, task_tail
from tether.render.terminal import render_result_view
from tether.views import TaskResultView

REPORT = """\
`retry()` lives in **client.py:42** and backs off exponentially.

- client.py:42 - the loop
- test_client.py:10 - its test"""


def view(**changes: object) -> TaskResultView:
    fields: dict[str, object] = {
        "agent": "explore",
        "description": "find the retry logic",
        "session_id": "0190a1b2c3d4e5f6a7b8",
        "summary": REPORT,
        "tool_calls": 12,
        "stop_reason": "end_turn",
        "tokens": 8_123,
    }
    fields.update(changes)
    return TaskResultView(**fields)  # type: ignore[arg-type]


def test_a_finished_task_shows_its_report_and_footer() -> None:
    text = plain(render_result_view(view()))
    check_golden(GOLDEN / "task.txt", text)
    assert "retry() lives in client.py:42" in text  # Markdown, rendered
    assert "12 calls · 8.1k tokens · session 0190a1b2c3d4e5f6a7b8  done" in text
    done = [s for s in segments(render_result_view(view())) if s.text == "done"]
    assert done[0].style is not None and done[0].style.bgcolor == Style(bgcolor="green").bgcolor


def test_a_failed_or_cancelled_task_says_so_in_red() -> None:
    failed = plain(render_result_view(view(summary="", stop_reason="error", error="no key")))
    assert "no final message" in failed and "failed: no key" in failed
    assert failed.splitlines()[-1].endswith("  failed ─╯")
    bad = [
        s
        for s in segments(render_result_view(view(stop_reason="cancelled")))
        if s.text == "cancelled"
    ]
    assert bad[0].style is not None and bad[0].style.bgcolor == Style(bgcolor="red").bgcolor


def test_a_long_report_is_collapsed_unless_full() -> None:
    long = "\n".join(f"line {n}" for n in range(COLLAPSE_OVER + 10))
    short = plain(render_result_view(view(summary=long), full=False))
    assert f"line {COLLAPSE_OVER - 1}" in short and f"line {COLLAPSE_OVER}" not in short
    assert "… 10 more lines (--verbose shows all)" in short
    assert f"line {COLLAPSE_OVER + 9}" in plain(render_result_view(view(summary=long)))


def test_every_ending_has_a_word_and_a_running_task_a_live_line() -> None:
    states = {
        reason: task_state(view(stop_reason=reason))
        for reason in ("end_turn", "error", "cancelled", "max_turn_requests", "max_tokens")
    }
    assert states["max_turn_requests"] == ("stopped: step limit", False)
    assert states["max_tokens"] == ("stopped: output limit", False)
    assert task_state(view(stop_reason="refusal")) == ("refused", False)
    running = view(stop_reason="running", summary="", activity="Read a.py\x1b[2J", tool_calls=1)
    assert task_tail(running).plain == "explore › Read a.py␛[2J · 1 call"  # escapes made visible
    assert "Read a.py" in plain(render_result_view(running))


def test_a_thinking_agent_shows_the_end_of_its_thought_dimmed() -> None:
    thinking = view(
        stop_reason="running",
        summary="",
        activity="thinking",
        thought="…so the retry loop\x1b[2J is in client.py",
        tool_calls=1,
    )
    tail = task_tail(thinking)
    assert tail.plain == "explore › thinking · 1 call\n…so the retry loop␛[2J is in client.py"
    thought = [s for s in segments(tail) if "retry loop" in s.text]
    assert thought[0].style is not None and thought[0].style.italic and thought[0].style.dim
    card = plain(render_result_view(thinking))
    assert "thinking" in card and "…so the retry loop␛[2J is in client.py" in card
    # Done, the card shows the report and no thought.
    assert "retry loop" not in plain(render_result_view(view(thought=None)))
