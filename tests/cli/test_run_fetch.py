"""`tether run` with `web_fetch`: the flag lets it reach a loopback server, the card is printed."""

from __future__ import annotations

from pathlib import Path

from tests.cli.in_process import tether_in_process
from tests.cli.support import scripted_model
from tests.tools.web.server import reply, serve


def test_run_fetches_with_the_flag_and_refuses_without_it(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    with serve() as server:
        server.routes["/doc"] = lambda h: reply(
            h, 200, b"<title>Doc</title><h1>Doc title</h1><p>Body text.</p>"
        )
        url = server.url("/doc", host="localhost")
        model = scripted_model(
            tmp_path / "s.json",
            {"toolCalls": [{"id": "f1", "name": "web_fetch", "arguments": {"url": url}}]},
            {"text": "Read it."},
        )
        home = tmp_path / "home"
        args = ["run", "read the doc", "--model", model, "--cwd", str(ws), "--mode", "auto"]
        allowed = tether_in_process(home, *args, "--allow-private-fetch")
        refused = tether_in_process(home, *args)
        assert server.paths == ["/doc"]  # the refused run sent nothing
    assert allowed.returncode == 0, allowed.stderr
    words = " ".join(allowed.stdout.replace("│", " ").split())
    assert f"{url} Doc" in words
    assert "Doc title" in words and "#" not in words and "Body text." in words and " 200 " in words
    assert refused.returncode == 0, refused.stderr
    refusal = " ".join(refused.stdout.replace("│", " ").split())
    assert "Refusing to fetch from localhost: it is a loopback name;" in refusal
    assert "pass --allow-private-fetch to allow private addresses" in refusal
