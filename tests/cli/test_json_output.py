"""`tether show --json` and `tether sessions --json`, pinned byte for byte.

The logs in `json/sessions/` hold every update kind a stored session replays to (user text,
image and resources; assistant text; a call of every card kind, failed ones, each permission
outcome; title; turns ended, failed, cancelled and capped; compactions). Scripts read this
JSON, so its exact form (key names and order, what is left out) is part of the interface.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pydantic._internal._mock_val_ser import MockValSer
from pydantic_core import to_json

from tests.cli.in_process import tether_in_process
from tests.golden import check_golden
from tether.session import SessionStore
from tether.session.replay import replayed
from tether.session.updates import ToolCallFinished, ToolCallPartial, ToolCallStarted
from tether.tools.defaults import default_tools

FIXTURES = Path(__file__).parent / "json"
SESSION = "0190a1b2c3d4e5f6a7b8"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    shutil.copytree(FIXTURES / "sessions", home / "sessions")
    return home


def test_show_json_prints_every_update_kind_as_before(home: Path) -> None:
    shown = tether_in_process(home, "show", SESSION[:6], "--json")
    assert shown.returncode == 0, shown.stderr
    check_golden(FIXTURES / "show.json", shown.stdout)


def test_sessions_json_prints_each_session_as_before(home: Path) -> None:
    listed = tether_in_process(home, "sessions", "--json")
    assert listed.returncode == 0, listed.stderr
    check_golden(FIXTURES / "sessions.json", listed.stdout)


def test_the_card_classes_dump_as_before_after_a_show(home: Path) -> None:
    header, events = SessionStore(home).stream(SESSION, check_first=True)
    cards = [
        update.view
        for update in replayed(events, default_tools(), header.cwd)
        if isinstance(update, ToolCallStarted | ToolCallPartial | ToolCallFinished)
    ]
    kinds = {type(card) for card in cards}
    assert len(kinds) >= 6  # read, diff, terminal, generic, search, web...
    own = {kind: vars(kind).get("__pydantic_serializer__") for kind in kinds}
    dumped = [to_json(card, by_alias=True) for card in cards]
    shown = tether_in_process(home, "show", SESSION, "--json")
    assert shown.returncode == 0, shown.stderr
    # `show --json` writes each card with a serializer it gives the card's class for the
    # document; afterwards each class has what it had (or what pydantic built meanwhile).
    for kind in kinds:
        now = vars(kind).get("__pydantic_serializer__")
        assert now is own[kind] or isinstance(own[kind], MockValSer), kind
    assert [to_json(card, by_alias=True) for card in cards] == dumped
