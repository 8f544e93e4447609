"""Which endpoint and which key each model kind uses, found before any request is made.

The wire formats live in `tether.models`; this package only decides where requests go and
what key they carry (flags first, then the environment), so a model takes both resolved.
"""

from tether.providers.anthropic import ANTHROPIC
from tether.providers.discovery import Discovery, Provider
from tether.providers.gemini import GEMINI
from tether.providers.openai import OPENAI, OPENAI_RESPONSES

__all__ = [
    "ANTHROPIC",
    "GEMINI",
    "OPENAI",
    "OPENAI_RESPONSES",
    "PROVIDER_VARIABLES",
    "Discovery",
    "Provider",
]

PROVIDER_VARIABLES = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_BEDROCK_BASE_URL",
    "ANTHROPIC_BEDROCK_MANTLE_BASE_URL",
    "ANTHROPIC_VERTEX_BASE_URL",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AZURE_OPENAI_API_KEY",
    "AZURE_OPENAI_ENDPOINT",
    "OPENAI_BASE_URL",
    "DEEPSEEK_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "GOOGLE_GEMINI_BASE_URL",
    "OPENAI_API_KEY",
    "OPENROUTER_API_KEY",
    "TETHER_API_KEY",
    "TETHER_BASE_URL",
)
"""Every variable a provider reads its key or endpoint from (an endpoint may carry a password)."""
