"""`tether show --json`'s document: its head is dumped without the schema of every update."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tether.content import TextContent
from tether.session import SessionStore
from tether.session.document import (
    DOCUMENT_HEAD,
    SESSION_DOCUMENT,
    DocumentHead,
    SessionDocument,
)
from tether.session.log.events import (
    AssistantMessageEvent,
    ParentLink,
    TurnEnd,
    TurnStart,
    UserMessageEvent,
)


@pytest.mark.parametrize("parent", [None, ParentLink(id="p\u00e9", call_id="t\n1")])
def test_the_head_is_dumped_as_the_whole_document_dumps_it(parent: ParentLink | None) -> None:
    fields = {"id": "c", "cwd": "/w/\u00e9 \x1b[2J", "created_at": "t", "parent": parent}
    whole = SESSION_DOCUMENT.dump_python(
        SessionDocument(**fields, updates=[]), mode="json", by_alias=True
    )
    head = DOCUMENT_HEAD.dump_python(DocumentHead(**fields, updates=[]), mode="json", by_alias=True)
    assert json.dumps(head) == json.dumps(whole)  # the same keys in the same order
    assert list(head) == ["id", "cwd", "createdAt", "updates"] + (["parent"] if parent else [])


PROBE = """
import sys
from tether.cli import main
from tether.session.document import DOCUMENT_HEAD, SESSION_DOCUMENT
status = main(["show", sys.argv[1], "--json"])
print(status, DOCUMENT_HEAD.pydantic_complete, SESSION_DOCUMENT.pydantic_complete, file=sys.stderr)
"""


def test_show_json_writes_its_head_without_building_the_update_union(
    tmp_path: Path, ws: Path
) -> None:
    home = tmp_path / "home"
    log = SessionStore(home).create(ws)
    log.append(TurnStart())
    log.append(UserMessageEvent(content=(TextContent(text="Hi."),)))
    log.append(AssistantMessageEvent(text="Hello."))
    log.append(TurnEnd(stop_reason="end_turn"))
    log.close()
    done = subprocess.run(
        [sys.executable, "-c", PROBE, log.path.stem],
        capture_output=True,
        text=True,
        env={**os.environ, "TETHER_HOME": str(home), "NO_COLOR": "1"},
        check=True,
    )
    assert done.stderr.split() == ["0", "True", "False"]
    document = json.loads(done.stdout)
    assert list(document) == ["id", "cwd", "createdAt", "updates"]
    assert "user_text" in [update["kind"] for update in document["updates"]]
