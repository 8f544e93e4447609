"""`tether batch TASKS.jsonl --out DIR`: many headless prompts, each in its own workspace."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from tether.batch.driver import Runner, run_batch
from tether.batch.pool import Pool
from tether.batch.progress import summary_table
from tether.batch.results import RESULTS_FILE
from tether.batch.runner import BatchOptions
from tether.batch.tasks import read_tasks
from tether.batch.workspaces import BATCH_OUTPUTS
from tether.cli.model_args import add_model_arguments
from tether.cli.safe_output import consoles
from tether.cli.sandbox_args import add_sandbox_arguments
from tether.errors import UnreadableFile
from tether.home import data_dir
from tether.policy import MODES
from tether.session import DEFAULT_MAX_STEPS

__all__ = ["configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of `tether batch`."""
    parser.add_argument("tasks", type=Path, help="the task file: one JSON object per line")
    parser.add_argument(
        "--out",
        type=Path,
        required=True,
        metavar="DIR",
        help="where results.jsonl, sessions/ and workspaces/ go (rerun with it to resume)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="tasks at once on this machine, or the CPUs of the local Ray cluster "
        "(default: the number of cores)",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="run the tasks on a Ray cluster (without ADDRESS: a local one); needs "
        "pip install 'tether[ray]'",
    )
    parser.add_argument(
        "--retries",
        type=int,
        default=1,
        metavar="N",
        help="times a task lost with its worker is run again (default 1)",
    )
    parser.add_argument(
        "--max-concurrency",
        type=int,
        default=None,
        metavar="N",
        help="model requests at once across all workers (default: no limit)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="a task's time limit when its line sets no timeoutS (default: none)",
    )
    add_model_arguments(parser, api_key=False)
    parser.add_argument(
        "--mode",
        choices=MODES,
        default=None,
        help="permission mode of tasks that set none (default: auto, inside the sandbox)",
    )
    parser.add_argument(
        "--max-steps",
        type=int,
        default=DEFAULT_MAX_STEPS,
        metavar="N",
        help="model requests per task when its line sets no maxSteps "
        f"(default {DEFAULT_MAX_STEPS})",
    )
    add_sandbox_arguments(parser)
    parser.add_argument(
        "--keep-workspaces",
        action="store_true",
        help="keep each task's workspace in DIR/workspaces/ID (default: removed once diffed)",
    )


def run(args: argparse.Namespace) -> int:
    """Run the batch; 0 when every task is done, 1 when one is not, 130 when cancelled."""
    out, err = consoles()
    problem = _check(args)
    if problem:
        err.print(f"tether: error: {problem}", markup=False)
        return 2
    try:
        lines = read_tasks(args.tasks)
    except (OSError, UnreadableFile) as exc:
        err.print(f"tether: error: cannot read the task file: {exc}", markup=False)
        return 1
    folder: Path = args.out.resolve()
    folder.mkdir(parents=True, exist_ok=True)
    options = BatchOptions(
        home=data_dir(),
        model=args.model,
        thinking=args.thinking,
        base_url=args.base_url,
        mode=args.mode,
        sandbox=args.sandbox,
        allow_network=args.allow_network,
        max_steps=args.max_steps,
        timeout_s=args.timeout,
        keep_workspaces=args.keep_workspaces,
    )
    runner: Runner
    if args.ray is not None:
        from tether.batch.ray_runner import RayRunner, ray_missing

        missing = ray_missing()
        if missing:
            err.print(f"tether: error: {missing}", markup=False)
            return 1
        runner = RayRunner(
            options,
            folder,
            address=args.ray or None,
            retries=args.retries,
            max_concurrency=args.max_concurrency,
            num_cpus=args.workers,
        )
    else:
        runner = Pool(
            options,
            folder,
            workers=args.workers,
            retries=args.retries,
            max_concurrency=args.max_concurrency,
        )
    try:
        done = run_batch(lines, folder, runner, err)
    except UnreadableFile as exc:
        err.print(f"tether: error: cannot resume from {exc}", markup=False)
        return 2
    out.print(summary_table(done.results, skipped=done.skipped, elapsed_s=done.elapsed_s))
    if done.cancelled:
        err.print(
            f"tether: cancelled; rerun with --out {args.out} to run what is left",
            markup=False,
        )
    err.print(
        f"results: {folder / 'results.jsonl'} · sessions: tether sessions --home {args.out}",
        style="dim",
        markup=False,
    )
    return done.status


def _check(args: argparse.Namespace) -> str | None:
    """What is wrong with the numbers given, if anything."""
    if args.workers < 1:
        return "--workers must be at least 1"
    if args.retries < 0:
        return "--retries must be 0 or more"
    if args.max_concurrency is not None and args.max_concurrency < 1:
        return "--max-concurrency must be at least 1"
    if args.timeout is not None and args.timeout <= 0:
        return "--timeout must be more than 0"
    if args.max_steps < 1:
        return "--max-steps must be at least 1"
    if args.out.exists() and not args.out.is_dir():
        return f"--out {args.out} is not a directory"
    for name in BATCH_OUTPUTS:
        path: Path = args.out / name
        # Followed links: what the batch would read and write is what matters.
        if name == RESULTS_FILE and path.exists() and not path.is_file():
            return f"--out {args.out}: {path} is not a regular file"
        if name != RESULTS_FILE and path.exists() and not path.is_dir():
            return f"--out {args.out}: {path} is not a directory"
    return None
