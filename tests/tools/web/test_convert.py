"""Bodies to text: charsets, content types, and the HTML budget that bounds memory."""

from __future__ import annotations

import codecs

import pytest

from tether.tools.web.convert import HTML_BUDGETS, content_kind, convert, sniff_kind
from tether.tools.web.decode import decode_body, media_type


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("text/html; charset=UTF-8", ("text/html", "UTF-8")),
        ('Text/HTML;Charset="windows-1251"', ("text/html", "windows-1251")),
        ("application/json", ("application/json", None)),
        ("text/plain; format=flowed; charset=", ("text/plain", None)),
        ("", ("", None)),
    ],
)
def test_media_type(header: str, expected: tuple[str, str | None]) -> None:
    assert media_type(header) == expected


@pytest.mark.parametrize(
    ("media", "kind"),
    [
        ("text/html", "html"),
        ("application/xhtml+xml", "html"),
        ("application/json", "json"),
        ("application/vnd.api+json", "json"),
        ("text/markdown", "text"),
        ("text/plain", "text"),
        ("text/csv", "text"),
        ("application/xml", "text"),
        ("application/atom+xml", "text"),
        ("image/png", None),
        ("application/pdf", None),
        ("application/octet-stream", None),
        ("video/mp4", None),
    ],
)
def test_content_kinds(media: str, kind: str | None) -> None:
    assert content_kind(media) == kind


def test_an_undeclared_body_is_sniffed() -> None:
    assert sniff_kind(b"  <!DOCTYPE html><html>") == "html"
    assert sniff_kind(b"<HTML><body>") == "html"
    assert sniff_kind(b"just words") == "text"
    assert sniff_kind(b"") == "text"
    assert sniff_kind(b"PK\x03\x04\0\0binary") is None


def test_decoding_prefers_a_bom_then_the_header_then_meta() -> None:
    text = "naïve ünïcode"
    assert decode_body(codecs.BOM_UTF8 + text.encode(), "latin-1", html=False) == text
    assert decode_body(codecs.BOM_UTF16_LE + text.encode("utf-16-le"), None, html=True) == text
    assert decode_body(text.encode("koi8-r", "replace"), "koi8-r", html=False).startswith("na")
    page = '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-15">€'
    assert decode_body(page.encode("iso-8859-15"), None, html=True).endswith("€")
    # An unknown label falls back to UTF-8, and bad bytes become U+FFFD instead of failing.
    assert decode_body(b"ok \xff", "no-such-charset", html=False) == "ok \ufffd"
    # HTML's latin-1 is windows-1252, as browsers read it: 0x80 is the euro sign.
    assert decode_body(b"\x80", "ISO-8859-1", html=True) == "€"
    assert decode_body(b"\x80", "ISO-8859-1", html=False) == "\x80"


def test_html_past_the_first_budget_is_converted_in_a_larger_prefix_only_when_needed() -> None:
    row = "<p>" + "word " * 18 + "</p>\n"
    dense = "<html><body>" + row * (HTML_BUDGETS[1] // len(row) * 2) + "</body></html>"
    small = convert(dense, "html", url="https://e.com/", wanted=1_000)
    assert small.cut and len(small.text) >= 1_000
    sparse = "<html><body>" + "<script>x</script>" * 1 + "<div></div>" * 200_000 + "<p>end</p>"
    found = convert(sparse, "html", url="https://e.com/", wanted=100_000)
    assert found.cut and "end" not in found.text  # the end lies past the largest budget


def test_scripts_styles_and_comments_are_dropped_before_conversion() -> None:
    page = (
        "<title> A &amp; B </title><!-- <p>hidden</p> --><p>one</p><script>var a = '<p>x</p>'"
        "</script ><style>p{}</style><svg><text>svg</text></svg><p>two</p><script>never closed"
    )
    converted = convert(page, "html", url="https://e.com/", wanted=1000)
    assert converted.text == "one\n\ntwo\n"
    assert converted.title == "A & B"
    assert convert("<p>no title</p>", "html", url="https://e.com/", wanted=10).title is None


def test_json_is_pretty_printed_unless_it_is_not_json() -> None:
    assert convert('{"a":1}', "json", url="https://e.com/", wanted=10).text == '{\n  "a": 1\n}\n'
    assert convert("{not json", "json", url="https://e.com/", wanted=10).text == "{not json"
    assert convert("[" * 100_000, "json", url="https://e.com/", wanted=10).text == "[" * 100_000
