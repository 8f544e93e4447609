"""`tether batch --ray ADDRESS` on a local Ray cluster (loopback only): tasks run on Ray
workers, their lines, logs and diffs come back through the object store, and a worker
process killed mid-task is retried with its attempts counted."""

from __future__ import annotations

import asyncio
import shutil
import signal
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path

import pytest

from tests.batch.tasks import (
    TETHER,
    batch_env,
    gated_batch,
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

# Ray is loaded by the fixture, on the one worker that runs these tests: imported here, every
# worker's collection paid for it.
pytestmark = pytest.mark.skipif(find_spec("ray") is None, reason="ray is not installed")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local cluster of two CPUs on loopback; its address."""
    # A short folder of its own: Ray puts Unix sockets a few levels below it, and a socket's
    # path may not pass 107 bytes (pytest's own folders, numbered past 999, went over).
    import ray

    temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")
    try:
        context = ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            _temp_dir=temp,
            _node_ip_address="127.0.0.1",
        )
        try:
            yield str(context.address_info["gcs_address"])
        finally:
            ray.shutdown()
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def test_four_tasks_on_ray_one_worker_killed_and_retried(cluster: str, tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "a.txt").write_text("one\n")
    lines: list[dict[str, object] | str] = [
        {
            "id": f"t{n}",
            "prompt": "edit",
            "cwd": "folder",
            "model": work(tmp_path / f"w{n}.json", "a.txt", "one", f"two-{n}"),
        }
        for n in range(4)
    ]
    lines[0] = {**lines[0], "setup": killed_once_setup(tmp_path)}
    tasks = write_tasks(tmp_path / "tasks.jsonl", lines)
    out = tmp_path / "out"
    # The batch runs in this process, on the cluster's driver (so on the workers earlier
    # batches started), while a thread kills the first attempt's worker.
    killer = in_a_thread(kill_first_worker, tmp_path)
    args = [str(tasks), "--out", str(out), "--ray", cluster, "--max-concurrency", "1"]
    batch = run_batch(tmp_path / "home", args)
    killer()
    assert batch.returncode == 0, batch.stderr
    by_id = {line["id"]: line for line in results(out)}
    assert sorted(by_id) == ["t0", "t1", "t2", "t3"]
    assert {id_: line["attempts"] for id_, line in by_id.items()} == {
        "t0": 2,
        "t1": 1,
        "t2": 1,
        "t3": 1,
    }
    for n in range(4):
        line = by_id[f"t{n}"]
        assert line["status"] == "done"
        assert f"-one\n+two-{n}\n" in line["diff"]
        assert line["result"] == f"Replaced one by two-{n}."
        # The log came back through the object store into the batch's folder.
        assert (out / "sessions" / f"{line['sessionId']}.jsonl").is_file()
    assert (folder / "a.txt").read_text() == "one\n"
    shown = tether_in_process(
        tmp_path / "home", "show", "--home", str(out), by_id["t2"]["sessionId"]
    )
    assert "two-2" in shown.stdout
    assert "done" in batch.stdout


def test_ctrl_c_cancels_the_tasks_running_on_ray(cluster: str, tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    # Each task marks its workspace (in the worker's temporary folder) before it waits. The
    # folder is shared by every run on the machine: the mark is this run's alone, else another
    # run's tasks would look like these (tmp_path's name is the same in every run).
    marker = f"started-{uuid.uuid4().hex}"
    command = f"touch {marker}; sleep 120"
    slow = scripted_model(
        tmp_path / "slow.json",
        {"toolCalls": [{"id": "s", "name": "bash", "arguments": {"command": command}}]},
        {"text": "never said"},
    )
    lines: list[dict[str, object] | str] = [
        {"id": f"s{n}", "prompt": "wait", "cwd": "folder", "model": slow} for n in range(3)
    ]
    tasks = write_tasks(tmp_path / "tasks.jsonl", lines)
    out = tmp_path / "out"
    batch = subprocess.Popen(
        [str(TETHER), "batch", str(tasks), "--out", str(out), "--ray", cluster],
        env=batch_env(tmp_path / "home"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    # The logs come back only with the results: wait for the commands themselves.
    scratch = Path(tempfile.gettempdir())

    def both_sleeping() -> bool:
        return len(list(scratch.glob(f"tether-batch-*/workspaces/s*/{marker}"))) >= 2

    try:
        asyncio.run(eventually(both_sleeping, "two tasks running on the cluster", within=120))
        batch.send_signal(signal.SIGINT)
        _stdout, stderr = batch.communicate(timeout=120)
    finally:
        if batch.poll() is None:
            batch.kill()
            batch.wait()
    assert batch.returncode == 130, stderr
    lines_written = results(out)
    assert sorted(line["status"] for line in lines_written) == ["cancelled", "cancelled"]
    for line in lines_written:
        last = log_events(out, line["sessionId"])[-1]
        assert last == {**last, "type": "turn/end", "stopReason": "cancelled"}


def test_max_concurrency_holds_across_the_cluster(cluster: str, tmp_path: Path) -> None:
    done, counts = gated_batch(tmp_path, 3, ["--ray", cluster])
    assert done.returncode == 0, done.stderr
    assert [line["status"] for line in results(tmp_path / "out")] == ["done"] * 3
    assert (counts.requests, counts.peak) == (3, 1)
