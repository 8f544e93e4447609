"""Logging in from the terminal: a first run without a key, `/login` and `/logout`.

A first run whose model has no key asks which provider to use and takes its key, typed or
pasted on a hidden line; the key is saved in `$TETHER_HOME/credentials.json` (mode 0600,
`tether.models.credentials`) for that provider's endpoint and the session goes on with it.
Whatever was typed meanwhile stays: the draft in the box, the prompts queued to send.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from tether.cli.interactive.conversation import Conversation, model_label
from tether.cli.interactive.picker import Choice, Picker
from tether.cli.model_args import missing_key
from tether.errors import ModelError
from tether.models.base import Model
from tether.models.credentials import (
    STORED_SOURCE,
    credentials_path,
    read_credentials,
)
from tether.models.factory import make_model
from tether.models.streaming import StreamingModel
from tether.tools.fs.atomic import atomic_write

__all__ = ["PROVIDERS", "login", "logout", "onboard"]

PROVIDERS = (
    ("DeepSeek", "openai"),
    ("Anthropic", "anthropic"),
    ("OpenAI", "openai-responses"),
    ("Gemini", "gemini"),
)
"""(name, model kind) of each provider a key can be given for, in the order offered."""


@dataclass(frozen=True)
class _Option:
    """One provider offered: its model spec and the endpoint its key is saved for."""

    spec: str
    model: StreamingModel[Any, Any]
    label: str


async def onboard(conversation: Conversation) -> None:
    """The model has no key: say so, ask for a provider and its key, or say how to later."""
    conversation.notice(missing_key(conversation.model) or "", "yellow")
    conversation.front.facts.note = None  # it waits for you now, not for itself
    conversation.front.screen.refresh()
    if not await _ask(conversation, "No API key yet: which provider will you use?"):
        conversation.notice(
            "no key given: /login when you are ready (prompts wait in the box meanwhile)",
            "yellow",
        )


async def login(conversation: Conversation, _arguments: str) -> None:
    """Pick a provider and give its key; it is saved and used from the next request on."""
    await _ask(conversation, "Log in: which provider?")


async def logout(conversation: Conversation, _arguments: str) -> None:
    """Forget the key saved for the current model's endpoint."""
    model = conversation.model
    if not isinstance(model, StreamingModel):
        conversation.notice(f"{model_label(model.name)} takes no key: nothing to log out of")
        return
    url = model.provider.base_url
    try:
        saved = read_credentials(private=False)
    except ModelError as exc:
        conversation.notice(f"error: {exc}", "red")
        return
    source = model.provider.key_source
    if saved.key_for(url) is None:
        given = f"; the key in use comes from {source}" if source is not None else ""
        conversation.notice(f"no key is saved for {url} (/login saves one){given}")
        return
    _write(saved.without_key(url).encoded())
    conversation.notice(f"logged out: the key saved for {url} is deleted")
    if source not in (None, STORED_SOURCE):
        conversation.notice(f"{source} still gives a key: requests keep using it", "yellow")
    _use(conversation, _remade(model.name, url))


async def _ask(conversation: Conversation, title: str) -> bool:
    """Ask for a provider and its key until one is given or the question is dismissed;
    whether a key was saved."""
    options = _options(conversation.model)
    current = next((i for i, o in enumerate(options) if o.model is conversation.model), 0)
    choices = [
        Choice(o.label, detail=_where(o.model), asks=f"{o.label} API key (hidden):", secret=True)
        for o in options
    ]
    while True:
        picker = Picker(title, choices, selected=current, dismiss="esc to skip")
        conversation.front.screen.open_picker(picker)
        try:
            picked = await picker.result
        finally:
            picker.dismiss_now()
        if picked is None:
            return False
        key = (picked.text or "").strip()
        if not key or any(c.isspace() for c in key):
            conversation.notice("that is no key (empty, or with spaces in it): try again", "red")
            current = picked.index
            continue
        chosen = options[picked.index]
        url = chosen.model.provider.base_url
        try:
            # Others' eyes are no reason to lose the other keys: rewritten, the file is private.
            saved = read_credentials(private=False)
        except ModelError as exc:
            conversation.notice(f"error: {exc} (move it away, then /login)", "red")
            return False
        path = _write(saved.with_key(url, key, chosen.spec).encoded())
        conversation.notice(f"logged in to {chosen.label}: the key is saved in {path} for {url}")
        _use(conversation, _remade(chosen.spec, url))
        return True


def _options(current: Model) -> list[_Option]:
    """Every provider, the current model standing for its own kind (with its endpoint)."""
    kind = current.name.partition(":")[0]
    options: list[_Option] = []
    for name, spec in PROVIDERS:
        if spec == kind and isinstance(current, StreamingModel):
            # Another endpoint of that kind (a proxy, a gateway) is named by its host.
            label = name if _is_default(current) else _host(current.provider.base_url)
            options.append(_Option(current.name, current, label))
            continue
        try:
            model = make_model(spec)
        except ModelError:
            continue  # its endpoint variable is malformed: not offered
        assert isinstance(model, StreamingModel)
        options.append(_Option(spec, model, name))
    return options


def _is_default(model: StreamingModel[Any, Any]) -> bool:
    """Whether `model` talks to its provider's own endpoint (a kind's default one)."""
    default = make_model(model.name.partition(":")[0])
    assert isinstance(default, StreamingModel)
    return default.provider.base_url == model.provider.base_url


def _where(model: StreamingModel[Any, Any]) -> str:
    return f"{model.model} · {_host(model.provider.base_url)}"


def _host(url: str) -> str:
    return urlsplit(url).netloc or url


def _remade(spec: str, url: str) -> Model:
    """The model `spec` names at `url`, made again so that it reads the keys as they are now."""
    return make_model(spec, base_url=url)


def _use(conversation: Conversation, model: Model) -> None:
    conversation.model = model
    conversation.work.model = model
    if conversation.session is not None:
        conversation.session.set_model(model)
    conversation.show_facts()


def _write(data: bytes) -> str:
    """Replace the credentials file with `data`, readable by its owner only; its path."""
    path = credentials_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    atomic_write(path, data, (path.parent,), mode=0o600, replace_link=True)
    return str(path)
