"""Which endpoint and key each model kind finds, from flags and the environment."""

from __future__ import annotations

import pytest

from tether.providers import ANTHROPIC, OPENAI, Provider
from tether.providers.openai import LOCAL_KEY

ALL_KEYS = {
    "DEEPSEEK_API_KEY": "ds",
    "OPENROUTER_API_KEY": "or",
    "OPENAI_API_KEY": "oa",
    "TETHER_API_KEY": "tk",
}


def test_the_default_endpoint_is_deepseek_and_never_gets_the_openai_key() -> None:
    found = OPENAI.resolve(environ={"OPENAI_API_KEY": "oa"})
    assert found == Provider(
        "https://api.deepseek.com", None, ("DEEPSEEK_API_KEY", "TETHER_API_KEY")
    )
    assert found.missing_key == (
        "No API key for https://api.deepseek.com: set DEEPSEEK_API_KEY or TETHER_API_KEY "
        "or pass --api-key"
    )


@pytest.mark.parametrize(
    ("base_url", "unset", "key", "source"),
    [
        ("https://api.deepseek.com", (), "ds", "DEEPSEEK_API_KEY"),
        ("https://api.deepseek.com", ("DEEPSEEK_API_KEY",), "tk", "TETHER_API_KEY"),
        ("https://openrouter.ai/api/v1", (), "or", "OPENROUTER_API_KEY"),
        ("https://openrouter.ai/api/v1", ("OPENROUTER_API_KEY",), "oa", "OPENAI_API_KEY"),
        ("https://api.openai.com/v1", (), "oa", "OPENAI_API_KEY"),
        ("https://api.openai.com/v1", ("OPENAI_API_KEY",), "tk", "TETHER_API_KEY"),
    ],
)
def test_keys_are_looked_up_by_host_in_order(
    base_url: str, unset: tuple[str, ...], key: str, source: str
) -> None:
    environ = {name: value for name, value in ALL_KEYS.items() if name not in unset}
    found = OPENAI.resolve(base_url, environ=environ)
    assert (found.api_key, found.key_source, found.key_hint) == (key, source, f"check {source}")


def test_the_flag_wins_over_the_environment() -> None:
    found = OPENAI.resolve("https://api.openai.com/v1/", "flag", environ=ALL_KEYS)
    assert (found.base_url, found.api_key, found.key_hint) == (
        "https://api.openai.com/v1",
        "flag",
        "check --api-key",
    )


@pytest.mark.parametrize(
    ("base_url", "key"),
    [
        ("http://localhost:11434/v1", LOCAL_KEY),
        ("http://127.0.0.1:8000/v1", LOCAL_KEY),
        ("http://192.168.1.20:8000/v1", LOCAL_KEY),
        ("http://gpu.local:8000/v1", LOCAL_KEY),
        ("https://vllm.example.com/v1", None),
    ],
)
def test_servers_here_or_on_a_private_network_get_a_placeholder_key(
    base_url: str, key: str | None
) -> None:
    found = OPENAI.resolve(base_url, environ={})
    assert found.api_key == key
    # A server that rejects the placeholder is told which variable to set.
    assert found.key_hint == "set OPENAI_API_KEY or TETHER_API_KEY"


def test_the_endpoint_comes_from_the_environment_unless_a_flag_gives_it() -> None:
    environ = {"TETHER_BASE_URL": "http://localhost:8000/v1/", "ANTHROPIC_BASE_URL": "http://a/"}
    assert OPENAI.resolve(environ=environ).base_url == "http://localhost:8000/v1"
    assert OPENAI.resolve("http://b/v1", environ=environ).base_url == "http://b/v1"
    assert ANTHROPIC.resolve(environ=environ).base_url == "http://a"
    assert ANTHROPIC.resolve(environ={}).base_url == "https://api.anthropic.com"


def test_anthropic_reads_its_own_key_and_an_empty_flag_counts_as_none() -> None:
    environ = {"ANTHROPIC_API_KEY": "ant", "OPENAI_API_KEY": "oa"}
    assert ANTHROPIC.resolve(api_key="", environ=environ).api_key == "ant"
    assert ANTHROPIC.resolve(api_key="flag", environ=environ).key_hint == "check --api-key"
    missing = ANTHROPIC.resolve(environ={"OPENAI_API_KEY": "oa"})
    assert missing.api_key is None
    assert missing.missing_key == (
        "No API key for https://api.anthropic.com: set ANTHROPIC_API_KEY or pass --api-key"
    )
