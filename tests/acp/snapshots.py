"""The ACP snapshot fixtures: a scripted model, a client's inputs, and what the agent wrote.

A fixture directory `tests/snapshots/acp/<name>/` holds:

- `script.json` — the scripted model (`--model script:...`);
- `client.jsonl` — the client's inputs, in order, one object a line:
  `{"agent": {"mode": "ask"}}` (optional, first: the agent's flags),
  `{"request": {"method": ..., "params": ...}}` (sent, then read until its answer),
  `{"permission": "allow_once" | "allow_always" | "reject_once" | "cancelled"}` (the answers
  to the agent's `session/request_permission`s, consumed in order);
  strings may use `{{cwd}}`, `{{extra}}` and `{{sessionId}}` (the id `session/new` gave),
  and so may `script.json`;
- `workspace/` (the session's cwd) and `extra/` (an additional directory), copied to a
  temporary directory;
- `search.json` (optional) — `{"provider": "brave", "replies": [{"status", "body",
  "headers"}]}`: a loopback server speaking that search API answers the agent's searches
  with those replies, in order (the process that loads the session again has no backend);
- `stdout.expected.jsonl` — every message the agent wrote, one a line;
- `session.expected.jsonl` — the persisted log.

Paths, the session id, times and the version are normalized to `{{cwd}}`, `{{extra}}`,
`{{tmp}}` (the directory both are in), `{{sessionId}}`, `{{time}}`, `{{mtime}}` (a file's
modification time in an `observed` record), `{{duration}}` (how long a hook ran) and
`{{version}}`; the sessions agents ran for
it (`task` calls) to `{{child1}}`, `{{child2}}`... in the order they started, and the
sessions `/fork` made of it to `{{fork1}}`, `{{fork2}}`...
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.acp.memory import InMemoryAgents
from tests.acp.wire import AgentWire, Message
from tests.tools.web.search_api import Reply, env_for, serve_api

_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?")
_MTIME = re.compile(r'"mtimeNs": ?\d+')
_DURATION = re.compile(r'"durationMs": ?\d+')
_SPOKEN_DURATION = re.compile(r", \d+(?:\.\d)? m?s\)")

CHECKED_ON_LOAD = {"tool_call", "tool_call_update", "agent_message_chunk", "session_info_update"}
"""The updates a `session/load` must repeat exactly as they were sent live."""


@dataclass
class Places:
    """Where one run happens, and how its output is normalized."""

    root: Path
    cwd: Path
    extra: Path
    home: Path
    session_id: str = ""
    children: list[str] = field(default_factory=list)
    forks: list[str] = field(default_factory=list)

    def substitute(self, value: Any) -> Any:
        """Client input with its placeholders filled in."""
        if isinstance(value, str):
            return (
                value.replace("{{cwd}}", str(self.cwd))
                .replace("{{extra}}", str(self.extra))
                .replace("{{sessionId}}", self.session_id)
            )
        if isinstance(value, list):
            return [self.substitute(v) for v in value]
        if isinstance(value, dict):
            return {k: self.substitute(v) for k, v in value.items()}
        return value

    def normalize(self, text: str) -> str:
        """A line with the run's own paths, ids and times replaced by placeholders."""
        for path, name in (
            (self.cwd, "{{cwd}}"),
            (self.extra, "{{extra}}"),
            (self.root, "{{tmp}}"),
        ):
            text = text.replace(str(path.resolve()), name).replace(str(path), name)
        if self.session_id:
            text = text.replace(self.session_id, "{{sessionId}}")
        for number, child in enumerate(self.children, start=1):
            text = text.replace(child, f"{{{{child{number}}}}}")
        for number, fork in enumerate(self.forks, start=1):
            text = text.replace(fork, f"{{{{fork{number}}}}}")
        text = _DURATION.sub('"durationMs":"{{duration}}"', text)
        text = _SPOKEN_DURATION.sub(", {{duration}})", text)
        return _MTIME.sub('"mtimeNs":"{{mtime}}"', _TIME.sub("{{time}}", text))


@dataclass
class Run:
    """What one fixture run produced."""

    stdout: list[Message]
    session_log: list[str]
    live_updates: list[Message] = field(default_factory=list)
    loaded_updates: list[Message] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)


def load_inputs(fixture: Path) -> tuple[list[str], list[Message], list[str]]:
    """The agent's flags, the requests and the permission answers of a fixture."""
    flags: list[str] = []
    requests: list[Message] = []
    answers: list[str] = []
    for number, line in enumerate((fixture / "client.jsonl").read_text().splitlines(), 1):
        if not line.strip():
            continue
        entry = json.loads(line)
        if "agent" in entry:
            flags = ["--mode", entry["agent"].get("mode", "ask")]
        elif "request" in entry:
            requests.append(entry["request"])
        elif "permission" in entry:
            answers.append(entry["permission"])
        else:
            raise AssertionError(f"{fixture}/client.jsonl:{number}: unknown entry {entry}")
    return flags, requests, answers


def prepare(fixture: Path, tmp: Path) -> Places:
    """Copy the fixture's directories into `tmp`."""
    places = Places(root=tmp, cwd=tmp / "workspace", extra=tmp / "extra", home=tmp / "home")
    for source, target in ((fixture / "workspace", places.cwd), (fixture / "extra", places.extra)):
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            target.mkdir()
    return places


async def run_fixture(agents: InMemoryAgents, fixture: Path, tmp: Path) -> Run:
    """Play the client's inputs against `tether acp`'s agent, then load the session again in
    another agent."""
    search = fixture / "search.json"
    if not search.is_file():
        return await _run(agents, fixture, tmp, {})
    spec = json.loads(search.read_text())
    with serve_api() as api:
        api.answer(*(Reply(**reply) for reply in spec["replies"]))
        run = await _run(agents, fixture, tmp, env_for(spec["provider"], api))
        assert not api.replies, f"search replies left over: {api.replies}"
    return run


async def _run(agents: InMemoryAgents, fixture: Path, tmp: Path, env: dict[str, str]) -> Run:
    flags, requests, answers = load_inputs(fixture)
    places = prepare(fixture, tmp)
    # The script may name the run's directories too (`{{extra}}/file`).
    script_path = tmp / "script.json"
    script_path.write_text(places.substitute((fixture / "script.json").read_text()))
    script = ["--model", f"script:{script_path}"]
    pending = list(answers)

    def answer(message: Message) -> Message:
        assert message["method"] == "session/request_permission", message
        if not pending:
            raise AssertionError(f"a permission request the fixture does not answer: {message}")
        choice = pending.pop(0)
        if choice == "cancelled":
            return {"outcome": {"outcome": "cancelled"}}
        return {"outcome": {"outcome": "selected", "optionId": choice}}

    agent = await agents.start(places.home, *script, *flags, env=env)
    run = Run(stdout=[], session_log=[])
    await _play(agent, places, requests, answer, run)
    assert not pending, f"permission answers left over: {pending}"
    assert places.session_id, "the fixture never created a session"
    places.children = _children(places.home / "sessions", places.session_id)
    places.forks = _forks(places.home / "sessions", places.session_id)
    run.stdout = [_normalized(m, places) for m in agent.received]
    log_path = places.home / "sessions" / f"{places.session_id}.jsonl"
    run.session_log = [places.normalize(line) for line in log_path.read_text().splitlines()]
    run.live_updates = [_normalized(u, places) for u in run.live_updates]
    # Another agent, once the first has released the session, without the search backend.
    loader = await agents.start(places.home, *script, *flags)
    run.loaded_updates = await _load_again(loader, places)
    return run


async def _play(
    agent: AgentWire,
    places: Places,
    requests: list[Message],
    answer: Callable[[Message], Message],
    run: Run,
) -> None:
    try:
        for request in requests:
            params = places.substitute(request.get("params", {}))
            reply, notes = await agent.request(request["method"], params, answer)
            run.live_updates.extend(n["params"]["update"] for n in notes if _is_update(n))
            if request["method"] == "session/new" and "result" in reply:
                places.session_id = reply["result"]["sessionId"]
            if request["method"] == "session/prompt":
                run.prompts.extend(b["text"] for b in params["prompt"] if b.get("type") == "text")
    finally:
        status = await agent.close()
    assert status == 0, agent.stderr


async def _load_again(agent: AgentWire, places: Places) -> list[Message]:
    try:
        await agent.initialize()
        reply, notes = await agent.request(
            "session/load",
            {"sessionId": places.session_id, "cwd": str(places.cwd), "mcpServers": []},
        )
        assert "result" in reply, reply
        listed, _ = await agent.request("session/list", {})
        ids = [s["sessionId"] for s in listed["result"]["sessions"]]
        assert places.session_id in ids, listed
    finally:
        status = await agent.close()
    assert status == 0, agent.stderr
    return [_normalized(n["params"]["update"], places) for n in notes if _is_update(n)]


def checked_on_load(updates: list[Message]) -> list[Message]:
    """The updates a load must repeat: cards and text (live-only progress left out)."""
    return [
        u
        for u in updates
        if u["sessionUpdate"] in CHECKED_ON_LOAD
        and not (u["sessionUpdate"] == "tool_call_update" and u.get("status") == "in_progress")
    ]


def replayable(updates: list[Message]) -> list[Message]:
    """Every update a load must send again as it went live, the person's own prompts apart.

    Left out: a call's progress (live only), the slash commands (advertised after either
    answer, not part of the conversation) and the person's prompts (a live client has them;
    compared with what was sent).
    """
    return [
        u
        for u in updates
        if u["sessionUpdate"] not in ("user_message_chunk", "available_commands_update")
        and not (u["sessionUpdate"] == "tool_call_update" and u.get("status") == "in_progress")
    ]


def dump_lines(items: list[Any]) -> str:
    """One JSON document a line."""
    return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items)


def _children(sessions: Path, parent: str) -> list[str]:
    """The sessions agents ran for `parent`, and theirs, in the order they were created."""
    found: list[tuple[str, str]] = []
    parents = {parent}
    headers = [json.loads(p.read_text().split("\n", 1)[0]) for p in sessions.glob("*.jsonl")]
    while True:
        more = [
            (h["createdAt"], h["id"])
            for h in headers
            if h.get("parent", {}).get("id") in parents and h["id"] not in parents
        ]
        if not more:
            return [session_id for _, session_id in sorted(found)]
        found.extend(more)
        parents.update(session_id for _, session_id in more)


def _forks(sessions: Path, parent: str) -> list[str]:
    """The sessions forked from `parent` (`/fork`), in the order they were made."""
    headers = [json.loads(p.read_text().split("\n", 1)[0]) for p in sessions.glob("*.jsonl")]
    made = [
        (h["createdAt"], h["id"]) for h in headers if h.get("forkedFrom", {}).get("id") == parent
    ]
    return [session_id for _, session_id in sorted(made)]


def _is_update(message: Message) -> bool:
    return message.get("method") == "session/update"


def _normalized(message: Message, places: Places) -> Message:
    result = message.get("result")
    if isinstance(result, dict) and isinstance(result.get("agentInfo"), dict):
        result["agentInfo"]["version"] = "{{version}}"
    normalized: Message = json.loads(places.normalize(json.dumps(message, ensure_ascii=False)))
    return normalized
