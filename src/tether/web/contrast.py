"""Text colours made readable: WCAG contrast ratios, and a colour moved toward black (or
white) until it reaches a ratio against every background it is drawn on.

Pygments' styles are designed for their own backgrounds; some of their token colours fall
under WCAG AA's 4.5:1 on the page's (`friendly`'s comments, `.nn`). The page's highlight
stylesheet passes through `readable` so every token stays as close to its style as AA allows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["AA_RATIO", "contrast", "readable", "readable_css"]

AA_RATIO = 4.5
"""WCAG 2.2 AA's least contrast for normal text."""
_MARGIN = 0.1
"""Aimed above the ratio, so rounding in a browser's colour pipeline cannot fall under it."""
_HEX = re.compile(r"#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")
_STEPS = 100


def _rgb(colour: str) -> tuple[int, int, int]:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(foreground: str, background: str) -> float:
    """The WCAG contrast ratio of two `#rgb` / `#rrggbb` colours (1 to 21)."""
    a, b = _luminance(_rgb(foreground)), _luminance(_rgb(background))
    light, dark = max(a, b), min(a, b)
    return (light + 0.05) / (dark + 0.05)


def readable(colour: str, backgrounds: Sequence[str], *, dark: bool) -> str:
    """`colour`, or the nearest mix of it toward white (`dark` backgrounds) or black that
    reaches AA against each of `backgrounds`; lowercase `#rrggbb`."""
    rgb = _rgb(colour)
    target = (255, 255, 255) if dark else (0, 0, 0)
    for step in range(_STEPS + 1):
        share = step / _STEPS
        mixed = tuple(round(c + (t - c) * share) for c, t in zip(rgb, target, strict=True))
        candidate = "#{:02x}{:02x}{:02x}".format(*mixed)
        if all(contrast(candidate, bg) >= AA_RATIO + _MARGIN for bg in backgrounds):
            return candidate
    return "#ffffff" if dark else "#000000"


def readable_css(css: str, backgrounds: Sequence[str], *, dark: bool) -> str:
    """Every `color:` in `css` made `readable` (backgrounds and borders left as they are)."""

    def fix(match: re.Match[str]) -> str:
        return "color: " + readable(match.group(1), backgrounds, dark=dark)

    return re.sub(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{3,6})\b", fix, css)
