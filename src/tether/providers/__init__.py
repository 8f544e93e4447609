"""Which endpoint and which key each model kind uses, found before any request is made.

The wire formats live in `tether.models`; this package only decides where requests go and
what key they carry (flags first, then the environment), so a model takes both resolved.
"""

from tether.providers.anthropic import ANTHROPIC
from tether.providers.discovery import Discovery, Provider
from tether.providers.openai import OPENAI

__all__ = ["ANTHROPIC", "OPENAI", "Discovery", "Provider"]
