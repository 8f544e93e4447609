"""Background commands' cards after their calls returned: each change logged, then shown.

A job reports itself (see `tether.tools.bash.jobs`); its report becomes a `job/update` event,
and the card a client sees is derived from that event by `job_update`, live and on replay
alike. Reports go to whoever listens now (`listener`), between prompts too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from tether import views
from tether.session.log.eventlog import EventLog
from tether.session.log.events import JobEvent, ToolResultEvent
from tether.session.updates import ClientUpdate, JobChanged
from tether.tools.bash.group import signal_name
from tether.tools.bash.jobs import Job
from tether.tools.bash.tool import RUNNING_TAIL_CHARS
from tether.tools.bash.value import card_output

__all__ = ["JobCards", "job_update"]

log = logging.getLogger(__name__)


def job_update(event: JobEvent) -> JobChanged:
    """The card a `job/update` event shows: the output, then how the job stands."""
    note = (
        f"ran in the background as {event.job_id}"
        if event.ended
        else f"running in the background as {event.job_id}"
    )
    view = views.TerminalResultView(
        title=event.command,
        output=event.output,
        exit_code=event.exit_code,
        signal=event.signal,
        notes=(note,),
    )
    return JobChanged(
        tool_call_id=event.tool_call_id, job_id=event.job_id, view=view, ended=event.ended
    )


class JobCards:
    """Logs each job's change and tells the listener, once the job's call has its result."""

    def __init__(self, log_: EventLog) -> None:
        self._log = log_
        self.listener: Callable[[ClientUpdate], None] | None = None
        """Who is shown the cards as they change (a surface sets it; `None`: no one)."""

    def changed(self, job: Job) -> bool:
        """Record `job` as it is now; `False` while its call has no result in the log yet."""
        if self._log.closed:
            return True  # the session ended: nothing more is recorded
        if not any(
            isinstance(e, ToolResultEvent) and e.tool_call_id == job.tool_call_id
            for e in reversed(self._log.events)
        ):
            return False
        ended = job.finished()
        done = not job.running
        output = card_output(job.capture.card()) if done else job.capture.recent(RUNNING_TAIL_CHARS)
        event = self._log.append(
            JobEvent(
                tool_call_id=job.tool_call_id,
                job_id=job.id,
                command=job.command,
                output=output,
                exit_code=ended.exit_code if ended is not None and ended.signal is None else None,
                signal=signal_name(ended.signal) if ended and ended.signal is not None else None,
                ended=done,
            )
        )
        if self.listener is not None:
            try:
                self.listener(job_update(event))
            except Exception:  # a client that fails to render must not stop the job's log
                log.exception("a job update's listener failed")
        return True
