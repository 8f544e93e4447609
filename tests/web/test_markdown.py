"""`markdown_html`: CommonMark with tables and task lists, raw HTML off, only safe links."""

from __future__ import annotations

import pytest

from tether.web.markdown import markdown_html, safe_url


def test_markdown_renders_headings_tables_tasks_and_highlighted_fences() -> None:
    html = markdown_html(
        "## Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n\n"
        "```python\ndef f():\n    return 1\n```\n"
    )
    assert "<h2>Title</h2>" in html
    assert "<td>1</td>" in html
    assert 'aria-label="done"' in html and 'aria-label="to do"' in html
    assert "<input" not in html
    assert '<pre class="md-code hl" data-lang="python">' in html
    assert '<span class="k">def</span>' in html


def test_raw_html_is_text_and_unsafe_links_are_not_links() -> None:
    html = markdown_html(
        "<img src=x onerror=alert(1)> [x](javascript:alert(1)) ![i](javascript:alert(2)) "
        "[t](java\tscript:alert(3)) <script>alert(4)</script> [ok](https://a.example/b)"
    )
    assert "<img" not in html and "<script" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert 'href="javascript' not in html.lower() and 'src="javascript' not in html.lower()
    assert '<a href="https://a.example/b" target="_blank" rel="noopener noreferrer">ok</a>' in html


@pytest.mark.parametrize(
    ("url", "safe"),
    [
        ("https://x.org", True),
        ("http://x.org", True),
        ("mailto:a@b.c", True),
        ("docs/readme.md", True),
        ("#section", True),
        ("javascript:alert(1)", False),
        (" JaVaScRiPt:alert(1)", False),
        ("java\nscript:alert(1)", False),
        ("data:text/html,<b>", False),
        ("vbscript:x", False),
        ("file:///etc/passwd", False),
    ],
)
def test_safe_url(url: str, safe: bool) -> None:
    assert safe_url(url) is safe
