"""A call's arguments are decoded once: for their validation and for the `rawInput` shown."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from tether.session.calls import prepare
from tether.session.log.events import ToolCallEvent
from tether.session.updates import CLIENT_UPDATE, ToolCallStarted
from tether.tools.defaults import replay_tools
from tether.tools.invocation import parse_arguments
from tether.tools.present import MAX_RAW_INPUT_DEPTH, raw_input

TOOLS = replay_tools()


def shown(raw: str) -> object:
    """What `rawInput` holds for `raw`, said apart from the code: strict JSON (no `NaN`,
    none nested past the limit) decoded, else the text as it came."""

    def refuse(name: str) -> object:
        raise ValueError(name)

    try:
        value = json.loads(raw, parse_constant=refuse)
    except (ValueError, RecursionError):
        return raw
    return raw if depth_of(value) > MAX_RAW_INPUT_DEPTH else value


def depth_of(value: object) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = (
            list(item.values())
            if isinstance(item, dict)
            else item
            if isinstance(item, list)
            else None
        )
        if children is not None:
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in children)
    return deepest


def nested(depth: int, inner: str) -> str:
    return '{"path": ' + "[" * (depth - 1) + inner + "]" * (depth - 1) + "}"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)

ARGUMENTS = st.one_of(
    st.builds(json.dumps, JSON, ensure_ascii=st.booleans()),
    st.builds(json.dumps, st.dictionaries(st.sampled_from(["path", "offset", "x"]), JSON)),
    st.sampled_from(
        [
            "",
            "  \n",
            "{}",
            " {} ",
            "[]",
            '"text"',
            '{"path": "a.py"',
            '{"path": "\\ud800"}',  # a lone surrogate
            '{"path": "\\udfff\\ud800x"}',
            '{"path": NaN}',
            '{"path": "a", "offset": Infinity}',
            '{"path": "a", "offset": -Infinity}',
            '{"path": "a", "offset": 123456789012345678901234567890}',
            '{"path": "a", "path": "b"}',  # a key given twice: the last one counts
            '{"path": "a", "offset": 1e400}',
            '\ufeff{"path": "a"}',
            '{"path": "a"} x',
            "[" * 2_000 + "]" * 2_000,
            *(
                nested(depth, inner)
                for depth in (MAX_RAW_INPUT_DEPTH - 1, MAX_RAW_INPUT_DEPTH, 65, 66, 900)
                for inner in ("", '"[{"')
            ),
        ]
    ),
    st.text(max_size=12),
)


@settings(max_examples=400, deadline=None)
@given(raw=ARGUMENTS, name=st.sampled_from(["read", "bash", "edit", "todo", "unknown"]))
def test_a_call_shows_and_validates_its_arguments_as_each_alone_would(raw: str, name: str) -> None:
    call = prepare(TOOLS, ToolCallEvent(tool_call_id="c1", name=name, arguments=raw), "/w")
    assert repr(call.raw_input) == repr(shown(raw)) == repr(raw_input(raw))
    tool = TOOLS.get(name)
    if tool is not None:
        alone = parse_arguments(tool, raw)
        assert (call.args, call.rejected) in ((alone, None), (None, alone))
    started = call.started()
    # Written as the arguments' text alone makes it: the update made from the class, which
    # decodes them again.
    made = ToolCallStarted(tool_call_id="c1", name=name, arguments=raw, view=started.view)
    assert started == made
    assert dumped(started) == dumped(made)


def dumped(update: ToolCallStarted) -> object:
    try:
        return CLIENT_UPDATE.dump_json(update, by_alias=True)
    except ValueError:  # a lone surrogate: the document escapes it
        return json.dumps(CLIENT_UPDATE.dump_python(update, mode="json", by_alias=True))
