"""WCAG contrast: the ratio itself, colours moved until they read, and the page's highlight
stylesheet, every token colour of which reaches AA on every background it is drawn on."""

from __future__ import annotations

import re

import pytest

from tether.web.app import DARK_BACKGROUNDS, LIGHT_BACKGROUNDS, highlight_css
from tether.web.contrast import AA_RATIO, contrast, readable, readable_css


def test_contrast_is_wcag_s_ratio() -> None:
    assert contrast("#000", "#fff") == pytest.approx(21.0)
    assert contrast("#ffffff", "#ffffff") == pytest.approx(1.0)
    # Symmetric, and WCAG's published example: #777 on white is 4.48:1.
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast("#ffffff", "#777777") == contrast("#777777", "#ffffff")


def test_a_readable_colour_is_left_alone_and_a_faint_one_moves_only_as_far_as_needed() -> None:
    assert readable("#1f2328", LIGHT_BACKGROUNDS, dark=False) == "#1f2328"
    # Pygments friendly's `.nn` (4.06:1 on white) gets darker, keeping its hue.
    fixed = readable("#0e84b5", LIGHT_BACKGROUNDS, dark=False)
    assert fixed != "#0e84b5"
    assert all(contrast(fixed, bg) >= AA_RATIO for bg in LIGHT_BACKGROUNDS)
    red, green, blue = (int(fixed[i : i + 2], 16) for i in (1, 3, 5))
    assert blue > green > red
    # Moved no further than needed: one step less would not do.
    assert contrast(fixed, "#fff6d6") < AA_RATIO + 0.5
    # On dark backgrounds a colour moves toward white instead.
    light = readable("#30363d", DARK_BACKGROUNDS, dark=True)
    assert all(contrast(light, bg) >= AA_RATIO for bg in DARK_BACKGROUNDS)


def test_readable_css_changes_text_colours_only() -> None:
    css = ".c { color: #aaaaaa; background-color: #aaaaaa; border-color: #aaa }"
    out = readable_css(css, ("#ffffff",), dark=False)
    assert "background-color: #aaaaaa" in out and "border-color: #aaa" in out
    found = re.search(r"(?<![-\w])color: (#[0-9a-f]{6})", out)
    assert found is not None and contrast(found.group(1), "#ffffff") >= AA_RATIO


def test_every_token_colour_of_the_highlight_stylesheet_reads_in_both_themes() -> None:
    css = highlight_css()
    light, _, dark = css.partition("@media (prefers-color-scheme: dark)")
    for part, backgrounds in ((light, LIGHT_BACKGROUNDS), (dark, DARK_BACKGROUNDS)):
        colours = re.findall(r"(?<![-\w])color: (#[0-9a-fA-F]{3,6})\b", part)
        assert len(colours) > 20
        for colour in colours:
            for background in backgrounds:
                assert contrast(colour, background) >= AA_RATIO, (colour, background)
