"""The sandbox flags: `tether web` hands its agent only those given; its settings do the rest."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from tests.cli.in_process import tether_in_process
from tether.cli.web import configure, options_from_args


@pytest.mark.parametrize(
    ("given", "forwarded"),
    [
        ([], []),
        (["--allow-network"], ["--allow-network"]),
        (["--sandbox", "read-only"], ["--sandbox", "read-only"]),
        (["--sandbox", "off", "--allow-network"], ["--sandbox", "off", "--allow-network"]),
    ],
)
def test_the_web_agent_gets_the_sandbox_flags_given(
    tmp_path: Path, given: list[str], forwarded: list[str]
) -> None:
    parser = argparse.ArgumentParser()
    configure(parser)
    agent = list(options_from_args(parser.parse_args(["--cwd", str(tmp_path), *given])).agent)
    sandbox = [
        arg
        for i, arg in enumerate(agent)
        if arg in ("--sandbox", "--allow-network") or (i and agent[i - 1] == "--sandbox")
    ]
    assert sandbox == forwarded


def test_a_bad_sandbox_variable_stops_tether_acp_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "script.json"
    script.write_text('{"turns": []}')
    monkeypatch.setenv("TETHER_SANDBOX", "bogus")
    done = tether_in_process(tmp_path / "home", "acp", "--model", f"script:{script}")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "tether: error: unknown sandbox mode 'bogus'; expected workspace-write, read-only, off\n"
    )
