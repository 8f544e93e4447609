"""`tether batch` on the process pool: 20 tasks of every outcome, isolation of tasks on the
same repository, sessions browsable with `--home`, Ctrl-C and a resume that runs the rest."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
from pathlib import Path
from typing import Any

from tests.batch.tasks import (
    TETHER,
    batch_env,
    gated_batch,
    git_repo,
    in_a_thread,
    kill_first_worker,
    killed_once_setup,
    log_events,
    results,
    run_batch,
    work,
    write_tasks,
)
from tests.cli.in_process import tether_in_process
from tests.cli.support import scripted_model
from tests.polling import eventually


def test_twenty_tasks_each_isolated_with_every_outcome(tmp_path: Path) -> None:
    home = tmp_path / "home"
    repo = git_repo(tmp_path / "repo", {"shared.txt": "colour = red\n", "other.txt": "x\n"})
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "notes.md").write_text("# Notes\nstatus: draft\n")
    blue = work(tmp_path / "blue.json", "shared.txt", "red", "blue")
    green = work(tmp_path / "green.json", "shared.txt", "red", "green")
    notes = work(tmp_path / "notes.json", "notes.md", "draft", "final")
    failing = scripted_model(tmp_path / "fail.json", {"error": "the endpoint refused the key"})
    slow = scripted_model(
        tmp_path / "slow.json",
        {"toolCalls": [{"id": "s", "name": "bash", "arguments": {"command": "sleep 60"}}]},
        {"text": "never said"},
    )
    lines: list[dict[str, object] | str] = [
        {"id": "blue", "prompt": "make it blue", "repo": str(repo), "model": blue},
        {"id": "green", "prompt": "make it green", "repo": "repo", "ref": "HEAD", "model": green},
    ]
    lines += [
        {"id": f"notes-{n}", "prompt": "finish the notes", "cwd": "folder", "model": notes}
        for n in range(12)
    ]
    # A change too big for a result line: its files are listed instead.
    big = work(tmp_path / "big.json", "notes.md", "draft", "final", command="seq 1500000 > big.txt")
    lines.append({"id": "notes-12", "prompt": "write a lot", "cwd": "folder", "model": big})
    # The whole folder of the task file, the batch's output folder inside it (left out).
    nested = work(tmp_path / "nested.json", "folder/notes.md", "draft", "final")
    lines.append({"id": "notes-13", "prompt": "finish them", "cwd": ".", "model": nested})
    lines += [
        {"id": "fails", "prompt": "try", "cwd": "folder", "model": failing},
        {"id": "slow", "prompt": "wait", "cwd": "folder", "model": slow, "timeoutS": 1},
        "{this is not json",
        {"id": "nowhere", "prompt": "p", "cwd": "missing-folder", "model": notes},
    ]
    tasks = write_tasks(tmp_path / "tasks.jsonl", lines)
    out = tmp_path / "out"
    done = run_batch(home, [str(tasks), "--out", str(out), "--workers", "2"])
    assert done.returncode == 1, done.stderr  # not every task is done
    by_id = {line["id"]: line for line in results(out)}
    assert len(by_id) == len(results(out)) == 20
    statuses = {id_: line["status"] for id_, line in by_id.items()}
    assert statuses == {
        **{f"notes-{n}": "done" for n in range(14)},
        "blue": "done",
        "green": "done",
        "fails": "failed",
        "slow": "timeout",
        "line-19": "error",
        "nowhere": "error",
    }
    assert "task file line 19: not JSON" in done.stderr
    assert by_id["line-19"]["line"] == 19
    assert "cwd 'missing-folder' is not a directory" in by_id["nowhere"]["error"]
    assert by_id["fails"]["error"] == "the endpoint refused the key"
    assert by_id["slow"]["stopReason"] == "cancelled"
    _isolated(out, by_id)
    assert (repo / "shared.txt").read_text() == "colour = red\n"
    assert not (repo / "ran.txt").exists()
    assert (folder / "notes.md").read_text() == "# Notes\nstatus: draft\n"
    assert "+status: final" in by_id["notes-3"]["diff"]
    assert "diffTruncated" not in by_id["notes-3"]
    assert by_id["notes-12"]["diffTruncated"] is True
    assert "files only" in by_id["notes-12"]["diff"] and "big.txt" in by_id["notes-12"]["diff"]
    assert len(by_id["notes-12"]["diff"]) < 10_000
    assert "b/folder/notes.md" in by_id["notes-13"]["diff"]
    assert "out/" not in by_id["notes-13"]["diff"]
    _browsable(out, home, by_id)
    assert "done" in done.stdout and "task time p95" in done.stdout


def _isolated(out: Path, by_id: dict[str, dict[str, Any]]) -> None:
    """Two tasks on the same file of the same repository: each saw and changed only its own
    copy."""
    for colour in ("blue", "green"):
        line = by_id[colour]
        assert line["result"] == f"Replaced red by {colour}."
        assert line["usage"] == {"inputTokens": 220, "outputTokens": 15}
        assert line["attempts"] == 1
        assert f"-colour = red\n+colour = {colour}\n" in line["diff"]
        assert "b/ran.txt" in line["diff"]  # what its sandboxed command wrote is in the diff
        other = "green" if colour == "blue" else "blue"
        assert other not in line["diff"]
        read = next(e for e in log_events(out, line["sessionId"]) if e["type"] == "tool/result")
        assert "colour = red" in json.dumps(read)


def _browsable(out: Path, home: Path, by_id: dict[str, dict[str, Any]]) -> None:
    """Workspaces go once diffed; the sessions stay, browsable with --home."""
    assert list((out / "workspaces").iterdir()) == []
    listed = tether_in_process(home, "sessions", "--home", str(out), "--json", "-n", "0")
    assert listed.returncode == 0, listed.stderr
    session_ids = {row["id"] for row in json.loads(listed.stdout)}
    assert session_ids == {line["sessionId"] for line in by_id.values() if "sessionId" in line}
    shown = tether_in_process(home, "show", "--home", str(out), by_id["blue"]["sessionId"])
    assert shown.returncode == 0, shown.stderr
    assert "colour = blue" in shown.stdout


def test_ctrl_c_cancels_running_tasks_and_a_rerun_runs_only_the_rest(tmp_path: Path) -> None:
    home = tmp_path / "home"
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "a.txt").write_text("one\n")
    quick = work(tmp_path / "quick.json", "a.txt", "one", "two")
    slow_script = tmp_path / "slow.json"
    slow = scripted_model(
        slow_script,
        {"toolCalls": [{"id": "s", "name": "bash", "arguments": {"command": "sleep 120"}}]},
        {"text": "never said"},
    )
    lines: list[dict[str, object] | str] = [
        {"id": f"quick-{n}", "prompt": "edit", "cwd": "folder", "model": quick} for n in range(2)
    ]
    lines += [
        {"id": f"slow-{n}", "prompt": "wait", "cwd": "folder", "model": slow} for n in range(4)
    ]
    tasks = write_tasks(tmp_path / "tasks.jsonl", lines)
    out = tmp_path / "out"
    args = [str(tasks), "--out", str(out), "--workers", "2"]
    batch = subprocess.Popen(
        [str(TETHER), "batch", *args],
        env=batch_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )

    def sleeping() -> bool:
        logs = list((out / "sessions").glob("*.jsonl")) if (out / "sessions").is_dir() else []
        running = [p for p in logs if "sleep 120" in p.read_text()]
        return len(running) == 2 and (out / "results.jsonl").is_file()

    try:
        asyncio.run(eventually(sleeping, "two slow tasks running", within=120))
        assert {line["id"] for line in results(out)} == {"quick-0", "quick-1"}
        batch.send_signal(signal.SIGINT)
        _stdout, stderr = batch.communicate(timeout=120)
    finally:
        if batch.poll() is None:
            batch.kill()
            batch.wait()
    assert batch.returncode == 130, stderr
    first = results(out)
    cancelled = [line for line in first if line["status"] == "cancelled"]
    assert len(first) == 4 and len(cancelled) == 2, first
    for line in cancelled:
        last = log_events(out, line["sessionId"])[-1]
        assert last == {**last, "type": "turn/end", "stopReason": "cancelled"}
    assert "rerun with --out" in stderr
    # The rest, now quick: the two cancelled and the two never started run, the done ones not.
    work(slow_script, "a.txt", "one", "three")
    again = run_batch(home, args)
    assert again.returncode == 0, again.stderr
    rerun = results(out)[4:]
    assert sorted(line["id"] for line in rerun) == [f"slow-{n}" for n in range(4)]
    assert all(line["status"] == "done" and "+three" in line["diff"] for line in rerun)
    assert "skipped (already done)" in again.stdout


def test_a_task_whose_worker_is_killed_runs_again(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "a.txt").write_text("one\n")
    model = work(tmp_path / "w.json", "a.txt", "one", "two")
    line = {"id": "k", "prompt": "edit", "cwd": "folder", "model": model}
    tasks = write_tasks(tmp_path / "tasks.jsonl", [{**line, "setup": killed_once_setup(tmp_path)}])
    out = tmp_path / "out"
    # The batch runs in this process (its worker is a process of its own) while a thread
    # kills the worker of the first attempt.
    killer = in_a_thread(kill_first_worker, tmp_path)
    args = [str(tasks), "--out", str(out), "--workers", "1", "--keep-workspaces"]
    batch = run_batch(tmp_path / "home", args)
    killer()
    assert batch.returncode == 0, batch.stderr
    [result] = results(out)
    assert result["status"] == "done" and result["attempts"] == 2
    assert "+two" in result["diff"]
    assert len((tmp_path / "pids").read_text().split()) == 2  # two workers, one task each
    assert (out / "workspaces" / "k" / "a.txt").read_text() == "two\n"  # kept, as asked
    # A folder that is not there is refused before anything is read.
    for command in ("sessions", "web"):
        refused = tether_in_process(tmp_path / "home", command, "--home", str(tmp_path / "nowhere"))
        assert refused.returncode == 2
        assert "--home" in refused.stderr and "is not a directory" in refused.stderr


def test_max_concurrency_bounds_model_requests_across_workers(tmp_path: Path) -> None:
    done, counts = gated_batch(tmp_path, 4, ["--workers", "2"])
    assert done.returncode == 0, done.stderr
    assert [line["status"] for line in results(tmp_path / "out")] == ["done"] * 4
    assert counts.requests == 4
    assert counts.peak == 1, done.stderr
