"""The same wire formats through a cloud account: Azure OpenAI, Claude on Bedrock and Vertex.

Each is its SDK's own client for that cloud (`openai`'s `AsyncAzureOpenAI`, `anthropic`'s
Bedrock clients and `AsyncAnthropicVertex`) under the model it speaks like, so
requests, streaming, thinking, prompt caching, errors and retries are that model's. What
differs is only where requests go and how they are signed, read from the usual environment:

- Azure: `AZURE_OPENAI_ENDPOINT` (or `--base-url`), `AZURE_OPENAI_API_KEY` (or `--api-key`),
  `OPENAI_API_VERSION`; the model is the deployment's name.
- Bedrock: `AWS_REGION` / `AWS_DEFAULT_REGION`; a Bedrock API key in
  `AWS_BEARER_TOKEN_BEDROCK` (or `--api-key`), else the AWS credentials chain through boto3
  (environment, `AWS_PROFILE`, SSO, instance roles), which signs each request (SigV4). Bedrock
  has two endpoints for Claude, chosen by the model (`bedrock_messages_api`): Claude 4.7 and
  later are served on the Messages API (`bedrock-mantle`, `anthropic`'s
  `AsyncAnthropicBedrockMantle`), which streams Anthropic's own SSE; Opus 4.6 and earlier on
  InvokeModel (`bedrock-runtime`, `AsyncAnthropicBedrock`), whose stream is AWS's binary event
  stream, which botocore decodes (`anthropic[bedrock]`, installed with tether).
- Vertex: `CLOUD_ML_REGION`, `ANTHROPIC_VERTEX_PROJECT_ID`; an access token from `--api-key`,
  else Google's application default credentials through google-auth (installed with tether
  through `google-genai`; `gcloud auth application-default login` makes them).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from tether.errors import ModelError
from tether.models.anthropic_sdk import AnthropicSdkModel
from tether.models.anthropic_thinking import claude_generation
from tether.models.catalog import model_id
from tether.models.openai_sdk import OpenAISdkModel
from tether.models.retry import Failure
from tether.providers import Provider

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic
    from openai import AsyncOpenAI

__all__ = [
    "AZURE_API_VERSION",
    "BEDROCK_DEFAULT",
    "BEDROCK_VERSION",
    "MESSAGES_API_FROM",
    "VERTEX_DEFAULT",
    "VERTEX_VERSION",
    "AzureModel",
    "BedrockMessagesModel",
    "BedrockModel",
    "VertexModel",
    "azure_provider",
    "bedrock_messages_api",
    "bedrock_model",
    "bedrock_provider",
    "vertex_provider",
]

BEDROCK_VERSION = "bedrock-2023-05-31"
"""The `anthropic_version` Bedrock's InvokeModel takes for Claude."""

VERTEX_VERSION = "vertex-2023-10-16"
"""The `anthropic_version` Vertex takes for Claude, as Anthropic and Google document it."""

BEDROCK_DEFAULT = "global.anthropic.claude-sonnet-4-6"
"""Claude Sonnet 4.6 through Bedrock's global cross-region inference profile (Anthropic's
Bedrock model table: base id `anthropic.claude-sonnet-4-6`, offered globally)."""

VERTEX_DEFAULT = "claude-sonnet-4-6"
"""Claude Sonnet 4.6 as Vertex names it (from 4.6 on, Vertex's ids carry no `@date`)."""

MESSAGES_API_FROM = (4, 7)
"""The first Claude generation Bedrock serves on its Messages-API endpoint."""

AZURE_API_VERSION = "2025-04-01-preview"
"""The API version asked of Azure when `OPENAI_API_VERSION` names none."""


def _env(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def _flag_or(variable: str, given: str | None, env: Mapping[str, str]) -> tuple[str | None, str]:
    """A key from its flag, else from `variable`; and where it came from."""
    if given:
        return given, "--api-key"
    return env.get(variable) or None, variable


def azure_provider(
    base_url: str | None, api_key: str | None, environ: Mapping[str, str] | None = None
) -> Provider:
    """Azure's endpoint and key; no endpoint at all is an error naming the fix."""
    env = _env(environ)
    url = (base_url or env.get("AZURE_OPENAI_ENDPOINT") or "").rstrip("/")
    if not url:
        raise ModelError(
            "azure: no endpoint: set AZURE_OPENAI_ENDPOINT "
            "(https://RESOURCE.openai.azure.com) or pass --base-url"
        )
    key, source = _flag_or("AZURE_OPENAI_API_KEY", api_key, env)
    return Provider(url, key, ("AZURE_OPENAI_API_KEY",), source if key else None)


def bedrock_messages_api(model: str) -> bool:
    """Whether Bedrock serves `model` on its Messages-API endpoint rather than InvokeModel:
    Claude 4.7 and later (and Claude's families named without a number); anything else,
    Opus 4.6 and earlier among them, goes to InvokeModel."""
    generation = claude_generation(model_id(model))
    return generation is not None and generation >= MESSAGES_API_FROM


def bedrock_provider(
    base_url: str | None,
    api_key: str | None,
    environ: Mapping[str, str] | None = None,
    *,
    messages_api: bool = False,
) -> Provider:
    """The regional endpoint that serves the model (`messages_api`: `bedrock-mantle`'s, else
    InvokeModel's `bedrock-runtime`) and the Bedrock API key, if one is set."""
    env = _env(environ)
    region = env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION")
    # The SDK's own variables for each endpoint's address.
    variable = "ANTHROPIC_BEDROCK_MANTLE_BASE_URL" if messages_api else "ANTHROPIC_BEDROCK_BASE_URL"
    url = base_url or env.get(variable)
    if not url:
        if not region:
            raise ModelError("bedrock: no AWS region: set AWS_REGION (e.g. us-east-1)")
        url = (
            f"https://bedrock-mantle.{region}.api.aws/anthropic"
            if messages_api
            else f"https://bedrock-runtime.{region}.amazonaws.com"
        )
    key, source = _flag_or("AWS_BEARER_TOKEN_BEDROCK", api_key, env)
    return Provider(url.rstrip("/"), key, ("AWS_BEARER_TOKEN_BEDROCK",), source if key else None)


def vertex_provider(
    base_url: str | None, api_key: str | None, environ: Mapping[str, str] | None = None
) -> Provider:
    """Vertex's regional endpoint and an access token, if one was given."""
    env = _env(environ)
    region = env.get("CLOUD_ML_REGION")
    if not region:
        raise ModelError("vertex: no region: set CLOUD_ML_REGION (e.g. us-east5 or global)")
    if not env.get("ANTHROPIC_VERTEX_PROJECT_ID"):
        raise ModelError("vertex: no project: set ANTHROPIC_VERTEX_PROJECT_ID")
    url = base_url or env.get("ANTHROPIC_VERTEX_BASE_URL")
    if not url:
        # The global endpoint, the multi-region ones (`us`, `eu`), else the region's own: as
        # the SDK would choose, since the URL given here replaces its choice.
        if region == "global":
            url = "https://aiplatform.googleapis.com/v1"
        elif region in ("us", "eu"):
            url = f"https://aiplatform.{region}.rep.googleapis.com/v1"
        else:
            url = f"https://{region}-aiplatform.googleapis.com/v1"
    return Provider(url.rstrip("/"), api_key or None, (), "--api-key" if api_key else None)


def _needs(module: str, label: str, fix: str) -> None:
    """Raise the error naming `fix` when `module` cannot be imported."""
    if importlib.util.find_spec(module) is None:
        raise ModelError(f"{label}: {fix}")


class AzureModel(OpenAISdkModel):
    """Chat completions of an Azure OpenAI deployment (the model is the deployment's name)."""

    kind = "azure"
    label = "Azure OpenAI"
    default_model = ""

    def __init__(self, provider: Provider, *, model: str | None = None, **kwargs: Any) -> None:
        if not model:
            raise ModelError("azure: name the deployment: --model azure:DEPLOYMENT")
        super().__init__(provider, model=model, **kwargs)

    def _client_class(self) -> Callable[..., AsyncOpenAI]:  # type: ignore[override]
        from openai import AsyncAzureOpenAI

        version = os.environ.get("OPENAI_API_VERSION") or AZURE_API_VERSION

        def connect(*, api_key: str | None, base_url: str, max_retries: int) -> AsyncOpenAI:
            return AsyncAzureOpenAI(
                azure_endpoint=base_url,
                api_key=api_key,
                api_version=version,
                max_retries=max_retries,
            )

        return connect

    async def _list(self, limit: int) -> tuple[str, ...]:
        """None: Azure lists models, and requests name deployments."""
        return ()


class BedrockModel(AnthropicSdkModel):
    """Claude on Amazon Bedrock's InvokeModel, which serves Opus 4.6 and earlier (model ids as
    Bedrock names them)."""

    kind = "bedrock"
    label = "Amazon Bedrock"
    default_model = BEDROCK_DEFAULT

    transient_stream_errors = AnthropicSdkModel.transient_stream_errors | {
        "throttlingException",
        "serviceUnavailableException",
        "internalServerException",
        "modelStreamErrorException",
    }
    """Bedrock's own kinds of error inside a stream that AWS says to retry."""
    body_fields = MappingProxyType({"anthropic_version": BEDROCK_VERSION})
    """InvokeModel's version, as AWS documents it: the SDK would send the Anthropic API's own
    version, which Anthropic warns the models served there may refuse (HTTP 400)."""

    def require_key(self) -> None:
        """A Bedrock API key, or AWS credentials to sign with (checked once the SDK loads)."""

    async def _list(self, limit: int) -> tuple[str, ...]:
        """None here: Bedrock lists its models on its control endpoint, not this runtime one."""
        return ()

    def _failure(self, exc: Exception) -> Failure | None:
        from botocore.eventstream import ParserError  # type: ignore[import-untyped]

        if isinstance(exc, ParserError):
            # A frame whose length or checksum is wrong: the bytes were damaged on the way.
            return self._endpoint.broken(
                f"{self.base_url} sent a corrupt event stream ({type(exc).__name__}: {exc})"
            )
        return super()._failure(exc)

    def _bedrock_client(self) -> Callable[..., Any]:
        """The SDK's client for this endpoint, imported only now."""
        from anthropic import AsyncAnthropicBedrock

        return AsyncAnthropicBedrock

    def _client_class(self) -> Callable[..., AsyncAnthropic]:  # type: ignore[override]
        client = self._bedrock_client()
        region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")

        def connect(*, api_key: str | None, base_url: str, max_retries: int) -> AsyncAnthropic:
            if api_key is None:
                _require_aws_credentials(region)
            made: AsyncAnthropic = client(
                aws_region=region or "us-east-1",
                api_key=api_key,
                base_url=base_url,
                max_retries=max_retries,
            )
            return made

        return connect


class BedrockMessagesModel(BedrockModel):
    """Claude 4.7 and later on Bedrock's Messages-API endpoint (`bedrock-mantle`): Anthropic's
    own request, SSE stream and `anthropic-version` header, signed with SigV4 for the
    `bedrock-mantle` service or carrying the Bedrock API key."""

    body_fields = MappingProxyType({})
    """Nothing beyond the SDK's: the version travels as a header here, as on Anthropic's API."""

    def _bedrock_client(self) -> Callable[..., Any]:
        """The SDK's client for the Messages-API endpoint, imported only now."""
        from anthropic.lib.bedrock import AsyncAnthropicBedrockMantle

        return AsyncAnthropicBedrockMantle


def bedrock_model(
    base_url: str | None,
    api_key: str | None,
    *,
    model: str | None = None,
    environ: Mapping[str, str] | None = None,
    **options: Any,
) -> BedrockModel:
    """Claude on Bedrock, on the endpoint that serves `model` (see `bedrock_messages_api`),
    unless `base_url` is one of Bedrock's own endpoints, which then says which."""
    chosen = model or BEDROCK_DEFAULT
    host = urlsplit(base_url or "").hostname or ""
    if host.startswith(("bedrock-mantle.", "bedrock-runtime.")):
        # Opus 4.7 is also served on InvokeModel, for those who want its logging there.
        messages_api = host.startswith("bedrock-mantle.")
    else:
        messages_api = bedrock_messages_api(chosen)
    provider = bedrock_provider(base_url, api_key, environ, messages_api=messages_api)
    kind = BedrockMessagesModel if messages_api else BedrockModel
    return kind(provider, model=chosen, **options)


def _require_aws_credentials(region: str | None) -> None:
    """Raise the error naming every way to give credentials when boto3's chain finds none."""
    import boto3  # type: ignore[import-untyped]

    # The chain as the SDK will walk it when it signs: environment, profile files, SSO, roles.
    if boto3.Session(region_name=region).get_credentials() is None:
        raise ModelError(
            "Amazon Bedrock: no AWS credentials found: set AWS_BEARER_TOKEN_BEDROCK (a Bedrock "
            "API key), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE "
            "(`aws configure`, `aws sso login`)"
        )


class VertexModel(AnthropicSdkModel):
    """Claude on Google Cloud's Vertex AI (model ids as Vertex names them)."""

    kind = "vertex"
    label = "Vertex AI"
    default_model = VERTEX_DEFAULT
    body_fields = MappingProxyType({"anthropic_version": VERTEX_VERSION})
    """Vertex's version, as documented: the SDK would send the Anthropic API's own version."""

    async def _list(self, limit: int) -> tuple[str, ...]:
        """None: Vertex lists no publisher's models on this endpoint."""
        return ()

    def require_key(self) -> None:
        """Without an access token, requests carry application default credentials."""
        if self.provider.api_key is None:
            _needs(
                "google.auth",
                self.label,
                "google-auth is not installed to use your Google credentials: "
                "pip install 'anthropic[vertex]' and run "
                "`gcloud auth application-default login`, or pass an access token with --api-key",
            )

    def _client_class(self) -> Callable[..., AsyncAnthropic]:  # type: ignore[override]
        from anthropic import AsyncAnthropicVertex

        region = os.environ.get("CLOUD_ML_REGION", "global")
        project = os.environ.get("ANTHROPIC_VERTEX_PROJECT_ID", "")

        def connect(*, api_key: str | None, base_url: str, max_retries: int) -> AsyncAnthropic:
            return AsyncAnthropicVertex(  # type: ignore[return-value]
                region=region,
                project_id=project,
                access_token=api_key,
                base_url=base_url,
                max_retries=max_retries,
            )

        return connect
