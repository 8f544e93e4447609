"""Turning provider failures into clear `ModelError`s that say what to do next."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from tether.errors import ContextOverflow, ModelError
from tether.models.retry import Failure, RetryPolicy, parse_retry_after

__all__ = ["Endpoint", "excerpt", "server_message"]

EXCERPT = 200
"""How much of a bad payload an error message quotes."""


def excerpt(text: str) -> str:
    """`text` shortened for an error message."""
    text = text.strip()
    return text if len(text) <= EXCERPT else text[:EXCERPT] + "…"


def server_message(body: object, fallback: str) -> str:
    """The human-readable part of an error body (`{"error": {"message": ...}}` and kin)."""
    if isinstance(body, Mapping):
        inner = body.get("error", body)
        if isinstance(inner, Mapping):
            message = inner.get("message")
            if isinstance(message, str) and message:
                return message
        elif isinstance(inner, str) and inner:
            return inner
    if isinstance(body, str) and body.strip():
        return excerpt(body)
    return fallback


OVERFLOW_WORDS = (
    "prompt is too long",
    "maximum context length",
    "context length",
    "context window",
)
"""How servers word a prompt longer than the context (Anthropic, OpenAI, vLLM, others)."""


def _says_prompt_too_long(status: int, code: str | None, message: str) -> bool:
    """Whether an error says the prompt does not fit the model's context."""
    if code == "context_length_exceeded":
        return True
    lowered = message.lower()
    return status in (400, 413) and any(words in lowered for words in OVERFLOW_WORDS)


def _names_missing_model(status: int, code: str | None, message: str) -> bool:
    """Whether an error says the model does not exist (404, or a 400 worded that way)."""
    if status == 404 or code == "model_not_found":
        return True
    lowered = message.lower()
    return (
        status == 400 and "model" in lowered and ("not exist" in lowered or "not found" in lowered)
    )


@dataclass(frozen=True)
class Endpoint:
    """Who is being asked: names used in error messages."""

    provider: str
    base_url: str
    model: str
    key_hint: str

    def http(
        self, status: int, message: str, headers: Mapping[str, str], code: str | None = None
    ) -> Failure:
        """A failure for an HTTP error status."""
        detail = f"HTTP {status}: {message}"
        if status == 401:
            return self._fail(
                f"Authentication failed at {self.base_url} ({detail}); {self.key_hint}"
            )
        if status == 403:
            return self._fail(f"Access denied at {self.base_url} ({detail})")
        if _says_prompt_too_long(status, code, message):
            overflow = ContextOverflow(
                f"{self.provider}: the prompt is too long for {self.model!r} ({detail})"
            )
            return Failure(overflow)
        if _names_missing_model(status, code, message):
            text = f"Unknown model {self.model!r} at {self.base_url} ({detail})"
            if "model" not in message.lower():
                # A bare 404 is as often a base URL missing its `/v1`.
                text += f", or {self.base_url} is not the API's base URL"
            return self._fail(text)
        if status == 429:
            wait = parse_retry_after(headers)
            later = f"; retry after {wait:g} s" if wait is not None else ""
            return Failure(
                self._error(f"Rate limited by {self.base_url} ({detail}){later}"),
                retryable=True,
                retry_after=wait,
                short=f"{status} rate limited by {self.host}",
            )
        if RetryPolicy.is_retryable_status(status):
            return Failure(
                self._error(f"{self.base_url} failed ({detail})"),
                retryable=True,
                retry_after=parse_retry_after(headers),
                short=f"{status} from {self.host}",
            )
        return self._fail(f"{self.base_url} rejected the request ({detail})")

    def unreachable(self, cause: BaseException) -> Failure:
        """A failure to connect, or a connection lost (retried only if nothing was streamed)."""
        root = cause.__cause__ or cause
        reason = str(root) or type(root).__name__
        return Failure(
            self._error(f"Connection to {self.base_url} failed: {reason}"),
            retryable=True,
            short=f"no connection to {self.host}",
        )

    def malformed(self, data: str) -> Failure:
        """A stream chunk that is not valid JSON."""
        return self._fail(
            f"{self.base_url} sent a malformed stream chunk (invalid JSON): {excerpt(data)!r}"
        )

    def undecodable(self, exc: Exception) -> Failure | None:
        """The failure for a chunk the SDK could not decode, or `None` for other errors."""
        if isinstance(exc, json.JSONDecodeError):
            return self.malformed(exc.doc)
        if isinstance(exc, RecursionError):
            # The SDKs call `json.loads` on each chunk: deep nesting exhausts the stack.
            return self._fail(
                f"{self.base_url} sent a stream chunk nested too deeply to decode (invalid JSON)"
            )
        return None

    @property
    def host(self) -> str:
        """The server's host (and port), as a status line names it."""
        return urlsplit(self.base_url).netloc or self.base_url

    def broken(self, what: str) -> Failure:
        """Any other final failure, worded by the caller."""
        return self._fail(what)

    def _error(self, text: str) -> ModelError:
        """An error that names the provider first."""
        return ModelError(f"{self.provider}: {text}")

    def _fail(self, text: str) -> Failure:
        """A failure that is not worth retrying."""
        return Failure(self._error(text))
