"""`tether show ID`: a stored session, rendered from its log exactly as it was shown live."""

from __future__ import annotations

import argparse
import gc
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tether.cli.held_output import HeldOutput, said_once
from tether.cli.home_args import add_home_argument, use_home
from tether.cli.model_args import add_verbose_argument
from tether.cli.safe_output import consoles
from tether.session import SessionStore
from tether.session.log import eventlog
from tether.session.log.events import SessionHeader
from tether.session.replay import replayed
from tether.session.updates import ClientUpdate
from tether.tools.defaults import replay_tools

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["configure", "run"]

log = logging.getLogger(__name__)


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
    session = store.resolve(args.id)
    if args.json:
        from tether.cli.show_json import print_session  # the JSON form only

        print_session(lambda check_first: _replayed(store, session, check_first))
        return 0
    # Read once: each line is checked as its event is made, replayed and printed; what is
    # printed is held back until the last line is read, so a corrupt line is still an error
    # before anything shows. Should holding it fail, the log is checked whole first and the
    # session printed as it is replayed.
    with said_once(eventlog.log):  # a log read twice warns of a torn last line once
        held = HeldOutput()
        try:
            out, err = consoles(settled=True)  # rich, for the text form only
            out.file, err.file = held.stream(out.file), held.stream(err.file)
            replayed = _replayed(store, session, check_first=False)
            status = _print_text(*replayed, out, err, args.full)
            if held.release():
                return status
        finally:
            held.close()
        log.debug("could not hold the text back; checking the log first")
        out, err = consoles(settled=True)
        return _print_text(*_replayed(store, session, check_first=True), out, err, args.full)


def _print_text(
    header: SessionHeader,
    updates: Iterator[ClientUpdate],
    out: Console,
    err: Console,
    full: bool,
) -> int:
    """The session's text through the printer a live run uses; its exit status."""
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

    printer = Printer(out, err, full=full)
    for update in updates:
        printer(update)
    printer.close()
    return 1 if printer.failed else 0


def _replayed(
    store: SessionStore, session: str, check_first: bool
) -> tuple[SessionHeader, Iterator[ClientUpdate]]:
    """The session's header and its updates, each made as it is taken (`SessionStore.stream`
    says what `check_first` does)."""
    header, events = store.stream(session, check_first=check_first)
    return header, _collected(replayed(events, replay_tools(), header.cwd))


def _collected(updates: Iterator[ClientUpdate]) -> Iterator[ClientUpdate]:
    """`updates`, with the collector left running: what printing an update makes and drops
    (rich's segments, Markdown's tokens) is freed as it goes, not held to the end. The objects
    made before (the imports') are set aside meanwhile, so a collection does not walk them."""
    gc.freeze()
    try:
        yield from updates
    finally:
        gc.unfreeze()
