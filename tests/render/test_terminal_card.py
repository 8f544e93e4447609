"""The terminal card: cwd and command, ANSI output kept, and an exit pill."""

from __future__ import annotations

import pytest

from tests.golden import check_golden
from tests.render.helpers import GOLDEN, body_lines, plain, segments
from tether.render import render_call_view, render_result_view
from tether.render.terminal_card import COLLAPSE_OVER, KEEP_TAIL
from tether.views import TerminalCallView, TerminalResultView


def footer(text: str) -> str:
    return text.splitlines()[-1]


def test_running_call_shows_cwd_command_and_a_running_note() -> None:
    view = TerminalCallView(title="pytest -q", description="Run the tests", cwd="/work/proj")
    text = plain(render_call_view(view))
    assert "Run the tests" in text.splitlines()[0]
    assert body_lines(text) == ["/work/proj", "$ pytest -q"]
    assert "running…" in footer(text)


def test_call_without_cwd_or_description() -> None:
    text = plain(render_call_view(TerminalCallView(title="ls")))
    assert body_lines(text) == ["$ ls"]
    assert text.splitlines()[0].strip("╭─╮") == ""


def test_cwd_is_dim_and_command_bold() -> None:
    segs = segments(render_call_view(TerminalCallView(title="make", cwd="/srv")))
    cwd = next(s for s in segs if s.text == "/srv")
    command = next(s for s in segs if s.text == "make")
    assert cwd.style is not None and cwd.style.dim
    assert command.style is not None and command.style.bold


def test_output_keeps_its_ansi_colours() -> None:
    output = "\x1b[32mPASSED\x1b[0m test_a\n\x1b[1;31mFAILED\x1b[0m test_b\n"
    view = TerminalResultView(title="pytest", output=output, exit_code=1)
    text = plain(render_result_view(view))
    assert body_lines(text) == ["$ pytest", "PASSED test_a", "FAILED test_b"]
    segs = segments(render_result_view(view))
    passed = next(s for s in segs if s.text == "PASSED")
    failed = next(s for s in segs if s.text == "FAILED")
    assert passed.style is not None and passed.style.color is not None
    assert passed.style.color.number == 2  # the terminal's own green
    assert failed.style is not None and failed.style.bold
    assert failed.style.color is not None and failed.style.color.number == 1


@pytest.mark.parametrize(
    ("view", "label", "colour"),
    [
        (TerminalResultView(title="true", exit_code=0), "exit 0", "green"),
        (TerminalResultView(title="false", exit_code=3), "exit 3", "red"),
        (TerminalResultView(title="sleep 9", signal="SIGKILL"), "SIGKILL", "red"),
    ],
)
def test_exit_pill(view: TerminalResultView, label: str, colour: str) -> None:
    assert f" {label} " in footer(plain(render_result_view(view)))
    pill = next(s for s in segments(render_result_view(view)) if s.text.strip() == label)
    assert pill.style is not None and pill.style.bgcolor is not None
    assert pill.style.bgcolor.name == colour


def test_a_failed_call_has_a_red_pill_whatever_its_exit_code() -> None:
    # A command stopped by its timeout whose shell still exited 0 failed all the same.
    stopped = TerminalResultView(title="trap '' TERM; sleep 9", exit_code=0)
    card = render_result_view(stopped, failed=True)
    assert " exit 0 " in footer(plain(card))
    pill = next(s for s in segments(card) if s.text.strip() == "exit 0")
    assert pill.style is not None and pill.style.bgcolor is not None
    assert pill.style.bgcolor.name == "red"
    assert "failed" in footer(plain(card))


def test_no_ending_and_no_output() -> None:
    text = plain(render_result_view(TerminalResultView()))
    assert body_lines(text) == ["no output"]
    assert "exit" not in text and "SIG" not in text


def test_golden_terminal_card() -> None:
    view = TerminalResultView(
        title="ls -1", output="\x1b[34mREADME.md\x1b[0m\nsrc\ntests\n", exit_code=0
    )
    check_golden(GOLDEN / "terminal.txt", plain(render_result_view(view)))


def test_non_colour_escapes_and_control_bytes_do_not_reach_the_terminal() -> None:
    output = "a\x1b[31mred\x1b[0m\x1b]0;title\x07 nul\x00 end"
    view = TerminalResultView(title="printf", output=output, exit_code=0)
    coloured = segments(render_result_view(view))
    red = next(s for s in coloured if s.text == "red")
    assert red.style is not None and red.style.color is not None and red.style.color.number == 1
    assert all("\x00" not in s.text and "\x07" not in s.text for s in coloured)
    assert "nul␀ end" in plain(render_result_view(view))


def test_long_output_keeps_its_tail_unless_in_full() -> None:
    output = "".join(f"\x1b[32mline {n}\x1b[0m\n" for n in range(1, COLLAPSE_OVER + 12))
    view = TerminalResultView(title="seq", output=output, exit_code=0)
    lines = body_lines(plain(render_result_view(view, full=False)))
    hidden = COLLAPSE_OVER + 11 - KEEP_TAIL
    assert lines[:2] == ["$ seq", f"… {hidden} earlier lines"]
    assert lines[2:] == [f"line {n}" for n in range(hidden + 1, COLLAPSE_OVER + 12)]
    # Colours survive the cut: the tail was parsed with the lines before it.
    kept = next(s for s in segments(render_result_view(view, full=False)) if s.text == "line 41")
    assert kept.style is not None and kept.style.color is not None
    assert len(body_lines(plain(render_result_view(view)))) == COLLAPSE_OVER + 12
    short = TerminalResultView(title="seq", output="a\n" * COLLAPSE_OVER, exit_code=0)
    assert "earlier" not in plain(render_result_view(short, full=False))


def test_titled_by_the_description_with_the_sandbox_in_the_footer_and_the_command_once() -> None:
    call = TerminalCallView(
        title="pytest -q", description="Run the tests", sandbox="sandbox: read-only"
    )
    view = TerminalResultView(title="pytest -q", output="ok\n", exit_code=0)
    text = plain(render_result_view(view, call))
    assert "Run the tests" in text.splitlines()[0] and "sandbox" not in text.splitlines()[0]
    assert "sandbox: read-only" in footer(text) and "exit 0" in footer(text)
    assert body_lines(text) == ["$ pytest -q", "ok"]
    # Proposed for approval first: the card that asked showed the command.
    proposed = plain(render_result_view(view, call, proposed=True))
    assert "pytest" not in proposed and body_lines(proposed) == ["ok"]
    bare = plain(render_result_view(view, TerminalCallView(title="pytest -q"), proposed=True))
    assert "pytest -q" in bare.splitlines()[0] and body_lines(bare) == ["ok"]


def test_a_failed_call_has_a_red_frame_and_says_failed() -> None:
    view = TerminalResultView(title="sleep 9", output="", signal="SIGTERM")
    text = plain(render_result_view(view, failed=True))
    assert "SIGTERM" in footer(text) and "failed" in footer(text)
    drawn = segments(render_result_view(view, failed=True))
    corner = next(s for s in drawn if s.text.startswith("╭"))
    assert corner.style is not None and corner.style.color is not None
    assert corner.style.color.name == "red"
    quiet = next(s for s in segments(render_result_view(view)) if s.text.startswith("╭"))
    assert quiet.style is not None and quiet.style.color is not None
    assert quiet.style.color.name == "bright_black"
