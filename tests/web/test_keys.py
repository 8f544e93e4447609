"""The keys kept to sign agents in (`tether.web.keys`) and the methods the page is offered
(`tether.web.handshake.sign_in_methods`)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from acp.schema import AuthEnvVar, AuthMethodAgent, EnvVarAuthMethod, TerminalAuthMethod

from tether.errors import BadKeys
from tether.web.handshake import sign_in_methods
from tether.web.keys import KEYS_FILE, AgentKeys, SavedSignIn

COMMAND = ["gemini", "--experimental-acp"]


def test_a_sign_in_is_kept_per_agent_command_readable_by_its_owner_only(tmp_path: Path) -> None:
    keys = AgentKeys(tmp_path / "home")
    assert keys.saved(COMMAND) is None
    os.umask(0o022)  # a usual umask would leave a new file readable by everyone
    keys.save(COMMAND, SavedSignIn(method="api", env={"GEMINI_API_KEY": "k1"}))
    keys.save(["other"], SavedSignIn(method="x", env={"OTHER_KEY": "k2"}))
    path = tmp_path / "home" / KEYS_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert keys.saved(COMMAND) == SavedSignIn(method="api", env={"GEMINI_API_KEY": "k1"})
    path.chmod(0o644)
    keys.save(COMMAND, SavedSignIn(method="api", env={"GEMINI_API_KEY": "k3"}))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert keys.saved(COMMAND) == SavedSignIn(method="api", env={"GEMINI_API_KEY": "k3"})
    keys.forget(COMMAND)
    assert keys.saved(COMMAND) is None
    assert keys.saved(["other"]) == SavedSignIn(method="x", env={"OTHER_KEY": "k2"})


def test_a_keys_file_that_is_not_ours_is_refused_and_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / KEYS_FILE
    path.write_text('{"agents": ')
    keys = AgentKeys(tmp_path)
    with pytest.raises(BadKeys, match="cannot be read"):
        keys.saved(COMMAND)
    with pytest.raises(BadKeys, match="move it away"):
        keys.save(COMMAND, SavedSignIn(method="api", env={"K": "v"}))
    assert path.read_text() == '{"agents": '
    path.write_text('{"version": 2, "agents": {}}')
    with pytest.raises(BadKeys, match="not a version 1 keys file"):
        keys.saved(COMMAND)


@pytest.mark.parametrize(
    ("name", "value", "why"),
    [("LD PRELOAD", "x", "not an environment variable"), ("KEY", "a\0b", "NUL")],
)
def test_a_variable_no_environment_can_hold_is_refused(
    tmp_path: Path, name: str, value: str, why: str
) -> None:
    keys = AgentKeys(tmp_path)
    with pytest.raises(BadKeys, match=why):
        keys.save(COMMAND, SavedSignIn(method="api", env={name: value}))
    assert not (tmp_path / KEYS_FILE).exists()


def test_the_page_is_offered_each_method_with_only_which_variables_are_saved() -> None:
    methods = sign_in_methods(
        [
            EnvVarAuthMethod(
                id="key",
                name="API key",
                type="env_var",
                vars=[
                    AuthEnvVar(name="A_KEY", label="Key"),
                    AuthEnvVar(name="A_URL", secret=False, optional=True),
                ],
                link="javascript:alert(1)",
            ),
            TerminalAuthMethod(
                id="tty", name="Log in", type="terminal", args=["--login"], env={"MODE": "a b"}
            ),
            AuthMethodAgent(id="oauth", name="OAuth"),
        ],
        COMMAND,
        SavedSignIn(method="key", env={"A_KEY": "sk-kept-value"}),
    )
    key, tty, oauth = methods
    assert key.kind == "env_var" and key.link is None
    assert [(v.name, v.secret, v.optional, v.saved) for v in key.vars] == [
        ("A_KEY", True, False, True),
        ("A_URL", False, True, False),
    ]
    assert "sk-kept-value" not in repr(methods)
    assert tty.kind == "terminal" and tty.command == "MODE='a b' gemini --experimental-acp --login"
    assert oauth.kind == "agent"
