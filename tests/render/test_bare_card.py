"""Without colour, a card whose parts and title fit is drawn as one piece of bare text: the
text rich's `Panel` writes, with no segment per border, side or part."""

from __future__ import annotations

import io

from rich.console import Console, Group
from rich.text import Text

from tests.render.helpers import as_rich_draws, drawn
from tether.render.code import code_view
from tether.render.theme import HEADING, SUBTLE, assembled, card, note, pill
from tether.render.written import _print_options


def test_a_plain_card_that_fits_is_one_piece_of_its_bare_text() -> None:
    made = card(
        Group(code_view([7, 8], ["def f():", "    return 1"], "python"), note("… 3 more")),
        title=assembled(("src/app.py", HEADING), "  ", ("lines 7–8 of 11", SUBTLE)),
        subtitle=pill("exit 0", ok=True),
    )
    console = Console(file=io.StringIO(), width=50, color_system=None, highlight=False)
    segments = made.drawn(console, _print_options(console))
    assert segments is not None and len(segments) == 1
    assert segments[0].style is None and not segments[0].control
    assert segments[0].text == drawn(as_rich_draws(made), "plain", 50)
    # A title too long for its border is laid out by rich, the rest still bare text.
    narrow = card(Text("ok"), title=Text("a title far too long for this card"))
    console = Console(file=io.StringIO(), width=20, color_system=None, highlight=False)
    pieces = narrow.drawn(console, _print_options(console))
    assert pieces is not None and len(pieces) > 1
    assert "".join(piece.text for piece in pieces) == drawn(as_rich_draws(narrow), "plain", 20)
