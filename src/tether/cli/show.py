"""`tether show ID`: a stored session, rendered from its log exactly as it was shown live."""

from __future__ import annotations

import argparse
import gc
import json
from collections.abc import Iterator

from pydantic import TypeAdapter
from pydantic_core import PydanticSerializationError

from tether.cli.home_args import add_home_argument, use_home
from tether.cli.model_args import add_verbose_argument
from tether.cli.safe_output import consoles, print_json_stream
from tether.session import SessionStore
from tether.session.document import SESSION_DOCUMENT, SessionDocument
from tether.session.replay import replayed
from tether.session.updates import ClientUpdate
from tether.tools.defaults import default_tools

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of `tether show`."""
    parser.add_argument("id", help="the session id (a unique prefix is enough)")
    parser.add_argument("--json", action="store_true", help="print the updates as JSON")
    add_home_argument(parser)
    add_verbose_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Replay the log through the same printer a live run uses."""
    try:
        use_home(args)
    except ValueError as exc:
        consoles()[1].print(f"tether: error: {exc}", markup=False, soft_wrap=True)
        return 2
    store = SessionStore.default()
    # Streamed: the log is checked whole first (a corrupt line is an error before anything
    # is printed), then each event is made, replayed and let go, each update once printed.
    header, events = store.stream(store.resolve(args.id))
    updates = _collected(replayed(events, default_tools(), header.cwd))
    if args.json:
        document = SessionDocument(
            id=header.id,
            cwd=header.cwd,
            created_at=header.created_at,
            updates=[],
            parent=header.parent,
        )
        head = SESSION_DOCUMENT.dump_python(document, mode="json", by_alias=True)
        print_json_stream(head, "updates", (_update_json(update) for update in updates))
        return 0
    out, err = consoles()  # rich, for the text form only
    # The document is drawn at one width: measured once, not again for every card.
    out.size, err.size = out.size, err.size
    err.print(
        f"session {header.id} · {header.cwd} · {header.created_at}", style="dim", markup=False
    )
    if header.parent is not None:
        # A child: where it came from, and how to see the card its parent showed.
        err.print(
            f"an agent's session, started by call {header.parent.call_id} of session "
            f"{header.parent.id} (tether show {header.parent.id})",
            style="dim",
            markup=False,
        )
    from tether.cli.printer import Printer  # rich's Markdown and the cards: the text form only

    printer = Printer(out, err, full=args.full)
    for update in updates:
        printer(update)
    printer.close()
    return 1 if printer.failed else 0


def _collected(updates: Iterator[ClientUpdate]) -> Iterator[ClientUpdate]:
    """`updates`, with the collector left running: what printing an update makes and drops
    (rich's segments, Markdown's tokens) is freed as it goes, not held to the end. The objects
    made before (the imports') are set aside meanwhile, so a collection does not walk them."""
    gc.freeze()
    try:
        yield from updates
    finally:
        gc.unfreeze()


def _update_json(update: ClientUpdate) -> bytes:
    """One update's JSON as UTF-8, indented, encoded by pydantic's fast serializer if it can be."""
    adapter = _adapter(type(update))
    try:
        return adapter.dump_json(update, by_alias=True, indent=2)
    except PydanticSerializationError:  # a lone surrogate: JSON's own escapes carry it
        document = adapter.dump_python(update, mode="json", by_alias=True)
        return json.dumps(document, indent=2, ensure_ascii=True).encode()


def _adapter(kind: type[object]) -> TypeAdapter[object]:
    """The serializer of one kind of update: the same JSON as `CLIENT_UPDATE`'s, without
    finding the kind in the union first (a third of the time, on a long log's updates)."""
    adapter = _ADAPTERS.get(kind)
    if adapter is None:
        adapter = _ADAPTERS[kind] = TypeAdapter(kind)
    return adapter


_ADAPTERS: dict[type[object], TypeAdapter[object]] = {}
