"""The highlighter's tokens join to the lines they were made from, whatever the language and
the text: a card drawn without colour shows the lines themselves and lexes nothing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tether.highlight import highlight_lines

LANGS = [
    None,
    "",
    "python",
    "py",
    "javascript",
    "ts",
    "c",
    "cpp",
    "h",
    "rust",
    "go",
    "java",
    "json",
    "jsonc",
    "yaml",
    "toml",
    "html",
    "xml",
    "php",
    "md",
    "bash",
    "zsh",
    "sql",
    "css",
    "diff",
    "ini",
    "dockerfile",
    "makefile",
    "text",
    "no-such-language",
]
PIECES = st.sampled_from(
    [
        *"ab1 (){}[]<>\"'`#/*-+=;:,.?!$@%&|\\",
        "\t",
        "\r",
        "\x00",
        "\x1b",
        "名",
        "🎉",
        "e\u0301",
        "<?php",
        "?>",
        "/*",
        "*/",
        '"""',
        "```",
        "def ",
        "if ",
        "--",
        "<!--",
        "-->",
        "\u2028",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.lists(PIECES, max_size=12).map("".join), min_size=1, max_size=5),
    lang=st.sampled_from(LANGS),
)
def test_each_line_s_tokens_join_to_the_line(lines: list[str], lang: str | None) -> None:
    tokens = highlight_lines(lines, lang)
    assert ["".join(piece for _, piece in line) for line in tokens] == lines


def test_a_line_break_inside_a_line_is_a_space() -> None:
    [line] = highlight_lines(["a = 1\nb = 2"], "python")
    assert "".join(piece for _, piece in line) == "a = 1 b = 2"
