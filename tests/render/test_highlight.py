"""Per-line highlighting: classes as Pygments' HtmlFormatter names them, one entry per line."""

from __future__ import annotations

import pytest
from pygments.token import Name, String, Token  # type: ignore[import-untyped]

from tether.highlight import css_class, highlight_lines, lexer_for
from tether.tools.fs.read_render import lang_from_path


def joined(tokens: list[tuple[str, str]]) -> str:
    return "".join(text for _, text in tokens)


def test_python_keywords_strings_and_functions_get_their_classes() -> None:
    lines = ["def greet(name):", '    return "hi " + name  # say it']
    out = highlight_lines(lines, "py")
    assert [joined(line) for line in out] == lines
    assert ("k", "def") in out[0]
    assert ("nf", "greet") in out[0]
    assert ("k", "return") in out[1]
    assert ("s2", '"hi "') in out[1]
    assert ("c1", "# say it") in out[1]


def test_multi_line_string_token_is_split_at_each_line() -> None:
    lines = ['x = """first', "second", 'third"""', "y = 1"]
    out = highlight_lines(lines, "python")
    assert [joined(line) for line in out] == lines
    assert out[1] == [("s2", "second")]
    assert out[2] == [("s2", 'third"""')]
    assert ("mi", "1") in out[3]


@pytest.mark.parametrize("lang", [None, "", "no-such-language", "plaintext"])
def test_unknown_or_missing_lang_gives_plain_text(lang: str | None) -> None:
    out = highlight_lines(["def f():", "  pass"], lang)
    assert out == [[("", "def f():")], [("", "  pass")]]


def test_empty_input_and_empty_lines() -> None:
    assert highlight_lines([], "py") == []
    assert highlight_lines(["", "a = 1", ""], "py")[0] == []
    assert highlight_lines(["", "a = 1", ""], "py")[2] == []


@pytest.mark.parametrize(
    ("lang", "name"),
    [
        ("ts", "TypeScript"),
        ("typescript", "TypeScript"),
        ("h", "C"),
        ("kt", "Kotlin"),
        ("hpp", "C++"),
        ("yml", "YAML"),
        ("PY", "Python"),
        ("markdown", "Markdown"),
        ("txt", "Text only"),
    ],
)
def test_extension_names_and_lexer_aliases_both_resolve(lang: str, name: str) -> None:
    assert lexer_for(lang).name == name


def test_carriage_return_inside_a_line_does_not_break_it() -> None:
    out = highlight_lines(["a = 1\r", "b = 2"], "py")
    assert [joined(line) for line in out] == ["a = 1\r", "b = 2"]


def test_newline_inside_a_line_keeps_one_entry_per_line() -> None:
    out = highlight_lines(["a\nb", "c"], None)
    assert [joined(line) for line in out] == ["a b", "c"]


def test_php_window_with_or_without_opening_tag() -> None:
    assert highlight_lines(["<?php", "echo 1;"], "php")[0] == [("cp", "<?php")]
    assert highlight_lines(["echo 1;"], "php")[0][0] == ("k", "echo")


def test_css_class_matches_html_formatter_for_subtypes() -> None:
    assert css_class(Token.Text) == ""
    assert css_class(String.Double) == "s2"
    assert css_class(Name.Function.Magic) == "fm"
    assert css_class(Name.Function.Custom) == "nf-Custom"


@pytest.mark.parametrize(
    "ext",
    "ts tsx js jsx json py rb go rs java c h cpp cs kt swift php sh yaml toml ini md html css "
    "scss sql xml lua mjs yml hpp zsh markdown".split(),
)
def test_every_lang_the_read_tool_names_has_a_real_lexer(ext: str) -> None:
    lang = lang_from_path(f"src/file.{ext}")
    assert lang is not None
    assert lexer_for(lang).name != "Text only"
    assert lexer_for(ext).name == lexer_for(lang).name
