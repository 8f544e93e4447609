"""A 50 MB page is read in bounded memory: peak RSS of a real fetching process."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import REPO
from tests.tools.web.server import Handler, PageServer

_CHILD = """
import asyncio, json, sys
from tether.tools import ToolContext, Workspace, invoke
from tether.tools.web import WebFetchArgs, WebFetchTool

async def main() -> None:
    ctx = ToolContext(workspace=Workspace.at(sys.argv[1]))
    result = await invoke(WebFetchTool(allow_private=True), WebFetchArgs(url=sys.argv[2]), ctx)
    # VmHWM, not ru_maxrss: after a fork the latter starts from the parent's peak.
    peak_kib = int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1])
    print(json.dumps({"peak_kib": peak_kib, "text": result.text(), "meta": result.meta}))

asyncio.run(main())
"""

ROW = b"<p>Row of a huge page with <a href='/x'>a link</a> and <b>bold</b> words.</p>\n"
SIZE = 50 * 1024 * 1024


def _huge(handler: Handler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Content-Length", str(SIZE))
    handler.end_headers()
    block = ROW * (65536 // len(ROW))
    handler.wfile.write(b"<html><head><title>Huge</title></head><body>")
    sent = 0
    while sent < SIZE:  # bounded by SIZE; stops early when the client hangs up
        handler.wfile.write(block)
        sent += len(block)


def test_a_50_mb_page_stays_under_100_mb_peak(server: PageServer, tmp_path: object) -> None:
    server.routes["/huge"] = _huge
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(tmp_path), server.url("/huge")],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        cwd=REPO,
    )
    report = json.loads(out.stdout)
    peak_mib = report["peak_kib"] / 1024
    assert report["meta"]["truncated"] is True
    assert report["meta"]["bytes"] == 10 * 1024 * 1024
    assert report["text"].endswith(" characters; only the first 10 MB of the body were read.)"), (
        report["text"][-200:]
    )
    assert "Row of a huge page with [a link](" in report["text"]
    assert len(report["text"]) <= 100_000
    assert peak_mib < 100, peak_mib
    print(f"peak {peak_mib:.1f} MiB")
