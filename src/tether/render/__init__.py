"""Rendering cards for people: the terminal renderer (rich).

The cards load with their first use, so a command that needs only `printable` (`pictures`)
(`tether sessions`) does not load every card and Pygments with it.
"""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
    from tether.render.terminal import render_call_view, render_result_view

__all__ = ["render_call_view", "render_result_view"]

__getattr__ = lazy_names(
    __name__,
    {
        "render_call_view": "tether.render.terminal",
        "render_result_view": "tether.render.terminal",
    },
)
