"""The shared retry policy: backoff bounds and `retry-after` parsing."""

from __future__ import annotations

import email.utils
import time

from hypothesis import given
from hypothesis import strategies as st

from tether.models.retry import RetryPolicy, parse_retry_after


@given(st.integers(min_value=1, max_value=60))
def test_backoff_doubles_within_jitter_and_cap(attempt: int) -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=8.0)
    ceiling = min(0.5 * 2 ** (attempt - 1), 8.0)
    assert ceiling / 2 <= policy.backoff(attempt) <= ceiling


def test_retry_after_wins_over_backoff() -> None:
    assert RetryPolicy().wait(1, 2.5) == 2.5
    assert RetryPolicy(base_delay=0.01, max_delay=0.01).wait(3, None) <= 0.01


def test_retry_after_forms() -> None:
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after": "0.25"}) == 0.25
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert parse_retry_after({}) is None
    assert parse_retry_after({"retry-after": "soon"}) is None
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    waited = parse_retry_after({"retry-after": later})
    assert waited is not None
    assert 28 <= waited <= 31


def test_retryable_statuses() -> None:
    assert [RetryPolicy.is_retryable_status(s) for s in (400, 401, 404, 408, 429, 500, 529)] == [
        False,
        False,
        False,
        True,
        True,
        True,
        True,
    ]
