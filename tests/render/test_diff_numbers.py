"""Numbers on the diff card point at the right lines, for hunks made by the edit tool's differ."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.render.helpers import body_lines, plain
from tether.linediff import hunks
from tether.render import render_result_view
from tether.views import DiffResultView, FileDiff, Location

WORDS = st.sampled_from(["alpha", "beta", "gamma", "delta", "eps"])


def edited_view(old: str, new: str) -> DiffResultView:
    found = hunks(old, new)
    return DiffResultView(
        diffs=tuple(
            FileDiff(path="f.txt", old_text=h.old_text, new_text=h.new_text) for h in found
        ),
        locations=tuple(Location(path="f.txt", line=h.new_start) for h in found),
    )


def check_numbers(old: str, new: str) -> int:
    """Every numbered row shows the text of that line in the old or new file; rows checked."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    checked = 0
    for row in body_lines(plain(render_result_view(edited_view(old, new)), width=200)):
        gutter, sep, rest = row.partition(" │ ")
        if not sep:
            continue
        half = len(gutter) // 2
        old_no, new_no = gutter[:half].strip(), gutter[half + 1 :].strip()
        sign, text = rest[0], rest[2:]
        if old_no:
            assert sign in " -"
            assert old_lines[int(old_no) - 1] == text
        if new_no:
            assert sign in " +"
            assert new_lines[int(new_no) - 1] == text
        checked += 1
    return checked


def test_two_far_apart_hunks_one_of_which_adds_lines() -> None:
    old = "".join(f"line {i}\n" for i in range(1, 101))
    new = old.replace("line 20\n", "line 20\nextra a\nextra b\n").replace("line 80\n", "LINE 80\n")
    assert len(hunks(old, new)) == 2
    assert check_numbers(old, new) == 16


@settings(max_examples=60, deadline=None)
@given(
    base=st.lists(WORDS, min_size=0, max_size=40),
    edits=st.lists(
        st.tuples(st.integers(0, 40), st.integers(0, 3), st.lists(WORDS, max_size=3)), max_size=4
    ),
)
def test_numbers_match_the_files_for_any_edit(
    base: list[str], edits: list[tuple[int, int, list[str]]]
) -> None:
    lines = list(base)
    for where, drop, insert in edits:
        at = min(where, len(lines))
        lines[at : at + drop] = insert
    old = "".join(f"{w}\n" for w in base)
    new = "".join(f"{w}\n" for w in lines)
    check_numbers(old, new)
