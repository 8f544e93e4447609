"""Each command imports what it uses, when it uses it: per command, what it must not load.

Each case runs `tether.cli.main` in a fresh interpreter and lists the modules that ran
(a module deferred until its first use, as the HTTP/2 stack is, counts only once it ran).
Every command of `COMMANDS` has a case, and so has the interactive `tether` (in a pipe and on
a terminal): a new command fails `test_every_command_has_a_case` until it gets one.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.cli.held_logs import written
from tests.cli.in_process import tether_in_process
from tests.cli.support import writing_bytecode
from tests.cli.tui import Tui
from tests.fresh import printed
from tests.models.sse_server import SSEServer, sse_reply
from tether.cli import COMMANDS
from tether.cli.held_output import IN_MEMORY
from tether.session._gc import YOUNG_THRESHOLD
from tether.tools.defaults import DEFERRED_HOMES
from tether.version import version_line

_DRIVER = """
import json, sys
from tether.cli import main
from tether.lazy import is_loaded
try:
    status = main(sys.argv[2:])
except SystemExit as exc:
    status = exc.code
with open(sys.argv[1], "w") as out:
    json.dump(sorted(name for name in list(sys.modules) if is_loaded(name)), out)
"""

_AT_CONNECT = """
import json, sys
from tether.lazy import is_loaded
out = sys.argv[1]
def models(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from models(sub)
def at_connect(event, args):
    # The first connection a run opens is its first model request.
    if event == "socket.connect" and out:
        names = sorted(name for name in list(sys.modules) if is_loaded(name))
        built = []
        if "pydantic" in sys.modules:
            from pydantic import BaseModel
            built = sorted(m.__qualname__ for m in models(BaseModel) if m.__pydantic_complete__)
        with open(out, "w") as file:
            json.dump({"modules": names, "built": built}, file)
        globals()["out"] = None
sys.addaudithook(at_connect)
from tether.cli import main
main(sys.argv[2:])
"""
"""Runs `tether` and lists the modules loaded, and the pydantic models built, when it opens
its first connection."""

ACP_SDK = ("acp",)
PROVIDERS = ("openai", "anthropic", "google.genai")
HTTP2 = ("h2.connection", "h2.events", "hpack", "hyperframe")
TERMINAL_INPUT = ("prompt_toolkit",)
WEB = ("starlette", "uvicorn", "websockets", "tether.web")
MCP = ("mcp", "mcp_types")
PARSER = ("tree_sitter", "tree_sitter_bash")
VALIDATION = ("pydantic", "pydantic_core")
CARDS = ("rich", "pygments", "markdown_it")
SESSIONS = ("tether.session.session", "tether.tools", "tether.models", "tether.policy")
TOOL_ENGINES = (
    "tether.tools.search.collector",
    "tether.tools.search.scope",
    "tether.tools.search.paths",
    "tether.tools.search.matches",
    "tether.tools.search.counts",
    "tether.tools.search.listing",
    "tether.tools.fs.read_file",
    "tether.tools.fs.edit_plan",
    "tether.tools.fs.edit_match",
    "tether.tools.fs.change_commit",
)
"""What the tools run with, not what states them: a request needs only their specs."""

DEFERRED_TOOLS = tuple(home.rpartition(".")[0] for home in DEFERRED_HOMES.values())
"""The modules of the tools the model is told of from their stored specs."""

AGENT_SESSIONS = (
    "tether.session.session",
    "tether.acp.context",
    "tether.acp.lifecycle",
    "tether.acp.mapping",
    "tether.acp.turns",
    "tether.mcp",
)
"""What `tether acp` loads with the first session, not to answer `initialize`."""

NEVER_OUTSIDE_ACP = ACP_SDK + TERMINAL_INPUT + WEB + HTTP2 + ("numpy", "ray")
"""What no command but `tether acp` and `tether web` loads (and they load no terminal input)."""

CARD_SESSIONS = Path(__file__).parent / "json" / "sessions"
CARD_SESSION = "0190a1b2c3d4e5f6a7b8"
"""A stored session with a call of every card kind (`test_json_output.py`)."""


CASES = {
    "--version": "test_version_loads_nothing_and_help_no_sdk",
    "run": "test_run_requests_over_httpx_without_a_providers_sdk",
    "sessions": "test_sessions_and_show_load_only_what_they_print",
    "show": "test_sessions_and_show_load_only_what_they_print",
    "permissions": "test_sessions_and_show_load_only_what_they_print",
    "models": "test_sessions_and_show_load_only_what_they_print",
    "acp": "test_acp_loads_the_sdk_and_no_provider_web_or_terminal_input",
    "web": "test_web_loads_no_provider_parser_or_terminal_input",
    "demo": "test_demo_loads_no_sdk_provider_or_terminal_input",
    "(interactive)": "test_interactive_loads_its_input_only_on_a_terminal",
    "batch": "test_batch_on_the_pool_loads_no_ray_sdk_or_provider",
}
"""Each command, and the test that pins what it loads."""


def test_every_command_has_a_case() -> None:
    missing = {"--version", "(interactive)", *COMMANDS} - set(CASES)
    assert not missing, f"no case pins what these commands load (add one to CASES): {missing}"
    assert set(CASES) <= {"--version", "(interactive)", *COMMANDS}
    assert all(name in globals() for name in CASES.values())


def _loaded(
    tmp_path: Path, *argv: str, stdin: str = "", cwd: Path | None = None, env: dict[str, str]
) -> set[str]:
    out = tmp_path / "loaded.json"
    subprocess.run(
        [sys.executable, "-c", _DRIVER, str(out), *argv],
        input=stdin.encode(),
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )
    assert out.exists(), f"tether {' '.join(argv)} did not run to its end"
    return set(json.loads(out.read_text()))


def _found(loaded: set[str], forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        name for name in loaded if any(name == f or name.startswith(f + ".") for f in forbidden)
    )


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """A home of its own, no key that could reach a provider, and bytecode written as for a
    person who has run tether before (`support.writing_bytecode`)."""
    clean = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    writing_bytecode(clean)
    return {**clean, "TETHER_HOME": str(tmp_path / "home")}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A small workspace with one file."""
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "a.py").write_text("x = 1\n")
    return folder


def test_version_loads_nothing_and_help_no_sdk(tmp_path: Path, env: dict[str, str]) -> None:
    heavy = NEVER_OUTSIDE_ACP + PROVIDERS + MCP + PARSER + VALIDATION + CARDS + SESSIONS
    assert _found(_loaded(tmp_path, "--version", env=env), heavy) == []
    # The help lists the interactive session's options. Their defaults come from leaf modules,
    # so it loads no validation, cards, settings, policy or session: of the tools, only the
    # packages' lazy names and the leaf naming the fetch flag.
    helped = _loaded(tmp_path, "--help", env=env)
    settled = ("tether.settings.loaded", "tether.policy", "tether.sandbox.policy")
    leaves = ["tether.tools", "tether.tools.web", "tether.tools.web.flags"]
    assert _found(helped, heavy + settled) == leaves
    assert "importlib.resources" not in helped  # importlib.abc would load it, with tempfile


def test_sessions_and_show_load_only_what_they_print(
    tmp_path: Path, env: dict[str, str], workspace: Path
) -> None:
    script = tmp_path / "hello.json"
    script.write_text(json.dumps({"turns": [{"text": "Hello."}]}))
    ran = _loaded(tmp_path, "run", "--model", f"script:{script}", "hi", cwd=workspace, env=env)
    # A scripted model makes no request: no provider's SDK.
    assert _found(ran, NEVER_OUTSIDE_ACP + PROVIDERS + MCP + PARSER) == []
    # No search backend is configured: choosing none loads no backend, nor their parsing.
    assert "tether.tools.web.backends.choice" in ran
    unsearched = ("base", "fields", "http", "brave", "exa", "tavily", "searxng")
    assert _found(ran, tuple(f"tether.tools.web.backends.{m}" for m in unsearched)) == []
    listed = _loaded(tmp_path, "sessions", env=env)
    assert "rich" in listed
    assert _found(listed, NEVER_OUTSIDE_ACP + PROVIDERS + MCP + PARSER + VALIDATION) == []
    assert _found(listed, ("pygments", "markdown_it", "tether.render.terminal")) == []
    assert _found(listed, SESSIONS) == []
    # Listing makes no session id (no `secrets`, `hashlib`) and draws no card: the titles go
    # through `printable` alone, not the theme's boxes and panels. It logs nothing: `logging`
    # is set up when something imports it, and nothing does.
    unused = ("secrets", "hashlib", "tether.render.theme", "rich.panel", "logging", "traceback")
    assert _found(listed, unused) == []
    [log] = (tmp_path / "home" / "sessions").glob("*.jsonl")
    shown = _loaded(tmp_path, "show", log.stem, env=env)
    assert _found(shown, NEVER_OUTSIDE_ACP + PROVIDERS + MCP + PARSER) == []
    # The JSON form draws nothing: no rich, no highlighting, no Markdown. Neither form runs
    # hooks: a log's events name a hook's decision, but reading them loads no hook engine.
    dumped = _loaded(tmp_path, "show", log.stem, "--json", env=env)
    assert _found(dumped, ("rich", "pygments", "markdown_it")) == []
    assert _found(shown | dumped, ("tether.hooks",)) == ["tether.hooks", "tether.hooks.record"]
    # A `hook/run` event names its hook event from a leaf, not the settings file's models.
    assert _found(shown | dumped, ("tether.settings",)) == [
        "tether.settings",
        "tether.settings.hook_events",
    ]
    # A session that called no tool loads no tool's module, nor a sandbox (but for the text
    # form's printer, which names the task tool).
    tools = ("tether.tools.bash", "tether.tools.skill", "tether.tools.web", "tether.sandbox")
    assert _found(shown | dumped, (*tools, "tether.skills")) == []
    assert _found(dumped, ("tether.tools.task", "asyncio")) == []  # no call is run
    # Nor a result card: they load with the first finished call.
    assert _found(dumped, ("tether.views.result", "tether.views.read_lines")) == []
    # Nothing logs, so neither form loads `logging` (its loggers are taken when they first
    # log: `tether.lazy.logger`), nor a temporary file's module for output held in memory.
    assert _found(shown | dumped, ("logging", "traceback", "tempfile")) == []
    # Nor OpenSSL's hashes: pydantic's `secrets` runs when tether first makes a token or an
    # id, and a file is hashed when a call reads or writes it.
    assert _found(shown | dumped, ("secrets", "hmac", "hashlib", "_hashlib")) == []
    # Nor `pickle`'s Python picklers: the schemas are read with `_pickle`'s `loads`, and rich's
    # styles call theirs only for a style's metadata (`tether.lazy.DEFERRED_NAMES`).
    assert "pickle" not in shown | dumped
    # Nor `random`: rich's styles start their links' ids from the system's source of bits.
    assert "random" not in shown | dumped
    # Nor the syntax tree's module: `inspect` and pydantic subclass a stand-in of its visitor.
    assert "ast" not in shown | dumped
    assert "fcntl" not in shown | dumped  # the writer's lock of a log: none is written
    # Nor `platform`: `uuid` learns the system's name from `os.uname`.
    assert "platform" not in shown | dumped
    # Nor `shutil` and its compressors: the parser's formatters are given the width argparse
    # would ask `shutil` for.
    assert _found(shown | dumped, ("shutil", "bz2", "lzma")) == []
    # Nor `gettext` and `locale`: argparse's words are its own while no catalogue can be found.
    assert _found(shown | dumped, ("gettext", "locale")) == []
    # Nor what reads a function's source (`inspect` imports it), nor what makes a path's URI.
    assert _found(shown | dumped, ("tokenize", "token", "linecache", "urllib.parse")) == []
    # Nor what `pathlib`, pydantic and `zoneinfo` import for what no stored session calls.
    assert _found(shown | dumped, ("ntpath", "fnmatch", "base64", "struct")) == []
    # Nor rich's table of emoji codes: the header's time holds none (`show._emoji_free`).
    assert "rich._emoji_codes" not in shown
    # Nor what asks a person about a call: the askers, the accesses, a call's context.
    calls = ("tether.policy.asker", "tether.tools.access", "tether.tools.context")
    assert _found(shown | dumped, calls) == []
    # The JSON form reads the log's events without the model's conversation types or the
    # `task` tool's (events name a finish reason; usage sums tokens).
    assert _found(dumped, ("tether.models.messages", "tether.tools.delegate")) == []
    rules = _loaded(tmp_path, "permissions", cwd=workspace, env=env)
    assert _found(rules, NEVER_OUTSIDE_ACP + PROVIDERS + MCP + ("pygments", "markdown_it")) == []
    catalog = _loaded(tmp_path, "models", cwd=workspace, env=env)
    assert _found(catalog, NEVER_OUTSIDE_ACP + PROVIDERS + MCP + PARSER) == []


_LATE_LOGGING = """
import sys
from tether.cli import main
main(sys.argv[1:])
print("logging" in sys.modules)
import logging
logging.getLogger("late").debug("a debug record")
logging.getLogger("late").warning("a warning")
"""


@pytest.mark.parametrize("verbose", [True, False])
def test_logging_imported_after_the_command_is_set_up_as_before(
    env: dict[str, str], verbose: bool
) -> None:
    # `sessions` never loads `logging`; what imports it later still logs as `tether: LEVEL:`.
    argv = ["-v", "sessions"] if verbose else ["sessions"]
    done = subprocess.run(
        [sys.executable, "-c", _LATE_LOGGING, *argv],
        check=False,
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "False"
    debug = ["tether: DEBUG: a debug record"] if verbose else []
    assert done.stderr.splitlines() == [*debug, "tether: WARNING: a warning"]


def test_text_show_without_colour_loads_no_highlighter_or_markdown_parser(
    tmp_path: Path, env: dict[str, str], workspace: Path
) -> None:
    # A read card and a reply of plain words: in a pipe, their rows are the texts themselves.
    script = tmp_path / "read.json"
    read = {"id": "c1", "name": "read", "arguments": {"path": "a.py"}}
    script.write_text(json.dumps({"turns": [{"toolCalls": [read]}, {"text": "It sets x."}]}))
    # The session to show is made in this process: what is measured is `show`'s start.
    made = tether_in_process(
        tmp_path / "home", "run", "--model", f"script:{script}", "read a.py", cwd=workspace
    )
    assert made.returncode == 0, made.stderr
    [log] = (tmp_path / "home" / "sessions").glob("*.jsonl")
    piped = _loaded(tmp_path, "show", log.stem, env={**env, "NO_COLOR": "1"})
    assert "tether.render.read_card" in piped
    assert _found(piped, ("pygments", "markdown_it", "rich.markdown", "rich.syntax")) == []
    coloured = _loaded(tmp_path, "show", log.stem, env={**env, "FORCE_COLOR": "1"})
    assert "pygments.lexers.python" in coloured  # the read card's code, in colour
    assert _found(coloured, ("markdown_it",)) == []
    # A long paragraph of code spans and emphasis: in a pipe, its plain text is read without
    # markdown-it; in colour, its marks are styled as markdown-it reads them.
    long = tmp_path / "long.json"
    reply = "the `x` it sets is **one** here\n" * 2200
    long.write_text(json.dumps({"turns": [{"text": reply}]}))
    argv = ("run", "--model", f"script:{long}", "say it")
    made = tether_in_process(tmp_path / "home", *argv, cwd=workspace)
    assert made.returncode == 0, made.stderr
    [other] = set((tmp_path / "home" / "sessions").glob("*.jsonl")) - {log}
    piped = _loaded(tmp_path, "show", other.stem, env={**env, "NO_COLOR": "1"})
    assert _found(piped, ("pygments", "markdown_it", "rich.markdown", "rich.syntax")) == []
    coloured = _loaded(tmp_path, "show", other.stem, env={**env, "FORCE_COLOR": "1"})
    assert "markdown_it" in coloured


def test_show_json_of_files_changed_and_commands_run_runs_no_call_machinery(
    tmp_path: Path, env: dict[str, str], workspace: Path
) -> None:
    # The file tools' and bash's cards are written from what the log stored: that needs
    # neither the event loop nor its sockets and TLS, which only a call being run uses.
    script = tmp_path / "files.json"
    calls = [
        {"id": "c1", "name": "read", "arguments": {"path": "a.py"}},
        {
            "id": "c2",
            "name": "edit",
            "arguments": {"path": "a.py", "old_string": "1", "new_string": "2"},
        },
        {"id": "c3", "name": "write", "arguments": {"path": "b.py", "content": "y = 3\n"}},
        {"id": "c4", "name": "bash", "arguments": {"command": "cat b.py"}},
    ]
    turns = [{"toolCalls": [call]} for call in calls]
    script.write_text(json.dumps({"turns": [*turns, {"text": "Done."}]}))
    argv = ("run", "--mode", "auto", "--model", f"script:{script}", "change a.py")
    made = tether_in_process(tmp_path / "home", *argv, cwd=workspace)
    assert made.returncode == 0, made.stderr
    assert (workspace / "a.py").read_text() == "x = 2\n"
    assert (workspace / "b.py").read_text() == "y = 3\n"
    [log] = (tmp_path / "home" / "sessions").glob("*.jsonl")
    dumped = _loaded(tmp_path, "show", log.stem, "--json", env=env)
    shown = {"tether.tools.fs.read", "tether.tools.fs.edit", "tether.tools.fs.write"}
    assert {*shown, "tether.tools.bash.tool"} <= dumped
    events = [json.loads(line) for line in log.read_text().splitlines()]
    [ran] = [e for e in events if e["type"] == "tool/result" and e["toolCallId"] == "c4"]
    assert ran["meta"]["output"] == "y = 3\n"
    assert _found(dumped, ("asyncio", "ssl", "socket")) == []
    # Nor the sandbox a command would run in: bwrap, its environment, git's disarming.
    sandboxing = ("tether.sandbox.bwrap", "tether.sandbox.created", "tether.sandbox.gitdefuse")
    assert _found(dumped, (*sandboxing, "tether.sandbox.environment", "subprocess")) == []
    # Nor its policy and mounts (the card names the binding stored with the call), nor the
    # signals' enumeration (an exit code is shown as stored).
    assert _found(dumped, ("tether.sandbox.policy", "tether.sandbox.mounts", "signal")) == []
    # Nor what runs a command and makes its value: the card is drawn from the stored meta.
    running = ("tether.tools.bash.group", "tether.tools.bash.output", "tether.tools.bash.value")
    assert _found(dumped, (*running, "tether.sandbox.limits")) == []


def test_show_holding_a_long_document_loads_no_temporary_file_module(
    tmp_path: Path, env: dict[str, str], workspace: Path
) -> None:
    # Past what is held in memory, the document goes to an unnamed file the system makes,
    # not through tempfile (with shutil, random and the compression modules they bring).
    home = Path(env["TETHER_HOME"])
    log = written(home, workspace, 2000)
    dumped = _loaded(tmp_path, "show", log.stem, "--json", env=env)
    assert "tether.cli.held_output" in dumped
    assert _found(dumped, ("tempfile", "shutil", "random", "bz2", "lzma")) == []
    done = subprocess.run(
        [sys.executable, "-m", "tether", "show", log.stem, "--json"],
        capture_output=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) > IN_MEMORY
    assert len(json.loads(done.stdout)["updates"]) == 2002


def test_show_loads_only_the_tools_its_stored_calls_name(
    tmp_path: Path, env: dict[str, str]
) -> None:
    # A session with a call of every card kind, but none of MCP, `web_search` or `skill`:
    # its cards need no MCP, no search tool and no skills.
    shutil.copytree(CARD_SESSIONS, tmp_path / "home" / "sessions")
    unused = ("tether.mcp", *MCP, "tether.tools.web.search", "tether.tools.skill", "tether.skills")
    shown = _loaded(tmp_path, "show", CARD_SESSION, env=env)
    dumped = _loaded(tmp_path, "show", CARD_SESSION, "--json", env=env)
    for loaded in (shown, dumped):
        assert {"tether.session.calls", "tether.tools.fs.read", "tether.tools.web.tool"} <= loaded
        assert _found(loaded, unused) == []
    # Nor the search backends, which only a search card names.
    assert _found(shown | dumped, ("tether.tools.web.backends",)) == []
    # Its grep, fetch and file cards are made from what the log stored: no search, fetch or
    # edit runs, so neither the event loop nor a process's machinery loads.
    assert _found(shown | dumped, ("asyncio", "subprocess", "tether.tools.search.rg")) == []
    # Nor what a call runs with: its context, the accesses it asks for and the gate.
    assert _found(dumped, ("tether.tools.context", "tether.tools.access")) == []


async def test_run_requests_over_httpx_without_a_providers_sdk(
    tmp_path: Path, env: dict[str, str], workspace: Path
) -> None:
    async with SSEServer() as server:
        server.queue(sse_reply("openai_text.sse"))
        argv = ["run", "--model", "openai:gpt-test", "--base-url", f"{server.url}/v1", "hi"]
        loaded = await asyncio.to_thread(_loaded, tmp_path, *argv, cwd=workspace, env=env)
        assert len(server.requests) == 1
    # The request went over httpx: no provider's SDK, nor the HTTP stack the SDKs bring.
    assert "httpx" in loaded
    assert _found(loaded, (*NEVER_OUTSIDE_ACP, *PROVIDERS, "httpx2", *MCP, *PARSER)) == []
    assert "yaml" not in loaded  # no command, agent, skill or rule file to read
    # The tools are offered by their specs: what runs them loads with their first call, and
    # so do the modules of the tools held as a `DeferredTool` (all but those a session reads
    # as it starts: `bash`, `web_search`, `task`, `skill`).
    assert _found(loaded, TOOL_ENGINES + DEFERRED_TOOLS) == []


async def _seen_at_connect(
    code: str, out: Path, argv: list[str], env: dict[str, str], workspace: Path
) -> dict[str, Any]:
    """Run `tether ARGV` under `code`, which writes to `out` what it saw as the process first
    connected; what it wrote."""
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", code, str(out), *argv],
        capture_output=True,
        env=env,
        cwd=workspace,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    seen: dict[str, Any] = json.loads(out.read_text())
    return seen


WIRES_AT_CONNECT = {
    "chat-completions": ("openai:gpt-test", "/v1", "openai_text.sse"),
    "messages": ("anthropic:claude-test", "", "anthropic_text.sse"),
}
"""Each request path tether speaks itself: its `--model`, base URL path and a reply."""


@pytest.mark.parametrize("wire", list(WIRES_AT_CONNECT))
async def test_run_sends_its_first_request_before_loading_cards_or_markdown(
    tmp_path: Path, env: dict[str, str], workspace: Path, wire: str
) -> None:
    spec, path, transcript = WIRES_AT_CONNECT[wire]
    out = tmp_path / "at-connect.json"
    async with SSEServer() as server:
        server.queue(sse_reply(transcript))
        url = f"{server.url}{path}"
        argv = ["run", "--model", spec, "--base-url", url, "--api-key", "sk-test", "hi"]
        seen = await _seen_at_connect(_AT_CONNECT, out, argv, env, workspace)
        assert len(server.requests) == 1
    at_request = set(seen["modules"])
    assert {"httpx", "tether.session.session", "tether.models.sse_client"} <= at_request
    # The tools are stated from their stored schemas (tests/tools/test_stored_schemas.py):
    # no arguments model, nor any other, is built before a call or an answer needs it.
    assert seen["built"] == []
    # What only printing a reply or a card needs loads after the request has gone, and
    # httpx's command line (click, Pygments, rich's syntax) never: `httpx.main` runs it.
    later = ("rich.markdown", "markdown_it", "tether.render.markdown", "tether.render.terminal")
    later += ("httpx._main", "click", "pygments", "rich.syntax")
    # What only a tool call, a child or a question to the model uses loads with it.
    later += ("tether.mcp.presenter", "tether.mcp.card", "tether.models.script")
    later += ("tether.linediff", "difflib")  # with the first diff: a rewind, a changed hook
    later += ("tether.session.commanded", "tether.session.shell")  # with a command file's prompt
    # Pydantic's plugin scan (tether.pydantic_plugins): with no plugin installed, none of
    # importlib.metadata and what it imports (zipfile, csv).
    later += ("importlib.metadata", "zipfile", "csv")
    # The CA bundle loads with the first TLS connection (tether.models.tls), certifi with it.
    later += ("certifi", "importlib.resources")
    # The live line (rich's Live, its spinner and the emoji table the spinner's text is
    # parsed with) loads with the first line shown: where stderr is no terminal, never.
    later += ("rich.live", "rich.spinner", "rich.table", "rich._emoji_codes")
    # Nor the cards' theme and frame (rich's Panel under them): no card shows before it.
    later += ("tether.render", "rich.panel", "rich.box")
    # The result cards (and every kind of result they hold) load with the first result.
    later += ("tether.views.result", "tether.views.attachments", "tether.views.notebook")
    later += ("tether.views.search",)
    # `pickle`'s Python picklers: rich's styles call theirs only for a link's metadata.
    later += ("pickle",)
    assert _found(at_request, (*later, *PROVIDERS, "httpx2")) == []


def test_updates_resolve_their_result_cards_when_first_dumped(env: dict[str, str]) -> None:
    # The update classes name their result cards through the lazy `tether.views` package, so
    # a session loads no result card to start; the first dump of any update resolves them.
    code = """
import sys
from tether.session.updates import CLIENT_UPDATE, ToolCallPartial, UserText
print("tether.views.result" in sys.modules)
print(CLIENT_UPDATE.dump_json(UserText(text="hi"), by_alias=True).decode())
from tether.views import TerminalResultView
partial = ToolCallPartial(tool_call_id="c1", view=TerminalResultView(output="ok", exit_code=0))
print(CLIENT_UPDATE.dump_json(partial, by_alias=True).decode())
"""
    assert printed(code, env) == [
        "False",
        '{"kind":"user_text","text":"hi"}',
        '{"kind":"tool_call_progress","toolCallId":"c1",'
        '"view":{"card":"terminal","output":"ok","exitCode":0}}',
    ]


_GC_AT_CONNECT = """
import gc, json, sys
out = sys.argv[1]
def at_connect(event, args):
    if event == "socket.connect" and out:
        state = {
            "enabled": gc.isenabled(),
            "frozen": gc.get_freeze_count(),
            "collections": [generation["collections"] for generation in gc.get_stats()],
        }
        with open(out, "w") as file:
            json.dump(state, file)
        globals()["out"] = None
sys.addaudithook(at_connect)
from tether.cli import main
sys.argv = ["tether", *sys.argv[2:]]
sys.exit(main())
"""
"""Runs `tether` as its command does (the process's own arguments) and records the
collector's state when it opens its first connection."""


async def test_run_collects_nothing_of_what_starting_made_before_its_first_request(
    tmp_path: Path, env: dict[str, str], workspace: Path
) -> None:
    out = tmp_path / "gc-at-connect.json"
    async with SSEServer() as server:
        server.queue(sse_reply("openai_text.sse"))
        argv = ["run", "--model", "openai:gpt-test", "--base-url", f"{server.url}/v1", "hi"]
        seen = await _seen_at_connect(_GC_AT_CONNECT, out, argv, env, workspace)
        assert len(server.requests) == 1
    # The collector was paused while the process started (ten collections of the middle
    # generation walked what stays for the whole run); what starting made is set aside, and
    # the collector runs again for the session's own objects.
    assert seen["enabled"] is True
    # Unpaused, about 110 young collections and 10 of the middle generation ran by now; what
    # is left are those of the interpreter's own start and of the request's making (the
    # count the young ones reached before the pause may call one of the middle generation,
    # which finds it empty).
    young, middle, old = seen["collections"]
    assert (young < 40, middle <= 1, old) == (True, True, 0)
    assert seen["frozen"] > 10_000


def test_acp_loads_the_sdk_and_no_provider_web_or_terminal_input(
    tmp_path: Path, env: dict[str, str], workspace: Path
) -> None:
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "session/new",
            "params": {"cwd": str(workspace), "mcpServers": []},
        },
    ]
    agent_env = {**env, "DEEPSEEK_API_KEY": "test-no-request"}
    # `initialize` is answered before the SDK loads (tests/acp/test_startup.py); the SDK loads
    # after it, and the sessions' machinery only with the first session.
    first = json.dumps(requests[0]) + "\n"
    initialized = _loaded(tmp_path, "acp", stdin=first, env=agent_env)
    assert "acp.schema" in initialized
    assert _found(initialized, AGENT_SESSIONS) == []
    stdin = "".join(json.dumps(r) + "\n" for r in requests)
    loaded = _loaded(tmp_path, "acp", stdin=stdin, env=agent_env)
    assert "acp.schema" in loaded
    assert "tether.session.session" in loaded
    forbidden = TERMINAL_INPUT + WEB + HTTP2 + PROVIDERS + MCP + PARSER
    assert _found(loaded, (*forbidden, "numpy", "ray", "httpx", "html_to_markdown")) == []


def test_web_loads_no_provider_parser_or_terminal_input(
    tmp_path: Path, env: dict[str, str], workspace: Path
) -> None:
    out = tmp_path / "loaded.json"
    argv = ["web", "--no-open", "--port", "0", "--cwd", str(workspace)]
    process = subprocess.Popen(
        [sys.executable, "-c", _DRIVER, str(out), *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    stdout = process.stdout
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(120)
    try:
        assert lines and lines[0].startswith("http://127.0.0.1:"), lines
    finally:
        process.send_signal(signal.SIGINT)  # the server stops; main returns
        try:
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                pytest.fail("tether web did not stop on one Ctrl+C")
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            stdout.close()
    loaded = set(json.loads(out.read_text()))
    assert {"acp.schema", "starlette", "uvicorn"} <= loaded
    forbidden = TERMINAL_INPUT + HTTP2 + PROVIDERS + MCP + PARSER
    assert _found(loaded, (*forbidden, "numpy", "ray")) == []


def test_demo_loads_no_sdk_provider_or_terminal_input(tmp_path: Path, env: dict[str, str]) -> None:
    loaded = _loaded(tmp_path, "demo", "--dir", str(tmp_path / "demo"), env=env)
    assert (tmp_path / "demo").is_dir()
    assert "tether.session.session" in loaded  # it did run a session
    assert _found(loaded, NEVER_OUTSIDE_ACP + PROVIDERS + MCP) == []


def test_interactive_loads_its_input_only_on_a_terminal(
    tmp_path: Path, env: dict[str, str], workspace: Path
) -> None:
    script = tmp_path / "read.json"
    turns = [
        {"toolCalls": [{"id": "r", "name": "read", "arguments": {"path": "a.py"}}]},
        {"text": "Read it."},
    ]
    script.write_text(json.dumps({"turns": turns}))
    model = ["--model", f"script:{script}"]
    # In a pipe: each line a prompt, printed as `tether run` prints; no screen, no input box.
    piped = _loaded(tmp_path, *model, stdin="read a.py\n", cwd=workspace, env=env)
    assert "tether.session.session" in piped
    assert _found(piped, NEVER_OUTSIDE_ACP + PROVIDERS + MCP + PARSER) == []
    # On a terminal: the input box, and still no protocol, web server or provider.
    out = tmp_path / "loaded-tty.json"
    driver = [sys.executable, "-c", _DRIVER, str(out)]
    tui = Tui(tmp_path / "home", model, cwd=workspace, env=env, program=driver)
    try:
        tui.wait_for(f"script:{script.name}")
        tui.line("read a.py")
        tui.wait_in_scrollback("Read it.")
        tui.press("ctrl-d")
        assert tui.finish() == 0
    finally:
        tui.kill()
    drawn = set(json.loads(out.read_text()))
    assert "prompt_toolkit" in drawn
    forbidden = ACP_SDK + WEB + HTTP2 + PROVIDERS + MCP + PARSER
    assert _found(drawn, (*forbidden, "numpy", "ray")) == []


def test_batch_on_the_pool_loads_no_ray_sdk_or_provider(
    tmp_path: Path, env: dict[str, str], workspace: Path
) -> None:
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"turns": [{"text": "hello"}]}))
    tasks = tmp_path / "tasks.jsonl"
    line = {"id": "one", "prompt": "hi", "cwd": str(workspace), "model": f"script:{script}"}
    tasks.write_text(json.dumps(line) + "\n")
    out = tmp_path / "out"
    loaded = _loaded(tmp_path, "batch", str(tasks), "--out", str(out), "--workers", "1", env=env)
    assert '"status":"done"' in (out / "results.jsonl").read_text()
    assert _found(loaded, NEVER_OUTSIDE_ACP + PROVIDERS + MCP) == []


def test_the_process_entry_leaves_its_objects_to_the_exit(env: dict[str, str]) -> None:
    # Run as the process (no argv given), main freezes what it made, so finalization does
    # not walk it; called with arguments (as from another program) it leaves the GC alone.
    code = (
        "import gc, sys\n"
        "from tether.cli import main\n"
        "main(['--version'])\n"
        "print(gc.get_freeze_count())\n"
        "sys.argv = ['tether', '--version']\n"
        "main()\n"
        "print(gc.get_freeze_count() > 0)\n"
    )
    version = version_line()
    assert printed(code, env) == [version, "0", version, "True"]


def test_the_process_entry_collects_the_young_generation_less_often(env: dict[str, str]) -> None:
    # Starting makes objects that all stay: as the process, main collects the youngest
    # generation every YOUNG_THRESHOLD allocations from the start; called with arguments (as
    # from another program) it leaves the collector as it was. (`tether --version` and
    # `tether --help` print and end: they tune nothing, see tests/cli/test_help_and_version.py.)
    code = (
        "import gc, sys\n"
        "default = gc.get_threshold()[0]\n"
        "from tether.cli import main\n"
        "main(['--version'])\n"
        "print(gc.get_threshold()[0] == default)\n"
        "sys.argv = ['tether', 'models', '--help']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(gc.get_threshold()[0])\n"
    )
    lines = printed(code, env)
    assert lines[:2] == [version_line(), "True"]
    assert lines[-1] == str(YOUNG_THRESHOLD)


def test_the_process_entry_reuses_compiled_dataclass_code(
    tmp_path: Path, env: dict[str, str]
) -> None:
    # Run as the process, a command's dataclasses take their methods from the table kept
    # beside the bytecode (tests/test_dataclass_code.py); called with arguments (as from
    # another program), it leaves the host's `dataclasses` as it was.
    code = (
        "import dataclasses, sys\n"
        "from tether.cli import main\n"
        "main(['sessions'])\n"
        "print('exec' in vars(dataclasses))\n"
        # The table goes under a prefix of its own (the modules are loaded by now, from the
        # installation's bytecode: under a new prefix each would be compiled from source).
        f"sys.pycache_prefix = {str(tmp_path / 'pycache')!r}\n"
        "sys.argv = ['tether', 'sessions']\n"
        "main()\n"
        "print(type(vars(dataclasses)['exec']).__name__)\n"
    )
    listed, before, listed_again, after = printed(code, env)
    assert listed == listed_again
    assert (before, after) == ("False", "_CodeTable")


def test_the_process_entry_reads_modules_from_the_table(
    tmp_path: Path, env: dict[str, str]
) -> None:
    # Run as the process, a command's modules take their code from the table of modules'
    # bytecode (tests/test_module_code.py); called with arguments (as from another program),
    # the host's path finders are left as they were.
    code = (
        "import sys\n"
        "from tether.cli import main\n"
        "main(['sessions'])\n"
        "print('loader', type(sys.modules['tether.cli.sessions'].__loader__).__name__)\n"
        # The table goes under a prefix of its own, as the dataclass code's above.
        f"sys.pycache_prefix = {str(tmp_path / 'pycache')!r}\n"
        "sys.argv = ['tether', 'models']\n"
        "main()\n"
        "print('loader', type(sys.modules['tether.cli.models'].__loader__).__name__)\n"
    )
    loaders = [line for line in printed(code, env) if line.startswith("loader ")]
    assert loaders == ["loader SourceFileLoader", "loader _TableLoader"]
    assert list((tmp_path / "pycache").rglob("modules.*.table"))  # kept at exit


@pytest.mark.parametrize("form", [[], ["--json"]], ids=["text", "json"])
def test_show_as_the_process_loads_no_importlib_util(
    tmp_path: Path, env: dict[str, str], form: list[str]
) -> None:
    # Its tables are found beside the bytecode with the function `importlib.util` re-exports,
    # not with `importlib.util`, whose loaders' base classes a start has no use for.
    shutil.copytree(CARD_SESSIONS, tmp_path / "home" / "sessions")
    code = (
        "import sys\n"
        "from tether.cli import main\n"
        f"sys.argv = ['tether', 'show', {CARD_SESSION!r}, *{form!r}]\n"
        "main()\n"
        "print(sorted({'importlib.util', 'importlib._abc', 'fcntl'} & set(sys.modules)))\n"
    )
    assert printed(code, env)[-1] == "[]"


_SHOW_COLLECTED = """
import gc, sys
collected = []
def seen(phase, info):
    # From when show's own module began to load (what the entry imports before it is little).
    if phase == "start" and "tether.cli.show" in sys.modules and not gc.get_freeze_count():
        collected.append(info["generation"])
gc.callbacks.append(seen)
from tether.cli import main
sys.argv = ["tether", *sys.argv[1:]]
status = main()
print(status, len(collected), gc.isenabled(), gc.get_freeze_count() > 10_000, file=sys.stderr)
"""


@pytest.mark.parametrize("form", [[], ["--json"]], ids=["text", "json"])
def test_show_collects_nothing_it_made_to_start_and_runs_the_collector_after(
    tmp_path: Path, env: dict[str, str], workspace: Path, form: list[str]
) -> None:
    # Its modules, classes and schemas stay for the whole command: as `run` does, `show` pauses
    # the collector while it starts, sets what starting made aside (frozen), then collects again.
    script = tmp_path / "hello.json"
    script.write_text(json.dumps({"turns": [{"text": "Hello."}]}))
    argv = ("run", "--model", f"script:{script}", "hi")
    made = tether_in_process(tmp_path / "home", *argv, cwd=workspace)
    assert made.returncode == 0, made.stderr
    [log] = (tmp_path / "home" / "sessions").glob("*.jsonl")
    done = subprocess.run(
        [sys.executable, "-c", _SHOW_COLLECTED, "show", log.stem, *form],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert "Hello." in done.stdout
    assert done.stderr.splitlines()[-1] == "0 0 True True"


_COMPILED = """
import json, sys
from tether.cli import main
from tether.lazy import _PatternOnUse
main(sys.argv[3:])
compiled = {}
for name in json.loads(sys.argv[2]):
    found = vars(sys.modules[name]).values() if name in sys.modules else ()
    for value in found:
        for each in value.values() if isinstance(value, dict) else [value]:
            if isinstance(each, _PatternOnUse):
                # A used pattern keeps what was asked of it beside its source.
                compiled.setdefault(name, []).append([each._source[0], len(vars(each)) > 1])
with open(sys.argv[1], "w") as out:
    json.dump(compiled, out)
"""
"""Runs `tether` and lists, for each module named, its patterns (`tether.lazy.pattern`) and
whether each was compiled."""

READERS = (
    "tether.agents.files",
    "tether.commands.catalog",
    "tether.commands.resolve",
    "tether.hooks.reads",
    "tether.instructions.imports",
    "tether.mcp.specs",
    "tether.sandbox.limits",
    "tether.sandbox.mounts",
    "tether.settings.claude",
    "tether.settings.hookfiles",
    "tether.settings.rules",
    "tether.skills.files",
    "tether.tools.bash.output",
)
"""Modules whose patterns serve files, output or failures that a short run, or a replayed
session, without them never reads."""


def test_patterns_of_files_a_command_does_not_read_are_never_compiled(
    tmp_path: Path, env: dict[str, str], workspace: Path
) -> None:
    # `run` imports the readers of settings, hook, agent, skill, command and instruction files
    # (and `show` the bash tool's output and the sandbox's failures): with none to read, their
    # patterns are never compiled. Every prompt is looked at as a command: that one is.
    script = tmp_path / "hello.json"
    script.write_text(json.dumps({"turns": [{"text": "Hello."}]}))
    out = tmp_path / "compiled.json"
    ran = ["run", "--model", f"script:{script}", "hi"]
    seen = {}
    for command in ("run", "show"):
        if command == "show":
            [log] = (tmp_path / "home" / "sessions").glob("*.jsonl")
            ran = ["show", log.stem]
        subprocess.run(
            [sys.executable, "-c", _COMPILED, str(out), json.dumps(READERS), *ran],
            capture_output=True,
            env=env,
            cwd=workspace,
            timeout=120,
            check=True,
        )
        seen[command] = json.loads(out.read_text())
    assert set(seen["run"]) == set(READERS)  # each holds its patterns, and run loads each
    command_call = [r"/(\S+)\s*(.*)", True]
    assert command_call in seen["run"]["tether.commands.resolve"]
    used = {
        (command, module, text)
        for command, modules in seen.items()
        for module, patterns in modules.items()
        for text, compiled in patterns
        if compiled and [text, compiled] != command_call
    }
    assert used == set()
