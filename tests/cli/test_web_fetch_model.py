"""`webFetch.model` in the settings: the model that answers a fetch's `prompt` from the page,
instead of the session's own."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.in_process import tether_in_process
from tests.tools.web.server import reply, serve


def test_the_settings_model_answers_the_question_asked_of_a_page(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    page = b"<title>Notes</title><p>Version 2.3 adds --frobnicate.</p>"
    # Each script answers the question with the script its call id is given, so the answer
    # says which model read the page.
    small = tmp_path / "small.json"
    small.write_text(
        json.dumps({"turns": [], "tasks": {"f1": {"turns": [{"text": "Small: --frobnicate."}]}}})
    )
    (home / "settings.json").write_text(json.dumps({"webFetch": {"model": f"script:{small}"}}))
    with serve() as server:
        server.routes["/notes"] = lambda h: reply(h, 200, page)
        question = {"url": server.url("/notes"), "prompt": "Which flag does 2.3 add?"}
        main = tmp_path / "main.json"
        main.write_text(
            json.dumps(
                {
                    "turns": [
                        {"toolCalls": [{"id": "f1", "name": "WebFetch", "arguments": question}]},
                        {"text": "It is --frobnicate."},
                    ],
                    "tasks": {"f1": {"turns": [{"text": "Session: --frobnicate."}]}},
                }
            )
        )
        args = [
            "--model",
            f"script:{main}",
            "--cwd",
            str(ws),
            "--allow-private-fetch",
            "--mode",
            "auto",
        ]
        run = tether_in_process(
            home, "run", "What does 2.3 add?", *args, "--output-format", "stream-json"
        )
        assert run.returncode == 0, run.stderr
        # Without the setting, the session's model answers.
        (home / "settings.json").write_text("{}")
        plain = tether_in_process(
            home, "run", "What does 2.3 add?", *args, "--output-format", "stream-json"
        )
        assert plain.returncode == 0, plain.stderr

    def answer(stdout: str) -> str:
        [done] = [
            json.loads(line)
            for line in stdout.splitlines()
            if json.loads(line)["type"] == "tool_call_finished"
        ]
        text: str = done["result"]["content"][0]["text"]
        return text.split("<web_content>\n", 1)[1].split("\n</web_content>", 1)[0]

    assert answer(run.stdout) == "Small: --frobnicate."
    assert answer(plain.stdout) == "Session: --frobnicate."
