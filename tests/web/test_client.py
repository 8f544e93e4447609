"""The web server's ACP client: what a permission request's buttons carry to the page."""

from __future__ import annotations

import re
from pathlib import Path

from acp.schema import PermissionOption

import tether.web
from tether.acp.permissions import option_for
from tether.policy.asker import DECISION_KEYS
from tether.web.client import decision_keys


def test_each_decision_s_option_gets_the_letter_the_terminal_types() -> None:
    options = [option_for(decision) for decision in ("allow_once", "allow_always", "allow_project")]
    options.append(option_for("reject"))
    assert decision_keys(options) == [word[0] for word in DECISION_KEYS.values()]
    assert decision_keys(options) == ["y", "a", "p", "n"]


def test_another_agent_s_options_are_read_by_kind_and_a_letter_goes_to_the_first() -> None:
    options = [
        PermissionOption(option_id="ok", name="Yes", kind="allow_once"),
        PermissionOption(option_id="ok-too", name="Yes, this once", kind="allow_once"),
        PermissionOption(option_id="never", name="No, and stop asking", kind="reject_always"),
        PermissionOption(option_id="no", name="No", kind="reject_once"),
    ]
    assert decision_keys(options) == ["y", None, "n", None]


def test_the_page_spells_no_letter_of_its_own() -> None:
    # The page takes each option's `key` as the server sent it: no kind-to-letter table here.
    script = (Path(tether.web.__file__).parent / "static" / "permission_prompt.js").read_text()
    assert not re.search(r"""key\s*=\s*["'][yapn]["']""", script)
