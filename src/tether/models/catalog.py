"""Known models and their numbers, and the models a session may switch to.

`CATALOG` holds each known model's context window, longest output, price per million tokens
(input, output, cache reads, cache writes) and whether it thinks. Prices are the providers'
published list prices in US dollars when this table was written; they change, so settings
may override any entry (`models` in settings.json) and add others. A model not in the table
has an unknown price: its cost is said to be unknown, never 0. Gemini 2.5 Pro's is its price
for prompts up to 200k tokens (longer ones cost more).

A name matches an entry when it is the entry's id, or the id followed by a dated or
versioned suffix (`claude-sonnet-4-5-20250929`, `claude-sonnet-4-5@20250929`, Bedrock's
`anthropic.claude-sonnet-4-5-20250929-v1:0`); `gpt-5.5` is not `gpt-5`.

The switch list: values are `--model` specs (`openai:deepseek-reasoner`), so `make_model`
builds any of them with the endpoint and key the session started with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from tether.models.base import Model, Usage

__all__ = [
    "CATALOG",
    "CLOUD_MODELS",
    "KNOWN_MODELS",
    "ModelInfo",
    "Price",
    "cost_of",
    "known_models",
    "model_id",
    "model_info",
    "offered_models",
    "offered_now",
]


@dataclass(frozen=True)
class Price:
    """US dollars per million tokens."""

    input: float
    output: float
    cache_read: float | None = None
    """Reading the prompt cache (`None`: the input price)."""
    cache_write: float | None = None
    """Writing the prompt cache (`None`: the input price)."""


@dataclass(frozen=True)
class ModelInfo:
    """What is known of one model."""

    id: str
    context_window: int | None = None
    max_output: int | None = None
    price: Price | None = None
    thinks: bool = False


def _m(
    id_: str,
    window: int,
    output: int,
    price: tuple[float, float, float | None, float | None] | None,
    *,
    thinks: bool,
) -> ModelInfo:
    return ModelInfo(id_, window, output, Price(*price) if price else None, thinks)


CATALOG: Mapping[str, ModelInfo] = {
    info.id: info
    for info in (
        _m("deepseek-chat", 128_000, 8_192, (0.28, 0.42, 0.028, None), thinks=False),
        _m("deepseek-reasoner", 128_000, 65_536, (0.28, 0.42, 0.028, None), thinks=True),
        _m("claude-opus-4-6", 1_000_000, 128_000, (5.0, 25.0, 0.50, 6.25), thinks=True),
        _m("claude-sonnet-4-6", 1_000_000, 128_000, (3.0, 15.0, 0.30, 3.75), thinks=True),
        _m("claude-opus-4-5", 200_000, 64_000, (5.0, 25.0, 0.50, 6.25), thinks=True),
        _m("claude-sonnet-4-5", 200_000, 64_000, (3.0, 15.0, 0.30, 3.75), thinks=True),
        _m("claude-haiku-4-5", 200_000, 64_000, (1.0, 5.0, 0.10, 1.25), thinks=True),
        _m("claude-opus-4-1", 200_000, 32_000, (15.0, 75.0, 1.50, 18.75), thinks=True),
        _m("claude-sonnet-4", 200_000, 64_000, (3.0, 15.0, 0.30, 3.75), thinks=True),
        _m("gpt-5", 400_000, 128_000, (1.25, 10.0, 0.125, None), thinks=True),
        _m("gpt-5-mini", 400_000, 128_000, (0.25, 2.0, 0.025, None), thinks=True),
        _m("gpt-5-nano", 400_000, 128_000, (0.05, 0.40, 0.005, None), thinks=True),
        _m("gpt-4.1", 1_047_576, 32_768, (2.0, 8.0, 0.50, None), thinks=False),
        _m("gpt-4.1-mini", 1_047_576, 32_768, (0.40, 1.60, 0.10, None), thinks=False),
        _m("gpt-4o", 128_000, 16_384, (2.50, 10.0, 1.25, None), thinks=False),
        _m("o3", 200_000, 100_000, (2.0, 8.0, 0.50, None), thinks=True),
        _m("o4-mini", 200_000, 100_000, (1.10, 4.40, 0.275, None), thinks=True),
        _m("gemini-2.5-pro", 1_048_576, 65_536, (1.25, 10.0, 0.31, None), thinks=True),
        _m("gemini-2.5-flash", 1_048_576, 65_536, (0.30, 2.50, 0.075, None), thinks=True),
        _m("claude-sonnet-5-5", 200_000, 64_000, None, thinks=True),
        _m("claude-opus-5-5", 200_000, 64_000, None, thinks=True),
        _m("gpt-5.5", 400_000, 128_000, None, thinks=True),
        _m("gpt-5.5-mini", 400_000, 128_000, None, thinks=True),
    )
}
"""Known models by id (prices unknown where no list price was published when written)."""

_SUFFIX_STARTS = ("-2", "@", "-v", ":")
"""What may follow an id in a longer name: a date, Vertex's `@date`, Bedrock's `-v1:0`."""


_KINDS = (
    "script",
    "openai",
    "openai-responses",
    "anthropic",
    "azure",
    "bedrock",
    "vertex",
    "gemini",
)


def model_id(name: str) -> str:
    """The bare model id of a spec or a provider's name: `anthropic:claude-x` → `claude-x`,
    `openai:vendor/gpt-5` → `gpt-5`, `bedrock:us.anthropic.claude-x-v1:0` → `claude-x-v1:0`."""
    kind, sep, rest = name.partition(":")
    model = rest if sep and kind in _KINDS else name
    model = model.rsplit("/", 1)[-1].lower()
    # Bedrock's ids carry the vendor, and its inference profiles a region before it.
    vendor = model.find("anthropic.")
    return model[vendor + len("anthropic.") :] if vendor >= 0 else model


def model_info(name: str, overrides: Mapping[str, ModelInfo] | None = None) -> ModelInfo | None:
    """What is known of `name` (a spec or a bare id): an override first, then the catalog."""
    model = model_id(name)
    for table in (overrides or {}, CATALOG):
        found = _match(model, table)
        if found is not None:
            return found
    return None


def _match(model: str, table: Mapping[str, ModelInfo]) -> ModelInfo | None:
    if model in table:
        return table[model]
    # The longest id whose dated or versioned form this is (`gpt-5-mini-2025...` is gpt-5-mini).
    for id_ in sorted(table, key=len, reverse=True):
        if model.startswith(id_) and model[len(id_) :].startswith(_SUFFIX_STARTS):
            return table[id_]
    return None


def cost_of(usage: Usage, info: ModelInfo | None) -> float | None:
    """What `usage` cost in US dollars at `info`'s price; `None` when the price is unknown."""
    if info is None or info.price is None:
        return None
    price = info.price
    read = usage.cached_read_tokens or 0
    write = usage.cached_write_tokens or 0
    fresh = max(usage.input_tokens - read - write, 0)
    dollars = (
        fresh * price.input
        + read * (price.cache_read if price.cache_read is not None else price.input)
        + write * (price.cache_write if price.cache_write is not None else price.input)
        + usage.output_tokens * price.output
    )
    return round(dollars / 1_000_000, 6)


KNOWN_MODELS: dict[str, tuple[str, ...]] = {
    "api.deepseek.com": ("openai:deepseek-chat", "openai:deepseek-reasoner"),
    "api.openai.com": ("openai:gpt-5.5", "openai:gpt-5.5-mini"),
    "api.anthropic.com": ("anthropic:claude-sonnet-5-5", "anthropic:claude-opus-5-5"),
}
"""Well-known models by the endpoint's host; other endpoints offer only the current model
(or their cloud's, `CLOUD_MODELS`)."""

CLOUD_MODELS: dict[str, tuple[str, ...]] = {
    "bedrock": (
        "bedrock:global.anthropic.claude-sonnet-4-6",
        "bedrock:global.anthropic.claude-opus-4-6-v1",
    ),
    "vertex": ("vertex:claude-sonnet-4-6", "vertex:claude-opus-4-6"),
}
"""Claude as each cloud names it in Anthropic's own tables, offered whatever the region (a
cloud's runtime endpoint lists no models)."""

_SCRIPTS_SHOWN = 50


async def offered_models(model: Model) -> tuple[str, ...]:
    """`known_models`, then what the endpoint itself lists (`GET /models`, see `listing`), as
    specs of the same kind (a switch never changes provider)."""
    listed = getattr(model, "listed", None)
    if listed is not None:
        await listed()
    return offered_now(model)


def offered_now(model: Model) -> tuple[str, ...]:
    """`offered_models` without asking the endpoint: its list only if it was asked lately."""
    known = known_models(model)
    listed_now = getattr(model, "listed_now", None)
    found = listed_now() if listed_now is not None else None
    if not found:
        return known
    kind = model.name.partition(":")[0]
    specs = (f"{kind}:{model_id_}" for model_id_ in found)
    return (*known, *(spec for spec in specs if spec not in known))


def known_models(model: Model) -> tuple[str, ...]:
    """Specs of the models `model`'s provider offers, the current one first."""
    kind, _, rest = model.name.partition(":")
    if kind == "script" and rest:
        # Offline, a provider's models are the scripts beside the current one.
        here = Path(rest)
        try:
            siblings = sorted(p for p in here.parent.glob("*.json") if p.name != here.name)
        except OSError:
            siblings = []
        others = tuple(f"script:{here.parent / p.name}" for p in siblings[:_SCRIPTS_SHOWN])
    else:
        host = urlsplit(str(getattr(model, "base_url", ""))).hostname or ""
        others = KNOWN_MODELS.get(host) or CLOUD_MODELS.get(kind, ())
    return (model.name, *(spec for spec in others if spec != model.name))
