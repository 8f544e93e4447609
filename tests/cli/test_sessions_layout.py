"""`tether sessions`' table, laid out by hand: aligned columns, titles and cwds that give way."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from tether.cli.sessions import layout
from tether.session.log.store import ParentLink, StoredSession


def _session(n: int, title: str | None, cwd: str, parent: str | None = None) -> StoredSession:
    return StoredSession(
        id=f"20261205{n:06d}",
        cwd=cwd,
        title=title,
        created_at="2026-12-05T06:00:00+00:00",
        updated_at="2026-12-05T06:00:00+00:00",
        turns=n * 7,
        parent=ParentLink(id=parent, call_id="t1") if parent else None,
    )


def _lines(sessions: list[StoredSession], depths: list[int], width: int) -> list[str]:
    listed = [
        (("  " * (d - 1) + "└ " if d else "") + s.id, "06:00", s)
        for s, d in zip(sessions, depths, strict=True)
    ]
    text = layout(listed, {s.id: d for s, d in zip(sessions, depths, strict=True)}, width)
    return text.plain.split("\n")


def test_columns_line_up_and_a_long_title_or_cwd_gives_way() -> None:
    top = _session(1, "fix the retry loop in the client " * 3, "/home/someone" + "/deep" * 20)
    child = _session(2, "explore: find retry", "/elsewhere", parent=top.id)
    untitled = _session(3, None, "/srv/p")
    lines = _lines([top, child, untitled], [0, 1, 0], 80)
    assert lines[0].startswith("id                updated  turns  title · cwd")  # "└ " + id
    column = lines[0].index("title")
    title, cwd, child_row, bare, bare_cwd = lines[1:]
    assert all(cell_len(line) == 80 for line in lines)  # padded as a borderless table is
    assert title[column:].rstrip().endswith("…") and title.startswith(top.id)
    assert cwd[column:].startswith("…") and cwd.rstrip().endswith("/deep/deep")
    assert child_row.startswith(f"└ {child.id}") and child_row[column:].startswith("explore")
    assert bare[column:].startswith("(untitled)") and bare_cwd[column:].startswith("/srv/p")
    assert bare.split()[2] == "21"  # turns, right-aligned under their header
    assert bare.index("21") + 2 == lines[0].index("turns") + len("turns")


def test_a_short_table_is_as_wide_as_its_widest_title() -> None:
    lines = _lines([_session(1, "say hello", "/tmp/ws")], [0], 200)
    assert lines == [
        "id              updated  turns  title · cwd",
        "20261205000001  06:00        7  say hello  ",
        "                                /tmp/ws    ",
    ]


@settings(max_examples=60, deadline=None)
@given(
    titles=st.lists(st.text(min_size=0, max_size=60), min_size=1, max_size=5),
    width=st.integers(min_value=50, max_value=160),
)
def test_every_line_fits_and_titles_start_in_one_column(titles: list[str], width: int) -> None:
    sessions = [_session(n, title or None, f"/w/{n}" * n) for n, title in enumerate(titles)]
    lines = _lines(sessions, [0] * len(sessions), width)
    assert all(cell_len(line) <= width for line in lines)
    column = cell_len(lines[0][: lines[0].index("title")])
    for line in lines[1::2]:
        assert cell_len(line.split("  ")[0]) == 14  # the id, whole
    assert len(lines) == 1 + 2 * len(sessions)
    assert column == 14 + 2 + len("updated") + 2 + len("turns") + 2


def test_control_characters_in_a_header_stay_on_their_row_and_out_of_the_terminal() -> None:
    lines = _lines([_session(1, "two\nlines \x1b[2J here", "/tmp/a\rb")], [0], 100)
    assert len(lines) == 3
    # Each is shown as its control picture (a line break too), so the row stays one row.
    assert "two\u240alines \u241b[2J here" in lines[1] and "\x1b" not in "".join(lines)
    assert lines[2].strip() == "/tmp/a\u240db"
