"""Rendering cards for people: the terminal renderer (rich)."""

from tether.render.terminal import render_call_view, render_result_view

__all__ = ["render_call_view", "render_result_view"]
