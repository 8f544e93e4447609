"""The shortcuts a card takes draw what rich's own way draws: a code line's text made at once,
code rows drawn as one text, Markdown parsed by one shared parser, a window's highlighting
kept for when it is shown again."""

from __future__ import annotations

import io

from rich import box
from rich.console import Console, Group
from rich.markdown import Markdown
from rich.panel import Panel
from rich.text import Text

from tether.highlight import highlight_lines
from tether.render.code import code_view
from tether.render.markdown import markdown
from tether.render.theme import GUTTER, card, code_text, printable, token_style

TOKENS = [
    ("k", "def"),
    ("", " "),
    ("nf", "run\x1b[2J"),
    ("p", "("),
    ("", ""),
    ("s2", '"tab\there\r"'),
    ("c1", "  # bell\x07 back\x08"),
    ("zz", "unknown class"),
    ("err", "\x7f\x85"),
]

FRAME = {"box": box.ROUNDED, "border_style": "bright_black", "padding": (0, 1)}
"""A card's frame, as `theme.card` sets it."""

MARKDOWN = [
    "Plain words, *emphasis*, **strong**, `code` and ~~struck~~.",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "```python\ndef run():\n    return 1\n```",
    "- one\n- two\n  1. nested\n\n> quoted [link](https://example.org)",
    "# Heading\n\nText <b>html</b> and a line  \nbreak.",
]


def drawn(renderable: object, colour: bool, width: int = 60) -> str:
    console = Console(
        file=io.StringIO(), width=width, force_terminal=colour, color_system="truecolor"
    )
    console.print(renderable)
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def test_a_code_line_is_the_text_rich_appends_piece_by_piece() -> None:
    appended = Text(no_wrap=True, overflow="ellipsis", end="")
    for css, piece in TOKENS:
        appended.append(printable(piece), token_style(css))
    made = code_text(TOKENS)
    assert made.plain == appended.plain
    assert made.spans == appended.spans
    for colour in (False, True):
        assert drawn(made, colour) == drawn(appended, colour)


def test_markdown_parses_with_rich_s_own_parser_settings() -> None:
    for text in MARKDOWN:
        own = Markdown(text, code_theme="ansi_dark", hyperlinks=False)
        shared = markdown(text)
        assert shared.parsed == own.parsed
        assert vars(shared) == vars(own)
        for colour in (False, True):
            assert drawn(shared, colour) == drawn(own, colour)


def test_a_window_highlighted_again_is_the_same_and_its_own() -> None:
    short = ['x = """first', "second", 'third"""', "y = 1"]
    long = [f"value_{n} = compute({n})  # step {n}" for n in range(100)]
    for lines in (short, long):
        first = highlight_lines(lines, "py")
        first[0].append(("k", "changed by a caller"))
        again = highlight_lines(lines, "py")
        assert again[0][-1] != ("k", "changed by a caller")
        assert ["".join(text for _, text in line) for line in again] == [
            line.replace("\n", " ") for line in lines
        ]


def test_code_rows_are_drawn_as_one_text_of_each_row_would_be() -> None:
    lines = [
        "def run():",
        "",
        "    return 'a long line that goes on well past the edge of a narrow card' * 3",
        "    名前 = '日本語のテキストが端で切れる' + '絵文字 🎉🎉🎉 も幅が二つ' * 2",
        "\tx = '\\x1b[2J'  # an escape, shown",
        "   ",
        "y = 1",
    ]
    numbers = [1, 2, 3, 40, 41, 99, 100]
    rows = []
    for number, tokens in zip(numbers, highlight_lines(lines, "py"), strict=True):
        row = Text(no_wrap=True, overflow="ellipsis")
        row.append(f"{number:>3} │ ", GUTTER)
        rows.append(row.append_text(code_text(tokens)))
    for width in (20, 33, 60, 120):
        for colour in (False, True):
            # The reference is rich's own panel, as a card was before it drew its own lines.
            own = drawn(Panel(Group(*rows), **FRAME), colour, width)
            assert drawn(card(code_view(numbers, lines, "py")), colour, width) == own
