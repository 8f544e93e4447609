"""The text form's header line: rich's emoji codes are left to rich only where one may be read."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from rich._emoji_codes import EMOJI
from rich.console import Console

from tether.cli.show import _emoji_free

_CODES = st.builds(
    lambda name, variant: f":{name}{variant}:",
    st.sampled_from(["29", "05", "100", "1234", "٢٩", "smile", "+1", "", "a:b"]),
    st.sampled_from(["", "-emoji", "-text"]),
)
_PIECES = st.one_of(st.sampled_from([":", " ", "/", "T", "-", "29", "smile"]), _CODES)


def _printed(text: str, *, emoji: bool) -> str:
    out = io.StringIO()
    Console(file=out, width=60, color_system=None).print(text, markup=False, emoji=emoji)
    return out.getvalue()


def test_no_emoji_is_named_by_two_digits() -> None:
    # What `_emoji_free` stands on: a time's minutes (`19:29:23`) never read as an emoji.
    assert not [name for name in EMOJI if len(name) == 2 and name.isdigit()]


def test_a_header_line_is_told_emoji_free_without_the_table() -> None:
    assert _emoji_free("session 0190ab · /work/app · 2026-01-01T19:29:23.708Z")
    assert not _emoji_free("session 0190ab · /work/:smile: · 2026-01-01T19:29:23.708Z")
    assert not _emoji_free("at 10:100:") and not _emoji_free(":1234:")


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES, max_size=8).map("".join))
def test_what_is_told_emoji_free_is_printed_as_rich_prints_it(text: str) -> None:
    assert _printed(text, emoji=not _emoji_free(text)) == _printed(text, emoji=True)
