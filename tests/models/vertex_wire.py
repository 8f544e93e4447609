"""Claude on Google Cloud's Vertex AI, the server's side, written from Anthropic's and Google's
documentation, and a Google token endpoint for application default credentials.

Vertex takes Anthropic's Messages request with two differences: the model is in the path,
`POST /v1/projects/PROJECT/locations/REGION/publishers/anthropic/models/MODEL:streamRawPredict`
(`:rawPredict` when not streamed), not in the body, and the body carries
`anthropic_version: "vertex-2023-10-16"`. The answer is Anthropic's own SSE stream. Requests
carry `Authorization: Bearer ACCESS_TOKEN`; errors are Google's (`{"error": {"code", "message",
"status"}}`).

Application default credentials: a file named by `GOOGLE_APPLICATION_CREDENTIALS` holds a
refresh token, which google-auth trades for an access token (`POST`, form-encoded
`grant_type=refresh_token`, the client's id and secret as basic auth). The file's type is
`external_account_authorized_user` (what `gcloud auth application-default login` writes for a
Workforce Identity Federation user), whose `token_url` google-auth honours, so the exchange stays
on the loopback server; a plain `authorized_user` file always goes to Google's token endpoint.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs

from tests.models.sse_server import Received, Reply, json_reply

VERSION = "vertex-2023-10-16"
PROJECT = "tether-test-project"
REGION = "us-east5"
ACCESS_TOKEN = "ya29.tether-test-adc-token"
"""What the loopback token endpoint issues for the test refresh token."""
REFRESH_TOKEN = "1//tether-test-refresh"
CLIENT_ID = "tether-test-client"
CLIENT_SECRET = "tether-test-secret"
TOKEN_PATH = "/token"


def model_path(model: str, *, stream: bool = True) -> str:
    """The path of a request to `model` on the test project and region."""
    verb = "streamRawPredict" if stream else "rawPredict"
    return f"/v1/projects/{PROJECT}/locations/{REGION}/publishers/anthropic/models/{model}:{verb}"


def google_error(status: int, code: str, message: str) -> Reply:
    """An error as Google's APIs answer it."""
    return json_reply(status, {"error": {"code": status, "message": message, "status": code}})


def adc_file(directory: Path, server_url: str) -> Path:
    """An application default credentials file whose tokens come from the loopback server."""
    path = directory / "application_default_credentials.json"
    pool = "//iam.googleapis.com/locations/global/workforcePools/tether-test/providers/test"
    path.write_text(
        json.dumps(
            {
                "type": "external_account_authorized_user",
                "audience": pool,
                "client_id": CLIENT_ID,
                "client_secret": CLIENT_SECRET,
                "refresh_token": REFRESH_TOKEN,
                "token_url": f"{server_url}{TOKEN_PATH}",
            }
        )
    )
    return path


def vertex_only(replies: list[Reply], *, token: str = ACCESS_TOKEN) -> Callable[[Received], Reply]:
    """A server's answer: an access token for the test refresh token at `/token`; the next of
    `replies` to a request under the test project that carries `token` and Vertex's version,
    with no model in its body; else Google's 401 or 400."""

    def answer(request: Received) -> Reply:
        if request.path == TOKEN_PATH:
            return _token(request)
        if request.headers.get("authorization") != f"Bearer {token}":
            return google_error(401, "UNAUTHENTICATED", "Request had invalid credentials.")
        prefix = f"/v1/projects/{PROJECT}/locations/{REGION}/publishers/anthropic/models/"
        if not request.path.startswith(prefix):
            return google_error(404, "NOT_FOUND", f"no route {request.path}")
        body = json.loads(request.body)
        if body.get("anthropic_version") != VERSION or "model" in body:
            version = body.get("anthropic_version")
            return google_error(400, "INVALID_ARGUMENT", f"unsupported version {version!r}")
        return replies.pop(0)

    return answer


def _token(request: Received) -> Reply:
    """The token endpoint: an access token for the test client's refresh token, else
    `invalid_grant`."""
    form = {name: values[0] for name, values in parse_qs(request.body.decode()).items()}
    client = base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
    if (
        form.get("grant_type") != "refresh_token"
        or form.get("refresh_token") != REFRESH_TOKEN
        or request.headers.get("authorization") != f"Basic {client}"
    ):
        return json_reply(400, {"error": "invalid_grant", "error_description": "Bad Request"})
    return json_reply(
        200,
        {
            "access_token": ACCESS_TOKEN,
            "expires_in": 3599,
            "token_type": "Bearer",
            "scope": "https://www.googleapis.com/auth/cloud-platform",
        },
    )
