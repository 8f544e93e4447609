"""The scripted model: the SPEC format, one turn per request, clear errors for bad scripts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tether.errors import ModelError
from tether.models.base import Completed, ModelEvent, ModelRequest, TextDelta
from tether.models.factory import make_model
from tether.models.messages import AssistantMessage, ToolCall
from tether.models.script import ScriptModel, split_text

REQUEST = ModelRequest(system="", messages=(), tools=())


async def _events(model: ScriptModel) -> list[ModelEvent]:
    return [event async for event in model.stream(REQUEST)]


async def test_each_request_takes_the_next_turn(tmp_path: Path) -> None:
    path = tmp_path / "script.json"
    path.write_text(
        json.dumps(
            {
                "turns": [
                    {
                        "text": "optional text",
                        "toolCalls": [{"id": "c1", "name": "read", "arguments": {"path": "a.py"}}],
                    },
                    {"text": "done"},
                ]
            }
        )
    )
    model = make_model(f"script:{path}")
    assert isinstance(model, ScriptModel)
    first = await _events(model)
    assert first == [
        TextDelta("optional "),
        TextDelta("text"),
        Completed(
            AssistantMessage(
                text="optional text",
                tool_calls=(ToolCall("c1", "read", '{"path": "a.py"}'),),
                stop_reason="tool_use",
            )
        ),
    ]
    assert await _events(model) == [TextDelta("done"), Completed(AssistantMessage(text="done"))]
    # Past the last turn: an empty final message.
    assert await _events(model) == [Completed(AssistantMessage(text=""))]
    assert len(model.requests) == 3


async def test_raw_string_arguments_are_sent_as_they_are() -> None:
    model = ScriptModel.from_json(
        '{"turns": [{"toolCalls": [{"id": "c", "name": "read", "arguments": "{\\"path\\": "}]}]}'
    )
    events = await _events(model)
    assert events == [
        Completed(
            AssistantMessage(
                tool_calls=(ToolCall("c", "read", '{"path": '),), stop_reason="tool_use"
            )
        )
    ]


async def test_a_turn_can_script_a_failure_or_a_stop_reason() -> None:
    model = ScriptModel.from_json(
        '{"turns": [{"error": "overloaded"}, {"text": "no", "stopReason": "refusal"}]}'
    )
    with pytest.raises(ModelError, match=r"^overloaded$"):
        await _events(model)
    last = (await _events(model))[-1]
    assert isinstance(last, Completed) and last.message.stop_reason == "refusal"


def test_text_streams_in_a_few_chunks_that_join_back() -> None:
    text = "one two  three four five six seven"
    pieces = split_text(text)
    assert len(pieces) == 3
    assert "".join(pieces) == text
    assert split_text("") == []
    assert split_text("single") == ["single"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "bad model script .*: \\(top level\\): Invalid JSON"),
        ('{"turn": []}', "turns: Field required"),
        ('{"turns": [{"toolcalls": []}]}', "turns.0.toolcalls: Extra inputs are not permitted"),
        ('{"turns": [{"toolCalls": [{"name": "x"}]}]}', "turns.0.toolCalls.0.id: Field required"),
        ('{"turns": [{"toolCalls": [{"id": "c", "name": "x", "arguments": 3}]}]}', "arguments"),
    ],
)
def test_a_bad_script_is_a_clear_model_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ModelError, match=message) as caught:
        ScriptModel.from_file(path)
    assert str(path) in str(caught.value)


def test_a_missing_script_is_a_clear_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"cannot read model script .*missing\.json"):
        ScriptModel.from_file(tmp_path / "missing.json")


def test_a_scripts_types_build_their_schemas_only_when_a_script_is_read(tmp_path: Path) -> None:
    # Every session imports the module (to know a scripted model); only reading a script pays
    # for the schemas, in a fresh interpreter where nothing built them yet.
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"turns": [{"text": "hi"}]}))
    code = (
        "import sys\n"
        "from tether.models import script\n"
        "types = (script.ScriptTurn, script.ScriptToolCall, script.ScriptUsage, script._Script)\n"
        "print(any(kind.__pydantic_complete__ for kind in types))\n"
        "script.ScriptModel.from_file(__import__('pathlib').Path(sys.argv[1]))\n"
        "print(script._Script.__pydantic_complete__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]
