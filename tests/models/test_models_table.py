"""README's Models table holds every provider, and what it says of each is true: each model kind
has a row, each default model it names is the kind's own, each variable it names is one tether
reads, and each "Try it" command names a model that builds with only the variables it sets."""

from __future__ import annotations

import re
import shlex

import pytest

from tests.conftest import REPO
from tether.models.factory import MODEL_KINDS, make_model
from tether.models.streaming import StreamingModel

_CLOUD_VARIABLES = (
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "CLOUD_ML_REGION",
    "ANTHROPIC_VERTEX_PROJECT_ID",
    "AZURE_OPENAI_ENDPOINT",
    "ANTHROPIC_BEDROCK_BASE_URL",
    "ANTHROPIC_BEDROCK_MANTLE_BASE_URL",
    "ANTHROPIC_VERTEX_BASE_URL",
)

_READ_BY_BOTO3 = ("AWS_PROFILE",)
"""Named in the table, read by boto3's credentials chain rather than by tether itself."""


def _rows() -> list[list[str]]:
    """The Models table's rows (provider, flags, key, try it), without its header."""
    lines = (REPO / "README.md").read_text().split("\n## Models\n", 1)[1].splitlines()
    start = lines.index("| Provider | Flags | Key from | Try it |")
    table = []
    for line in lines[start + 2 :]:
        if not line.startswith("| "):
            break
        table.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return table


def test_every_model_kind_has_a_row_and_its_default_is_named_truly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in {
        "AWS_REGION": "us-east-1",
        "CLOUD_ML_REGION": "global",
        "ANTHROPIC_VERTEX_PROJECT_ID": "p",
    }.items():
        monkeypatch.setenv(name, value)
    rows = _rows()
    for kind in MODEL_KINDS:
        flags = [row[1] for row in rows if re.search(rf"`--model {kind}[:` ]", row[1])]
        assert flags, f"no row of README's Models table offers --model {kind}"
        for default in re.findall(rf"`--model {kind}` \(model `([^`]+)`", " ".join(flags)):
            made = make_model(kind)
            assert isinstance(made, StreamingModel) and made.model == default, kind


def test_every_variable_named_is_one_tether_reads() -> None:
    sources = "\n".join(path.read_text() for path in (REPO / "src" / "tether").rglob("*.py"))
    for provider, flags, key, _ in _rows():
        for name in re.findall(r"`([A-Z][A-Z0-9_]{3,})`", f"{flags} {key}"):
            read = f'"{name}"' in sources or name in _READ_BY_BOTO3
            assert read, f"{provider}: tether never reads {name}"


@pytest.mark.parametrize("row", _rows(), ids=lambda row: row[0])
def test_the_try_it_command_names_a_model_that_builds(
    row: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in _CLOUD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    command = shlex.split(row[3].strip("`"))
    while "=" in command[0]:
        name, _, value = command.pop(0).partition("=")
        monkeypatch.setenv(name, value)
    assert command[0] == "tether", row[0]
    if "--model" not in command:
        assert command[1:] == ["demo"], row[0]
        return
    spec = command[command.index("--model") + 1]
    base_url = command[command.index("--base-url") + 1] if "--base-url" in command else None
    model = make_model(spec, base_url=base_url)
    assert model.name == spec if ":" in spec else model.name.startswith(f"{spec}:")
