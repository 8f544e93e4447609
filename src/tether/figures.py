"""Numbers as people read them, the same on every surface: token counts and durations."""

from __future__ import annotations

__all__ = ["dollars", "duration", "short_tokens"]


def short_tokens(count: int) -> str:
    """A token count the way people read it: `950`, `9.8k`, `23.1k`, `104k`, `1.2M`."""
    if count < 1000:
        return str(count)
    if count < 100_000:
        return f"{count / 1000:.1f}".removesuffix(".0") + "k"
    if count < 1_000_000:
        return f"{count // 1000}k"
    return f"{count / 1_000_000:.1f}".removesuffix(".0") + "M"


def dollars(cost: float | None) -> str:
    """A cost the way people read it: `$0.0042`, `$1.37`; `unknown` when a price is not known
    (never `$0`, which would say it was free)."""
    if cost is None:
        return "unknown"
    return f"${cost:.2f}" if cost >= 1 else f"${cost:.4f}"


def duration(ms: int) -> str:
    """A short run's length: `15 ms`, `1.2 s`."""
    return f"{ms} ms" if ms < 1000 else f"{ms / 1000:.1f} s"
