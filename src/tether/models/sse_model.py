"""What the wire formats tether sends over `httpx` (`sse_client`) share: their raw answers
worded as the SDKs' errors were.

`sse_client` raises `StatusError`, `StreamError` and `NotAStream` and lets `httpx`'s transport
errors through; each becomes a `Failure` here, once, for chat completions and Anthropic's
messages API alike. The formats differ only in which field of an error body names its kind
(`error_field`) and in what an error inside a stream means (`_stream_error`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from tether.models.retry import Failure
from tether.models.streaming import StreamingModel

if TYPE_CHECKING:
    from tether.errors import StreamError

__all__ = ["SSEModel"]


class SSEModel(StreamingModel[Any, Any]):
    """A model whose requests go through `sse_client`'s `SSEClient`."""

    sdk = "tether.models.sse_client"
    error_field: ClassVar[str] = "code"
    """The field of an error body's `error` that names its kind (`code`, or Anthropic's
    `type`)."""

    def _stream_error(self, exc: StreamError) -> Failure:
        """An error event inside a stream that had begun."""
        return self._endpoint.broken(
            f"the stream from {self.base_url} reported an error: {exc.message}"
        )

    def _failure(self, exc: Exception) -> Failure | None:
        import httpx

        from tether.errors import NotAStream, StatusError, StreamError

        if isinstance(exc, StatusError):
            fallback = f"Error code: {exc.status}"
            code = exc.field(self.error_field)
            return self._http(exc.status, exc.body, fallback, exc.headers, code)
        if isinstance(exc, StreamError):
            return self._stream_error(exc)
        if isinstance(exc, NotAStream):
            return self._endpoint.broken(f"{self.base_url} {exc}")
        if isinstance(exc, httpx.TransportError):
            return self._endpoint.unreachable(exc)
        return None
