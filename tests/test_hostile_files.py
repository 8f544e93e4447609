"""Files a workspace or `$TETHER_HOME` controls, made hostile: each is refused with a warning
naming it, and nothing hangs, exhausts memory, reads tether's own input or crashes.

The kinds: a symlink to `/dev/zero` (endless), to `/dev/stdin` (an ACP agent's own input), a
FIFO no one writes (a read would block for ever), a file past the size cap, and for JSON
files, nesting deep enough to exhaust a recursive parser.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from tests.acp.wire import AgentProcess
from tests.cli.in_process import tether_in_process
from tests.cli.support import scripted_model
from tests.support import KINDS, make, within
from tether.commands import load_commands
from tether.errors import ModelError, SettingsError
from tether.models.script import ScriptModel
from tether.session.context.system_prompt import Reminders, system_prompt
from tether.settings import load_settings
from tether.tools.defaults import default_tools
from tether.tools.workspace import Workspace
from tether.web.token import web_token


@pytest.mark.parametrize("kind", KINDS)
def test_agents_md_of_every_kind_is_skipped_with_a_warning(
    ws: Path, tmp_path: Path, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    make(ws / "AGENTS.md", kind)
    make(ws / "sub" / "AGENTS.md", kind)
    (tmp_path / "user").mkdir()
    workspace = Workspace.at(ws)
    with caplog.at_level(logging.WARNING):
        prompt = within(lambda: system_prompt(workspace, default_tools(), tmp_path / "user"))
        reminder = within(lambda: Reminders(workspace).after([ws / "sub" / "a.py"]))
    assert isinstance(prompt, str) and "project's instructions" not in prompt
    assert reminder is None
    said = caplog.text
    assert f"instructions skipped: {ws / 'AGENTS.md'}: " in said
    assert f"{ws / 'sub' / 'AGENTS.md'}: " in said


@pytest.mark.parametrize("kind", KINDS)
def test_a_command_file_of_every_kind_is_skipped_with_a_warning(
    ws: Path, tmp_path: Path, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    make(ws / ".tether" / "commands" / "bad.md", kind, size=512 * 1024)
    (ws / ".tether" / "commands" / "good.md").write_text("Do the good thing.")
    with caplog.at_level(logging.WARNING):
        commands = within(lambda: load_commands(ws, tmp_path / "home"))
    assert isinstance(commands, list)
    names = {c.name for c in commands}
    assert "good" in names and "bad" not in names
    assert f"{ws / '.tether' / 'commands' / 'bad.md'}: " in caplog.text
    assert "; skipped" in caplog.text


@pytest.mark.parametrize("kind", [*KINDS, "deep"])
def test_settings_of_every_kind_are_an_error_naming_the_file(
    ws: Path, tmp_path: Path, kind: str
) -> None:
    make(ws / ".tether" / "settings.json", kind)

    def load() -> object:
        try:
            return load_settings(ws, tmp_path / "home", trusted=True)
        except SettingsError as exc:
            return exc

    error = within(load)
    assert isinstance(error, SettingsError)
    assert str(ws / ".tether" / "settings.json") in str(error)


@pytest.mark.parametrize("kind", KINDS)
def test_the_web_token_file_of_every_kind_is_replaced(tmp_path: Path, kind: str) -> None:
    make(tmp_path / "web-token", kind)
    token = within(lambda: web_token(tmp_path))
    assert isinstance(token, str) and len(token) >= 32
    assert (tmp_path / "web-token").read_text().strip() == token
    assert (tmp_path / "web-token").stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("kind", KINDS)
def test_a_model_script_of_every_kind_is_an_error(tmp_path: Path, kind: str) -> None:
    make(tmp_path / "s.json", kind, size=65 * 1024 * 1024)

    def load() -> object:
        try:
            return ScriptModel.from_file(tmp_path / "s.json")
        except ModelError as exc:
            return exc

    error = within(load)
    assert isinstance(error, ModelError)
    assert f"cannot read model script {tmp_path / 's.json'}" in str(error)


def test_tether_run_goes_on_past_hostile_files(tmp_path: Path, ws: Path) -> None:
    make(ws / "AGENTS.md", "fifo")
    make(ws / ".tether" / "commands" / "x.md", "dev-zero")
    make(ws / ".mcp.json", "deep")
    model = scripted_model(tmp_path / "s.json", {"text": "still here"})
    done = tether_in_process(tmp_path / "home", "run", "hello", "--model", model, "--cwd", str(ws))
    assert done.returncode == 0, done.stderr
    assert "still here" in done.stdout
    said = " ".join(done.stderr.split())
    assert "AGENTS.md: not a regular file (a FIFO)" in said
    assert ".mcp.json: not valid JSON" in said


async def test_an_acp_agent_does_not_read_its_own_input_as_instructions(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    make(ws / "AGENTS.md", "dev-stdin")
    model = scripted_model(tmp_path / "s.json", {"text": "fine"})
    agent = await AgentProcess.start(tmp_path / "home", "--model", model)
    try:
        await agent.initialize()
        reply, _ = await agent.request("session/new", {"cwd": str(ws), "mcpServers": []})
        session_id = reply["result"]["sessionId"]
        prompt = {"sessionId": session_id, "prompt": [{"type": "text", "text": "hi"}]}
        reply, notes = await agent.request("session/prompt", prompt)
        assert reply["result"]["stopReason"] == "end_turn", reply
        said = json.dumps(notes)
        assert "fine" in said
    finally:
        assert await agent.close() == 0
    logged = agent.stderr_path.read_text()
    assert f"instructions skipped: {ws / 'AGENTS.md'}: not a regular file" in logged
