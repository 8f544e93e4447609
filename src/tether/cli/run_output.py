"""`tether run --output-format json|stream-json`: what a program reads on stdout.

`stream-json` writes the `init` line, every update as it happens, then the `result` line;
`json` writes the `result` line alone (see `tether.session.headless`). Nothing else goes to
stdout: notices and errors go to stderr, as in text mode.
"""

from __future__ import annotations

from typing import Literal

from rich.console import Console

from tether.cli.safe_output import print_json_line
from tether.session.headless import RUN_INIT, RUN_RESULT, RunInit, RunResult, stream_line
from tether.session.updates import ClientUpdate, ToolCallFinished
from tether.tools.task.meta import refusals

__all__ = ["OUTPUT_FORMATS", "JsonLines", "OutputFormat"]

OutputFormat = Literal["text", "json", "stream-json"]
OUTPUT_FORMATS: tuple[OutputFormat, ...] = ("text", "json", "stream-json")


class JsonLines:
    """Takes a run's updates in place of the printer: lines on stdout for `stream-json`.

    Like the printer it notes a call refused for want of someone to approve it (the exit
    status says the run did not do what was asked) and a line it could not write.
    """

    def __init__(self, console: Console, *, stream: bool) -> None:
        self.console = console
        """Where text for people goes (a slash command's listing): stderr."""
        self.stream = stream
        self.refused = False
        self.failed = False

    def __call__(self, update: ClientUpdate) -> None:
        """Write one update (stream-json) and note a refusal."""
        if isinstance(update, ToolCallFinished) and (
            update.permission == "refused" or refusals(update.result.meta)
        ):
            self.refused = True  # its own call, or one of an agent it started
        if self.stream:
            self._write(stream_line(update))

    def init(self, init: RunInit) -> None:
        """The first line (stream-json only)."""
        if self.stream:
            self._write(RUN_INIT.dump_python(init, mode="json", by_alias=True))

    def result(self, result: RunResult) -> None:
        """The last line; for `json` the only one."""
        self._write(RUN_RESULT.dump_python(result, mode="json", by_alias=True))

    def close(self) -> None:
        """Nothing is buffered: every line was flushed as it was written."""

    def _write(self, document: object) -> None:
        try:
            print_json_line(document)
        except BrokenPipeError:
            raise  # the reader went away: the command stops quietly
        except Exception as exc:
            self.failed = True
            self.console.print(f"tether: error: could not write a line: {exc!r}", markup=False)
