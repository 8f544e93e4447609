"""The generic card: kind badge, title, text or raw input, and locations."""

from __future__ import annotations

import json

from tests.render.helpers import body_lines, plain, segments
from tether.render import render_call_view, render_result_view
from tether.render.generic_card import MAX_INPUT_CHARS
from tether.views import (
    DiffResultView,
    GenericCallView,
    GenericResultView,
    ImageAttachment,
    LinkAttachment,
    Location,
    ResourceAttachment,
)


def test_call_with_kind_badge_and_locations() -> None:
    view = GenericCallView(
        title="Read src/a.py",
        kind="read",
        locations=(Location(path="src/a.py", line=10), Location(path="docs")),
    )
    text = plain(render_call_view(view))
    assert text.splitlines()[0].startswith("╭─  read  Read src/a.py ─")
    assert body_lines(text) == ["src/a.py:10  docs"]
    segs = segments(render_call_view(view))
    badge = next(s for s in segs if s.text == " read ")
    assert badge.style is not None and badge.style.reverse
    title = next(s for s in segs if s.text == "Read src/a.py")
    assert title.style is not None and title.style.bold
    places = next(s for s in segs if "src/a.py:10" in s.text)
    assert places.style is not None and places.style.dim


def test_call_content_wins_over_raw_input() -> None:
    view = GenericCallView(title="fetch", content="GET https://example.org", raw_input={"u": 1})
    assert body_lines(plain(render_call_view(view))) == ["GET https://example.org"]


def test_call_raw_input_as_compact_json_and_cut_when_long() -> None:
    short = GenericCallView(title="tool", raw_input={"q": "x", "n": [1, 2]})
    assert body_lines(plain(render_call_view(short))) == ['{"q": "x", "n": [1, 2]}']
    raw_text = GenericCallView(title="tool", raw_input="not json {")
    assert body_lines(plain(render_call_view(raw_text))) == ["not json {"]
    raw = {"k": "v" * (MAX_INPUT_CHARS * 2)}
    dumped = json.dumps(raw)
    body = "".join(
        body_lines(plain(render_call_view(GenericCallView(title="tool", raw_input=raw))))
    )
    assert body.endswith(f"… {len(dumped) - MAX_INPUT_CHARS} more characters")
    assert body.count("v") == MAX_INPUT_CHARS - len('{"k": "')


def test_call_with_nothing_but_a_title() -> None:
    text = plain(render_call_view(GenericCallView(title="think")))
    assert "think" in text.splitlines()[0]
    assert body_lines(text) == [""]


def test_result_title_and_text() -> None:
    view = GenericResultView(title="Done", content="first\nsecond")
    text = plain(render_result_view(view))
    assert "Done" in text.splitlines()[0]
    assert body_lines(text) == ["first", "second"]


def test_result_without_anything() -> None:
    text = plain(render_result_view(GenericResultView()))
    assert body_lines(text) == ["no content"]


def test_result_attachments_are_named_with_their_type_and_size() -> None:
    view = GenericResultView(
        content="Here is the README.",
        attachments=(
            ImageAttachment(mime_type="image/png", bytes=68),
            ResourceAttachment(
                uri="file:///p/README.md", mime_type="text/markdown", bytes=2300, text="# P\n"
            ),
            LinkAttachment(uri="https://example.invalid/a.png", name="a.png", size=3 << 20),
            ResourceAttachment(uri="file:///p/blob.bin", bytes=10),
        ),
    )
    assert body_lines(plain(render_result_view(view))) == [
        "Here is the README.",
        " image   image/png · 68 B",
        " resource  file:///p/README.md  text/markdown · 2.2 KB",
        " link  a.png  https://example.invalid/a.png  3.0 MB",
        " resource  file:///p/blob.bin  10 B",
    ]
    only_image = GenericResultView(attachments=(ImageAttachment(mime_type="image/gif", bytes=1),))
    assert body_lines(plain(render_result_view(only_image))) == [" image   image/gif · 1 B"]


def test_a_failed_result_is_titled_by_its_call_marked_failed_and_red() -> None:
    call = GenericCallView(title="Edit a.py", kind="edit")
    view = GenericResultView(content="edit requires reading /w/a.py first")
    text = plain(render_result_view(view, call, failed=True))
    assert "Edit a.py" in text.splitlines()[0]
    assert "failed" in text.splitlines()[-1]
    assert body_lines(text) == ["edit requires reading /w/a.py first"]
    segs = segments(render_result_view(view, call, failed=True))
    error = next(s for s in segs if s.text.startswith("edit requires"))
    assert error.style is not None and error.style.color is not None
    assert error.style.color.name == "red"
    # A card of its own for a failure a tool still drew (a diff, say) gets the mark too.
    other = plain(render_result_view(DiffResultView(title="Edit", diffs=()), failed=True))
    assert "failed the call failed" in other.splitlines()[-1]


def test_markdown_content_is_rendered_on_both_sides_and_plain_text_is_not() -> None:
    plan = "## Plan\n\n1. Rename `helo`.\n2. Run **all** tests.\x1b[2J"
    call = plain(render_call_view(GenericCallView(title="Plan", content=plan, markdown=True)))
    result = plain(render_result_view(GenericResultView(content=plan, markdown=True)))
    for text in (call, result):
        lines = body_lines(text)
        assert lines[0] == "Plan"
        assert " 1 Rename helo." in lines
        assert " 2 Run all tests.␛[2J" in lines  # an escape is shown, never sent raw
    bold = next(
        s
        for s in segments(render_call_view(GenericCallView(title="P", content=plan, markdown=True)))
        if s.text == "all"
    )
    assert bold.style is not None and bold.style.bold
    # Text that is not Markdown is printed as it is.
    assert body_lines(plain(render_result_view(GenericResultView(content=plan))))[0] == "## Plan"
