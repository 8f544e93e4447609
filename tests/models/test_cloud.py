"""A cloud without its region or endpoint is an error saying which, and a cloud model loads no
SDK until it sends (each cloud's wire is in `test_azure`, `test_bedrock`,
`test_bedrock_messages` and `test_vertex`)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tether.errors import ModelError
from tether.models.factory import make_model


def test_a_cloud_without_its_place_says_what_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AZURE_OPENAI_ENDPOINT", "AWS_REGION", "AWS_DEFAULT_REGION", "CLOUD_ML_REGION"):
        monkeypatch.delenv(name, raising=False)
    cases = {
        "azure:prod": "azure: no endpoint: set AZURE_OPENAI_ENDPOINT "
        "(https://RESOURCE.openai.azure.com) or pass --base-url",
        "bedrock": "bedrock: no AWS region: set AWS_REGION (e.g. us-east-1)",
        "bedrock:us.anthropic.claude-opus-4-7": "bedrock: no AWS region: set AWS_REGION "
        "(e.g. us-east-1)",
        "vertex": "vertex: no region: set CLOUD_ML_REGION (e.g. us-east5 or global)",
    }
    for spec, message in cases.items():
        with pytest.raises(ModelError) as caught:
            make_model(spec)
        assert str(caught.value) == message
    with pytest.raises(ModelError, match="name the deployment: --model azure:DEPLOYMENT"):
        make_model("azure", base_url="https://r.openai.azure.com")


def test_a_cloud_model_loads_no_sdk_before_its_first_request() -> None:
    # A fresh interpreter: what an earlier test imported must not hide an import made here.
    script = (
        "import sys\n"
        "from tether.models.factory import make_model\n"
        "for spec in ('bedrock', 'bedrock:us.anthropic.claude-opus-4-7', 'vertex', 'azure:d'):\n"
        "    make_model(spec).name\n"
        "sdks = ('anthropic', 'openai', 'boto3', 'botocore', 'google.auth', 'httpx2')\n"
        "print(sorted(name for name in sdks if name in sys.modules))\n"
    )
    env = {
        **os.environ,
        "AWS_REGION": "us-east-1",
        "CLOUD_ML_REGION": "global",
        "ANTHROPIC_VERTEX_PROJECT_ID": "p",
        "AZURE_OPENAI_ENDPOINT": "https://r.openai.azure.com",
    }
    done = subprocess.run(
        [sys.executable, "-c", script],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
