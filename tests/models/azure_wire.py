"""Azure OpenAI's side of the wire, written from Microsoft's documentation.

A deployment answers chat completions at
`POST /openai/deployments/DEPLOYMENT/chat/completions?api-version=VERSION` with the key in the
`api-key` header. Its SSE stream is OpenAI's with Azure's content filtering woven in: a first
chunk with no choices that carries `prompt_filter_results`, and `content_filter_results` on
each choice. Errors are `{"error": {"code", "message"}}`, the code a string (`"429"`,
`"DeploymentNotFound"`); a 429 says when to retry in `retry-after`.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from tests.models.sse_server import TRANSCRIPTS, Received, Reply, json_reply

KEY = "azure-test-key"
DEPLOYMENT = "prod-gpt"
_FILTERED = {
    category: {"filtered": False, "severity": "safe"}
    for category in ("hate", "self_harm", "sexual", "violence")
}


def azure_reply(name: str, *, cut_after: int | None = None) -> Reply:
    """An OpenAI transcript from `transcripts/` as Azure streams it: its prompt-filter chunk
    first, and each choice's content-filter results."""
    prompt = {
        "id": "",
        "object": "",
        "created": 0,
        "model": "",
        "choices": [],
        "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": _FILTERED}],
    }
    events = [b"data: " + json.dumps(prompt).encode() + b"\n\n"]
    for block in (TRANSCRIPTS / name).read_text().split("\n\n"):
        data = block.strip().removeprefix("data: ")
        if not data:
            continue
        if data.startswith("{") and data.endswith("}"):
            chunk = json.loads(data)
            for choice in chunk.get("choices", []):
                choice["content_filter_results"] = _FILTERED
            data = json.dumps(chunk)
        events.append(f"data: {data}\n\n".encode())
    if cut_after is not None:
        events = events[:cut_after]
    headers = {"content-type": "text/event-stream", "apim-request-id": "4e1c-test"}
    return Reply(headers=headers, chunks=tuple(events))


def azure_error(status: int, code: str, message: str, **headers: str) -> Reply:
    """An error as Azure OpenAI answers it."""
    return json_reply(status, {"error": {"code": code, "message": message}}, headers)


def azure_only(
    replies: list[Reply], *, version: str, deployment: str = DEPLOYMENT, key: str = KEY
) -> Callable[[Received], Reply]:
    """A resource's answer: the next of `replies` to a chat completion of `deployment` at
    `version` that carries `key`; else Azure's 401 or 404."""

    def answer(request: Received) -> Reply:
        if request.headers.get("api-key") != key:
            return azure_error(
                401,
                "401",
                "Access denied due to invalid subscription key or wrong API endpoint.",
            )
        expected = f"/openai/deployments/{deployment}/chat/completions?api-version={version}"
        if request.path != expected:
            return azure_error(
                404, "DeploymentNotFound", "The API deployment for this resource does not exist."
            )
        return replies.pop(0)

    return answer
