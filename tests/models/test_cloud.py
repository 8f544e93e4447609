"""A cloud without its region or endpoint is an error saying which (each cloud's wire is in
`test_azure`, `test_bedrock`, `test_bedrock_messages` and `test_vertex`)."""

from __future__ import annotations

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
