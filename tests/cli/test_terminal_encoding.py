"""Whatever a model sends, the terminal gets text it can encode, and every card still shows."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from tests.cli.in_process import tether_in_process
from tether.cli.printer import Printer
from tether.cli.safe_output import SafeStream, safe_text
from tether.session.updates import AgentText, TurnEnded


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_a_lone_surrogate_hides_no_card_in_run_or_show(tmp_path: Path, encoding: str) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    script = tmp_path / "script.json"
    write = {"path": "new.txt", "content": "é\n"}
    turns = [
        {"toolCalls": [{"id": "c1", "name": "read", "arguments": '{"path": "\\ud800"}'}]},
        {"toolCalls": [{"id": "c2", "name": "write", "arguments": write}]},
        {"text": "All done \ud83d\ude00 \u00e9."},
    ]
    script.write_text(json.dumps({"turns": turns}))
    home = tmp_path / "home"
    # In the test's process, its standard streams opened in `encoding` as PYTHONIOENCODING
    # opens a process's; what it wrote is decoded strictly: every byte must be `encoding`'s.
    run = tether_in_process(
        home,
        "run",
        "go",
        "--mode",
        "auto",
        "--cwd",
        str(ws),
        "--model",
        f"script:{script}",
        encoding=encoding,
    )
    out, err = run.stdout, run.stderr
    assert run.returncode == 0, err
    assert "failed" not in err and "Traceback" not in err, err
    assert "new.txt" in out and "All done" in out
    assert (ws / "new.txt").read_text() == "é\n"

    [session] = (home / "sessions").glob("*.jsonl")
    show = tether_in_process(home, "show", session.stem, encoding=encoding)
    shown, show_err = show.stdout, show.stderr
    assert show.returncode == 0, show_err
    assert "Traceback" not in show_err
    assert shown == out
    as_json = tether_in_process(home, "show", session.stem, "--json", encoding=encoding)
    assert as_json.returncode == 0, as_json.stderr
    document = json.loads(as_json.stdout)
    assert document["id"] == session.stem
    # Written as `print_json` writes a whole document: the same text, byte for byte.
    ascii_only = json.dumps(document, indent=2, ensure_ascii=True) + "\n"
    if encoding == "ascii":
        assert as_json.stdout == ascii_only
    else:
        # UTF-8 as it is; the update holding the lone surrogate in JSON's own escape.
        assert "é" in as_json.stdout
        assert "\\ud800" in as_json.stdout


def test_safe_text_replaces_surrogates_and_escapes_what_the_encoding_lacks() -> None:
    assert safe_text("a\ud800b", "utf-8") == "a\ufffdb"
    assert safe_text("é ✓ \udfff", "ascii") == "\\xe9 \\u2713 \\ufffd"
    assert safe_text("plain", "ascii") == "plain"
    assert safe_text("é", "latin-1") == "é"


def test_a_rendering_failure_is_reported_and_later_output_still_shows() -> None:
    out, err = io.StringIO(), io.StringIO()
    printer = Printer(Console(file=out, width=80), Console(file=err, width=80))
    printer(AgentText(text=None))  # type: ignore[arg-type]  # what no renderer can show
    printer(AgentText(text="after\n\n"))
    printer(TurnEnded(stop_reason="end_turn"))
    printer.close()
    assert "after" in out.getvalue()
    assert printer.failed
    assert "tether: error: could not show agent_text: TypeError" in err.getvalue()


def test_the_safe_stream_passes_through_what_rich_asks_of_a_file() -> None:
    inner = io.StringIO()
    stream = SafeStream(inner, "ascii")  # type: ignore[arg-type]
    assert stream.encoding == "ascii"
    assert not stream.isatty()
    stream.write("\u2713\ud800")
    stream.flush()
    assert inner.getvalue() == "\\u2713\\ufffd"


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from([*"a é名\n", "\ud800", "\udc80", "\udbff", "\udfff"])),
    encoding=st.sampled_from(["utf-8", "UTF-8", "utf8", "latin-1", "ascii", "utf-16", "utf-7"]),
)
def test_safe_text_is_what_replacing_surrogates_then_escaping_gives(
    text: str, encoding: str
) -> None:
    # Every lone surrogate becomes U+FFFD, then whatever the encoding lacks is escaped.
    mended = re.sub("[\ud800-\udfff]", "\ufffd", text)
    try:
        mended.encode(encoding)
        expected = mended
    except UnicodeEncodeError:
        expected = mended.encode(encoding, "backslashreplace").decode(encoding)
    assert safe_text(text, encoding) == expected
