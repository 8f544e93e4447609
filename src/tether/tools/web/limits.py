"""How far one fetch may go: time, body, redirects."""

from __future__ import annotations

__all__ = ["ERROR_BODY_BYTES", "MAX_BODY_BYTES", "MAX_REDIRECTS", "TIMEOUT_S"]

TIMEOUT_S = 30.0
"""The whole fetch: every hop, the body and the conversion."""
MAX_BODY_BYTES = 10 * 1024 * 1024
"""The most body read; the rest is never downloaded."""
ERROR_BODY_BYTES = 64 * 1024
"""How much of a 4xx/5xx body is read: the model gets only its start."""
MAX_REDIRECTS = 5
