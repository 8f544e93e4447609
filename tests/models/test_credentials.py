"""The keys `/login` saves: used for the endpoint they were given for only, after the flag
and the environment, and never from a file others can read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tether.cli.model_args import default_model, missing_key
from tether.errors import CredentialsError
from tether.models.credentials import (
    STORED_SOURCE,
    Credentials,
    credentials_path,
    read_credentials,
)
from tether.models.factory import make_model
from tether.models.streaming import StreamingModel

ANTHROPIC = "https://api.anthropic.com"


def _save(home: Path, credentials: Credentials, mode: int = 0o600) -> Path:
    path = credentials_path(home)
    path.write_bytes(credentials.encoded())
    os.chmod(path, mode)
    return path


def _key(spec: str, **flags: str) -> tuple[str | None, str | None]:
    model = make_model(spec, **flags)  # type: ignore[arg-type]
    assert isinstance(model, StreamingModel)
    return model.provider.api_key, model.provider.key_source


def test_a_saved_key_goes_to_its_endpoint_only_and_the_environment_wins(
    isolated_environment: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _save(isolated_environment, Credentials().with_key(ANTHROPIC + "/", "sk-saved", "anthropic"))
    assert _key("anthropic") == ("sk-saved", STORED_SOURCE)
    # Another endpoint of the same kind never gets it.
    assert _key("anthropic", base_url="https://proxy.example") == (None, None)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-env")
    assert _key("anthropic") == ("sk-env", "ANTHROPIC_API_KEY")
    assert _key("anthropic", api_key="sk-flag") == ("sk-flag", "--api-key")


def test_the_provider_chosen_at_login_is_the_default_model(
    isolated_environment: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert default_model() == "openai"
    _save(isolated_environment, Credentials().with_key(ANTHROPIC, "k", "anthropic"))
    assert default_model() == "anthropic"
    monkeypatch.setenv("TETHER_MODEL", "gemini")
    assert default_model() == "gemini"


def test_a_key_file_others_can_read_is_not_used(isolated_environment: Path) -> None:
    path = _save(isolated_environment, Credentials().with_key(ANTHROPIC, "k", "anthropic"), 0o644)
    with pytest.raises(CredentialsError, match=r"can be read by others: run `chmod 600 "):
        make_model("anthropic")
    # Read for rewriting, nothing in it is lost.
    assert read_credentials(private=False).key_for(ANTHROPIC) == "k"
    os.chmod(path, 0o600)
    assert missing_key(make_model("anthropic")) is None


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{", "not valid JSON"),
        ('{"version": 2, "keys": {}}', "not a credentials file of version 1"),
        ('{"version": 1, "keys": {"https://a": 3}}', '"keys" must map each base URL to a key'),
        ('{"version": 1, "keys": {}, "model": 1}', '"model" must be a model spec'),
    ],
)
def test_a_broken_key_file_is_named(isolated_environment: Path, text: str, said: str) -> None:
    path = credentials_path(isolated_environment)
    path.write_text(text)
    os.chmod(path, 0o600)
    with pytest.raises(CredentialsError, match=said):
        read_credentials()


def test_a_key_file_that_is_a_link_is_not_followed(
    isolated_environment: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_bytes(Credentials().with_key(ANTHROPIC, "k", "anthropic").encoded())
    credentials_path(isolated_environment).symlink_to(elsewhere)
    with pytest.raises(CredentialsError, match="symbolic link"):
        read_credentials()


def test_without_a_key_a_remote_model_is_missing_one() -> None:
    assert missing_key(make_model("anthropic")) == (
        f"No API key for {ANTHROPIC}: set ANTHROPIC_API_KEY or pass --api-key"
    )
    assert Credentials().without_key(ANTHROPIC) == Credentials()
