"""The task file of `tether batch`: one JSON object per line, each a prompt for its own workspace.

A line that cannot be run (not JSON, no prompt, a missing `cwd`, an id seen before) becomes a
`BadTask` naming its line number; the other lines run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic.alias_generators import to_camel

from tether.bounded import read_bounded_text
from tether.jsontext import parse_json
from tether.policy import PolicyMode

__all__ = ["ID_RULE", "MAX_TASK_FILE_BYTES", "BadTask", "BatchTask", "TaskLine", "read_tasks"]

MAX_TASK_FILE_BYTES = 256 * 1024 * 1024
"""The largest task file read (prompts are text: this is hundreds of thousands of tasks)."""

_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")
"""A task id names its workspace folder: a plain name, no path, not hidden (matched whole:
a pattern that only has to occur somewhere let `../x`, `a/b` and escape sequences through)."""
ID_RULE = "1 to 128 letters, digits, '_', '.' or '-', starting with a letter, digit or '_'"
"""What an id may be, as a bad line says."""


class BatchTask(BaseModel):
    """One task: a prompt and where it works (a copy of `cwd`, or `repo` at `ref`)."""

    model_config = ConfigDict(
        alias_generator=to_camel, validate_by_alias=True, extra="forbid", frozen=True
    )

    id: str
    prompt: str = Field(min_length=1)
    cwd: str | None = None
    """A folder copied into the task's workspace (the original is never touched)."""
    repo: str | None = None
    """A git repository (a path or a URL) cloned into the workspace at `ref`."""
    ref: str | None = None
    model: str | None = None
    mode: PolicyMode | None = None
    max_steps: int | None = Field(default=None, ge=1)
    timeout_s: float | None = Field(default=None, gt=0)
    setup: str | None = None
    """A shell command run in the workspace before the prompt (not sandboxed: the task file's
    author wrote it)."""
    line: int = 0
    """The task's line in its file (set by `read_tasks`, not read from the line)."""

    @field_validator("id")
    @classmethod
    def _plain_id(cls, value: str) -> str:
        if not _ID.fullmatch(value):
            raise ValueError(f"an id is {ID_RULE}")
        return value

    @field_validator("ref")
    @classmethod
    def _not_an_option(cls, value: str | None) -> str | None:
        if value is not None and (not value or value.startswith("-")):
            raise ValueError("a ref names a commit, branch or tag (it cannot start with '-')")
        return value


@dataclass(frozen=True, kw_only=True, slots=True)
class BadTask:
    """A line that cannot run: its number, its id when one could be read, and why."""

    kind: Literal["bad"] = "bad"
    line: int
    id: str
    message: str


TaskLine: TypeAlias = BatchTask | BadTask
"""One line of a task file."""


def read_tasks(path: Path) -> list[TaskLine]:
    """Every non-blank line of the task file at `path`, as a task or a bad line.

    Relative `cwd` and `repo` paths and `script:FILE` models are taken from the file's folder.
    Raises `OSError` or `UnreadableFile` when the file itself cannot be read.
    """
    text = read_bounded_text(path, limit=MAX_TASK_FILE_BYTES)
    base = path.resolve().parent
    seen: set[str] = set()
    lines: list[TaskLine] = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        parsed = _task(raw, number, base)
        if isinstance(parsed, BatchTask) and parsed.id in seen:
            parsed = BadTask(
                line=number,
                id=f"line-{number}",
                message=f"id {parsed.id!r} is used by an earlier line",
            )
        if isinstance(parsed, BatchTask):
            seen.add(parsed.id)
        lines.append(parsed)
    return lines


def _task(raw: str, number: int, base: Path) -> TaskLine:
    """One line as a task, or why it is not one."""
    try:
        data = parse_json(raw)
    except (ValueError, RecursionError) as exc:
        return BadTask(line=number, id=f"line-{number}", message=f"not JSON: {exc}")
    if not isinstance(data, dict):
        return BadTask(line=number, id=f"line-{number}", message="not a JSON object")
    raw_id = data.get("id")
    named = raw_id if isinstance(raw_id, str) and _ID.fullmatch(raw_id) else f"line-{number}"
    if "line" in data:
        return BadTask(line=number, id=named, message="unknown field 'line'")
    try:
        task = BatchTask.model_validate({**data, "line": number})
    except ValidationError as exc:
        details = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'line'}: {e['msg']}"
            for e in exc.errors(include_url=False)
        )
        return BadTask(line=number, id=named, message=details)
    problem = _where_problem(task, base)
    if isinstance(problem, str):
        return BadTask(line=number, id=task.id, message=problem)
    return problem


def _where_problem(task: BatchTask, base: Path) -> BatchTask | str:
    """The task with its paths made absolute, or what is wrong with where it works."""
    if (task.cwd is None) == (task.repo is None):
        return "give exactly one of 'cwd' and 'repo'"
    if task.ref is not None and task.repo is None:
        return "'ref' goes with 'repo'"
    changes: dict[str, str] = {}
    if task.cwd is not None:
        cwd = base / Path(task.cwd).expanduser()
        if not cwd.is_dir():
            return f"cwd {task.cwd!r} is not a directory"
        changes["cwd"] = str(cwd.resolve())
    if task.repo is not None and not _is_url(task.repo):
        repo = base / Path(task.repo).expanduser()
        if not repo.is_dir():
            return f"repo {task.repo!r} is not a directory (nor a git URL)"
        changes["repo"] = str(repo.resolve())
    if task.model is not None and task.model.startswith("script:"):
        script = base / Path(task.model.removeprefix("script:")).expanduser()
        changes["model"] = f"script:{script}"
    return task.model_copy(update=changes) if changes else task


def _is_url(repo: str) -> bool:
    """Whether `repo` names a remote git repository rather than a folder."""
    return "://" in repo or re.fullmatch(r"[\w.-]+@[\w.-]+:.*", repo) is not None
