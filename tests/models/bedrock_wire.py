"""Amazon Bedrock's side of the wire, written from AWS's documentation: the binary event
stream (`application/vnd.amazon.eventstream`) that `InvokeModelWithResponseStream` answers
with, and a check of the Signature Version 4 that signs each request.

An event-stream message is a prelude (total length and headers length, 4 bytes each, big
endian, then the prelude's CRC32), the headers (name length in one byte, the name, value type 7
for a string, the value's length in two bytes, the value), the payload, and the CRC32 of
everything before it. Bedrock sends each of Claude's stream events as a `chunk` event whose
JSON payload carries the event's bytes in base64; an error during the stream is an
`exception` message naming its kind.

Claude 4.7 and later are served on Bedrock's other endpoint, `bedrock-mantle`, which speaks
Anthropic's Messages API as it is (`POST /anthropic/v1/messages`, the model in the body, the
version in the `anthropic-version` header, an SSE stream, Anthropic's error bodies), signed with
SigV4 for the service `bedrock-mantle` or carrying a Bedrock API key (`messages_signed_only`).

SigV4: the canonical request (method, the path encoded once more, the sorted query, the signed
headers as `name:value` lines, their names, the payload's SHA-256) is hashed into the string to
sign (algorithm, time, scope `DATE/REGION/SERVICE/aws4_request`), which is signed with a key
derived from the secret by HMAC-SHA256 over the date, region, service and `aws4_request`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import struct
import zlib
from collections.abc import Callable
from urllib.parse import quote, urlsplit

from tests.models.sse_server import TRANSCRIPTS, Received, Reply, json_reply

EVENT_STREAM = "application/vnd.amazon.eventstream"
MESSAGES_SERVICE = "bedrock-mantle"
"""The service the Messages-API endpoint's requests are signed for."""
MESSAGES_PATH = "/anthropic/v1/messages"
INVOKE_VERSION = "bedrock-2023-05-31"
"""The only `anthropic_version` InvokeModel takes for Claude, as AWS documents it."""
ACCESS_KEY = "AKIDEXAMPLETETHER"
SECRET_KEY = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
"""Fixed test credentials: the server checks each signature against this secret."""
REGION = "eu-west-3"
"""The region the tests sign for (the `aws` fixture sets it)."""


def frame(headers: dict[str, str], payload: bytes) -> bytes:
    """One event-stream message with string headers."""
    encoded = b""
    for name, value in headers.items():
        raw_name, raw_value = name.encode(), value.encode()
        encoded += struct.pack(">B", len(raw_name)) + raw_name
        encoded += struct.pack(">BH", 7, len(raw_value)) + raw_value
    total = 12 + len(encoded) + len(payload) + 4
    prelude = struct.pack(">II", total, len(encoded))
    message = prelude + struct.pack(">I", zlib.crc32(prelude)) + encoded + payload
    return message + struct.pack(">I", zlib.crc32(message))


def chunk(event: bytes) -> bytes:
    """Claude's stream event `event` (its JSON) as a Bedrock `chunk` message."""
    payload = json.dumps({"bytes": base64.b64encode(event).decode()}).encode()
    headers = {":event-type": "chunk", ":content-type": "application/json"}
    return frame({**headers, ":message-type": "event"}, payload)


def exception(kind: str, message: str) -> bytes:
    """An error Bedrock reports inside the stream (`throttlingException`, ...)."""
    headers = {":exception-type": kind, ":content-type": "application/json"}
    payload = json.dumps({"message": message}).encode()
    return frame({**headers, ":message-type": "exception"}, payload)


def stream_reply(*messages: bytes) -> Reply:
    """A 200 event stream, one message per HTTP chunk."""
    headers = {"content-type": EVENT_STREAM, "x-amzn-requestid": "5f3c-test"}
    return Reply(headers=headers, chunks=messages)


def transcript_reply(name: str, *, cut_after: int | None = None) -> Reply:
    """An Anthropic SSE transcript's events as Bedrock streams them (its metrics on the last)."""
    events = []
    for block in (TRANSCRIPTS / name).read_text().split("\n\n"):
        data = [line[len("data: ") :] for line in block.splitlines() if line.startswith("data: ")]
        if not data:
            continue
        event = json.loads(data[0])
        if event.get("type") == "message_stop":
            event["amazon-bedrock-invocationMetrics"] = {
                "inputTokenCount": 12,
                "outputTokenCount": 9,
                "invocationLatency": 812,
                "firstByteLatency": 240,
            }
        events.append(chunk(json.dumps(event).encode()))
    return stream_reply(*events[:cut_after])


def bedrock_error(status: int, kind: str, message: str) -> Reply:
    """An HTTP error as Bedrock answers it: the kind in `x-amzn-ErrorType`, a `message`."""
    return json_reply(status, {"message": message}, {"x-amzn-errortype": f"{kind}:http://internal"})


def signature_problem(
    request: Received, region: str, *, secret: str = SECRET_KEY, service: str = "bedrock"
) -> str | None:
    """Why `request` is not signed with the test credentials for `region`; `None` if it is."""
    authorization = request.headers.get("authorization", "")
    algorithm, _, fields = authorization.partition(" ")
    if algorithm != "AWS4-HMAC-SHA256":
        return f"not signed with SigV4: {authorization!r}"
    parts = dict(part.strip().split("=", 1) for part in fields.split(","))
    key, date, scope_region, scope_service, terminal = parts["Credential"].split("/")
    if key != ACCESS_KEY:
        return f"unknown access key {key}"
    if (scope_region, scope_service, terminal) != (region, service, "aws4_request"):
        return f"signed for {scope_region}/{scope_service}, not {region}/{service}"
    signed = parts["SignedHeaders"].split(";")
    if "host" not in signed or "x-amz-date" not in signed:
        return f"host and x-amz-date must be signed, not only {signed}"
    path, _, query = request.path.partition("?")
    canonical = "\n".join(
        [
            request.method,
            quote(urlsplit(path).path, safe="/~"),
            "&".join(sorted(query.split("&"))) if query else "",
            *(f"{name}:{' '.join(request.headers[name].split())}" for name in signed),
            "",
            ";".join(signed),
            hashlib.sha256(request.body).hexdigest(),
        ]
    )
    scope = f"{date}/{region}/{service}/aws4_request"
    to_sign = "\n".join(
        [
            "AWS4-HMAC-SHA256",
            request.headers["x-amz-date"],
            scope,
            hashlib.sha256(canonical.encode()).hexdigest(),
        ]
    )
    signing_key = f"AWS4{secret}".encode()
    for step in (date, region, service, "aws4_request"):
        signing_key = hmac.new(signing_key, step.encode(), hashlib.sha256).digest()
    expected = hmac.new(signing_key, to_sign.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, parts["Signature"]):
        return "the signature does not match"
    return None


def signed_only(
    region: str, replies: list[Reply], *, secret: str = SECRET_KEY
) -> Callable[[Received], Reply]:
    """A server's answer: the next of `replies` to a request signed with `secret` that names
    InvokeModel's version; else a 403, or a 400 as Bedrock answers another version."""

    def answer(request: Received) -> Reply:
        problem = signature_problem(request, region, secret=secret)
        if problem is not None:
            return bedrock_error(403, "InvalidSignatureException", problem)
        version = json.loads(request.body).get("anthropic_version")
        if version != INVOKE_VERSION:
            return bedrock_error(400, "ValidationException", f"unsupported version {version!r}")
        return replies.pop(0)

    return answer


def messages_error(status: int, kind: str, message: str, **headers: str) -> Reply:
    """An error as the Messages-API endpoint answers it: Anthropic's error body."""
    body = {"type": "error", "error": {"type": kind, "message": message}}
    return json_reply(status, body, {"x-amzn-requestid": "7a1d-test", **headers})


def messages_signed_only(
    region: str, replies: list[Reply], *, secret: str = SECRET_KEY
) -> Callable[[Received], Reply]:
    """A Messages-API endpoint's answer: the next of `replies` to a request at
    `/anthropic/v1/messages` signed with `secret` for `bedrock-mantle`, naming its model in the
    body and its version in the header; else a 403, or a 400 for a request shaped otherwise."""

    def answer(request: Received) -> Reply:
        problem = signature_problem(request, region, secret=secret, service=MESSAGES_SERVICE)
        if problem is not None:
            return messages_error(403, "permission_error", problem)
        body = json.loads(request.body)
        if request.path != MESSAGES_PATH:
            return messages_error(404, "not_found_error", f"no route {request.path}")
        if "anthropic-version" not in request.headers or "anthropic_version" in body:
            return messages_error(400, "invalid_request_error", "the version is a header here")
        if not body.get("model"):
            return messages_error(400, "invalid_request_error", "model: field required")
        return replies.pop(0)

    return answer
