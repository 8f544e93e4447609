"""`transcript_path`: a Claude Code-shaped copy of the session's log, read by a hook script
written for Claude Code, in the sandbox too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hooks.scripts import group
from tests.sandbox.users import SYSTEM_PYTHON
from tests.session.helpers import Recorder, Sessions, call, script, text
from tether.sandbox.bwrap import find_bwrap
from tether.session import SessionConfig
from tether.settings import load_settings
from tether.settings.effective import sandbox_policy
from tether.tools.bash import BashTool
from tether.tools.registry import ToolRegistry

# What a Claude Code Stop hook does with the transcript: the last assistant text, and the
# commands the session ran.
LAST_WORDS = """\
import json, sys
given = json.load(sys.stdin)
lines = [json.loads(l) for l in open(given["transcript_path"])]
said = [b["text"] for l in lines if l["type"] == "assistant"
        for b in l["message"]["content"] if b["type"] == "text"]
ran = [b["input"]["command"] for l in lines if l["type"] == "assistant"
       for b in l["message"]["content"] if b["type"] == "tool_use" and b["name"] == "Bash"]
results = [b for l in lines if l["type"] == "user" and isinstance(l["message"]["content"], list)
           for b in l["message"]["content"] if b.get("type") == "tool_result"]
json.dump({"said": said[-1], "ran": ran, "results": len(results),
           "where": given["transcript_path"]}, open("last.json", "w"))
"""


@pytest.mark.skipif(not find_bwrap().works, reason="bubblewrap cannot start here")
@pytest.mark.parametrize("sandboxed", [True, False])
async def test_a_claude_code_stop_hook_reads_the_transcript(
    tmp_path: Path, ws: Path, sandboxed: bool
) -> None:
    (ws / "last_words.py").write_text(LAST_WORDS)
    hook = group(f"{SYSTEM_PYTHON} last_words.py", sandbox=None if sandboxed else False)
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"hooks": {"Stop": [hook]}}))
    settings = load_settings(ws, home)
    model = script(
        {"toolCalls": [call("c1", "bash", {"command": "echo hi"})]},
        {"text": "Said hi."},
    )
    config = SessionConfig(
        model=model,
        settings=settings,
        tools=ToolRegistry([BashTool(sandbox=sandbox_policy(settings))]),
        mode="auto",
    )
    with Sessions(tmp_path / "data") as sessions:
        session = sessions.create(ws, config)
        assert await session.prompt(text("say hi"), Recorder()) == "end_turn"
    last = json.loads((ws / "last.json").read_text())
    assert last == {
        "said": "Said hi.",
        "ran": ["echo hi"],
        "results": 1,
        # In the sandbox tether's data directory is hidden: the copy is bound into its /tmp.
        "where": (
            f"/tmp/tether-transcripts/transcript-{session.id}.jsonl"
            if sandboxed
            else str(tmp_path / "data" / "sessions" / "transcripts" / f"{session.id}.jsonl")
        ),
    }
    copy = tmp_path / "data" / "sessions" / "transcripts" / f"{session.id}.jsonl"
    lines = [json.loads(line) for line in copy.read_text().splitlines()]
    assert [line["type"] for line in lines] == ["user", "assistant", "user", "assistant"]
    assert lines[1]["message"]["content"][0] == {
        "type": "tool_use",
        "id": "c1",
        "name": "Bash",
        "input": {"command": "echo hi"},
    }
    assert lines[2]["message"]["content"][0]["tool_use_id"] == "c1"
    # Deleting the session deletes the copy.
    sessions.store.delete(session.id)
    assert not copy.exists()
