"""Retrying a model request: exponential backoff with jitter, bounded, honouring `retry-after`.

Both providers disable their SDK's own retries and use this loop instead, for two reasons:
the backoff must be tunable per model (tests use a few milliseconds), and a request may only
be retried while nothing of it has reached the caller yet.

Whoever shows the request's progress (the terminal's spinner line) learns of each retry
through `retry_notices`, a context variable set around the request: a retry is never silent.
"""

from __future__ import annotations

import asyncio
import email.utils
import math
import random
import time
from collections.abc import AsyncGenerator, Callable, Mapping
from contextlib import aclosing
from contextvars import ContextVar
from dataclasses import dataclass

from tether.errors import ModelError
from tether.models.base import ModelEvent

__all__ = [
    "Failure",
    "RetryNotice",
    "RetryPolicy",
    "parse_retry_after",
    "retry_notices",
    "retrying",
]

RETRYABLE_STATUS = frozenset({408, 409, 429})
"""Statuses worth another try besides every 5xx: timeout, lock conflict, rate limit."""


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry a request that failed before streaming."""

    attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 60.0

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("a retry policy needs at least one attempt")

    def backoff(self, attempt: int) -> float:
        """The wait after failed attempt number `attempt` (1-based): doubling, capped, jittered."""
        ceiling = min(self.base_delay * 2.0 ** (attempt - 1), self.max_delay)
        # Jitter in [50%, 100%] spreads clients that failed together without ever waiting 0.
        return ceiling * (0.5 + random.random() / 2)

    def wait(self, attempt: int, retry_after: float | None) -> float:
        """The wait after failed attempt `attempt`; the server's `retry-after` wins when given."""
        if retry_after is not None and retry_after >= 0:
            return retry_after
        return self.backoff(attempt)

    @staticmethod
    def is_retryable_status(status: int) -> bool:
        """Whether an HTTP status is transient (rate limits, timeouts, server errors)."""
        return status in RETRYABLE_STATUS or status >= 500


def parse_retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait from `retry-after-ms` or `retry-after` (seconds or an HTTP date)."""
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / divisor
        except ValueError:
            continue
        if math.isfinite(seconds):
            return max(seconds, 0.0)
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - time.time(), 0.0)


@dataclass(frozen=True)
class Failure:
    """What went wrong with one attempt, as the retry loop needs it."""

    error: ModelError
    retryable: bool = False
    retry_after: float | None = None
    short: str = ""
    """The failure in a few words for a status line (`500 from api.example`)."""


@dataclass(frozen=True)
class RetryNotice:
    """A request failed and is tried again: `attempt` of `attempts` comes after `delay` s."""

    attempt: int
    attempts: int
    delay: float
    reason: str
    waiting: bool = True
    """True while waiting to try again; False once the new attempt is under way."""

    @property
    def text(self) -> str:
        """`retrying in 2 s · 500 from api.example (2/4)`, then `retrying now · ...`."""
        when = f"in {_seconds(self.delay)}" if self.waiting else "now"
        reason = f" · {self.reason}" if self.reason else ""
        return f"retrying {when}{reason} ({self.attempt}/{self.attempts})"


def _seconds(delay: float) -> str:
    return f"{delay:.0f} s" if delay >= 1.5 else f"{delay:.1f} s"


retry_notices: ContextVar[Callable[[RetryNotice], None] | None] = ContextVar(
    "retry_notices", default=None
)
"""Told of each retry of the requests made in this context (`None`: nobody listens)."""


async def retrying(
    attempt: Callable[[], AsyncGenerator[ModelEvent, None]],
    classify: Callable[[Exception], Failure],
    policy: RetryPolicy,
) -> AsyncGenerator[ModelEvent, None]:
    """Run `attempt` until it streams, retrying transient failures that happen before any event.

    Once an event has been yielded the request is never repeated: a failure then is final.
    Every failure leaves as a `ModelError`; cancellation passes through untouched.
    """
    for number in range(1, policy.attempts + 1):
        started = False
        try:
            # aclosing: a caller that stops early must close the HTTP stream now, not at GC.
            async with aclosing(attempt()) as events:
                async for event in events:
                    started = True
                    yield event
            return
        except Exception as exc:
            failure = classify(exc)
            too_long = failure.retry_after is not None and (
                failure.retry_after > policy.max_retry_after
            )
            if started or not failure.retryable or too_long:
                if failure.error is exc:
                    raise
                raise failure.error from exc
            if number == policy.attempts:
                raise ModelError(f"{failure.error} (gave up after {number} attempts)") from exc
            delay = policy.wait(number, failure.retry_after)
            notice = RetryNotice(number + 1, policy.attempts, delay, failure.short)
            _tell(notice)
            await asyncio.sleep(delay)
            _tell(RetryNotice(number + 1, policy.attempts, 0.0, failure.short, waiting=False))


def _tell(notice: RetryNotice) -> None:
    listener = retry_notices.get()
    if listener is not None:
        listener(notice)
