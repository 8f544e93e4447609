"""The table of long test files: read from a `--durations=0` report, written, read back."""

from __future__ import annotations

from pathlib import Path

from tests.durations import TABLE, file_seconds, load, table_text

REPORT = """\
============================== slowest durations ===============================
22.81s call     tests/web/test_browser_replay.py::test_a_new_session_has_one_name[x::y]
1.50s setup    tests/web/test_browser_replay.py::test_a_new_session_has_one_name[x::y]
0.20s teardown tests/web/test_browser_replay.py::test_other
1.99s call     tests/test_short.py::test_a
0.83s call     tests/cli/test_terminal_ux.py::test_ctrl_c_marks_it_failed
3.10s call     tests/session/rewind/test_rewind_crash.py::test_sigkill_mid_checkpoint
(6288 durations < 0.005s hidden.  Use -vv to show these durations.)
FAILED tests/web/test_browser_results.py::test_results_beyond_text - 1.00s call
"""


def test_a_file_s_tests_add_up_and_the_short_files_are_left_out(tmp_path: Path) -> None:
    seconds = file_seconds(REPORT.splitlines())
    assert seconds == {
        "tests/web/test_browser_replay.py": 22.81 + 1.5 + 0.2,
        "tests/test_short.py": 1.99,
        "tests/cli/test_terminal_ux.py": 0.83,
        "tests/session/rewind/test_rewind_crash.py": 3.1,
    }
    table = tmp_path / "durations.txt"
    table.write_text(table_text(seconds))
    assert table.read_text().splitlines()[1:] == [
        "25 tests/web/test_browser_replay.py",
        "3 tests/session/rewind/test_rewind_crash.py",
    ]
    assert load(table) == {
        "tests/web/test_browser_replay.py": 25,
        "tests/session/rewind/test_rewind_crash.py": 3,
    }


def test_the_table_in_the_repository_reads() -> None:
    seconds = load(TABLE)
    assert seconds and all(value >= 2 for value in seconds.values())
    assert list(seconds.values()) == sorted(seconds.values(), reverse=True)
