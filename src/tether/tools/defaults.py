"""The tools a session offers unless told otherwise."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tether.tools.deferred import deferred_tool
from tether.tools.registry import ToolRegistry, ToolsOnFirstUse

if TYPE_CHECKING:
    from tether.sandbox.policy import SandboxPolicy
    from tether.tools.web import SearchSetup

__all__ = ["DEFERRED_HOMES", "REPLAY_HOMES", "default_tools", "replay_tools"]

DEFERRED_HOMES = {
    "read": "tether.tools.fs.read.ReadTool",
    "write": "tether.tools.fs.write.WriteTool",
    "edit": "tether.tools.fs.edit.EditTool",
    "multi_edit": "tether.tools.fs.multi_edit.MultiEditTool",
    "notebook_edit": "tether.tools.fs.notebook_edit.NotebookEditTool",
    "grep": "tether.tools.search.grep.GrepTool",
    "glob": "tether.tools.search.glob.GlobTool",
    "ls": "tether.tools.search.ls.LsTool",
    "bash_output": "tether.tools.bash.background.BashOutputTool",
    "kill_shell": "tether.tools.bash.background.KillShellTool",
    "web_fetch": "tether.tools.web.tool.WebFetchTool",
    "todo": "tether.tools.todo.TodoTool",
    "exit_plan_mode": "tether.tools.exit_plan.ExitPlanTool",
}
"""The tools whose modules load with their first call: the model is told of them from their
stored specs (`tether.tools.deferred`). `bash`, `web_search`, `task` and `skill` are made at
once: a session reads their sandbox, backend, agents and skills as it starts."""


def default_tools(
    sandbox: SandboxPolicy | None = None,
    *,
    allow_private_fetch: bool = False,
    env: Mapping[str, str] | None = None,
    web_search: SearchSetup | None = None,
) -> ToolRegistry:
    """`read`, `write`, `edit`, `multi_edit`, `notebook_edit`, `grep`, `glob`, `ls`, `bash`,
    `bash_output`, `kill_shell`, `web_fetch`, `web_search`, `todo`, `task`, `skill` and
    `exit_plan_mode`, in the order the model sees
    them.

    `sandbox` confines `bash`; `allow_private_fetch` lets `web_fetch` reach loopback, private
    and link-local addresses; `env` adds variables to the commands `bash` runs; `web_search`
    is the search backend (default: the one this process's environment configures). Without
    a backend `web_search` is not offered, nor `skill` without skills (the session gives it the
    workspace's), but both still show the cards of stored calls.
    """
    # Loaded here, not with the module: a replay (`replay_tools`) loads each with its first
    # stored call.
    from tether.tools.bash.tool import BashTool
    from tether.tools.skill import SkillTool
    from tether.tools.task import TaskTool
    from tether.tools.web import WebSearchTool, choose_backend

    if web_search is None:
        web_search = choose_backend(os.environ)

    def later(name: str, **options: object) -> Any:
        return deferred_tool(name, DEFERRED_HOMES[name], **options)

    return ToolRegistry(
        [
            later("read"),
            later("write"),
            later("edit"),
            later("multi_edit"),
            later("notebook_edit"),
            later("grep"),
            later("glob"),
            later("ls"),
            BashTool(sandbox=sandbox, env=env),
            later("bash_output"),
            later("kill_shell"),
            later("web_fetch", allow_private=allow_private_fetch),
            WebSearchTool(web_search),
            later("todo"),
            TaskTool(),
            SkillTool(),
            later("exit_plan_mode"),
        ]
    )


REPLAY_HOMES = {
    **{name: DEFERRED_HOMES[name] for name in ("read", "write", "edit", "multi_edit")},
    **{name: DEFERRED_HOMES[name] for name in ("notebook_edit", "grep", "glob", "ls")},
    "bash": "tether.tools.bash.tool.BashTool",
    **{name: DEFERRED_HOMES[name] for name in ("bash_output", "kill_shell", "web_fetch")},
    "web_search": "tether.tools.web.search.WebSearchTool",
    "todo": DEFERRED_HOMES["todo"],
    "task": "tether.tools.task.tool.TaskTool",
    "skill": "tether.tools.skill.SkillTool",
    "exit_plan_mode": DEFERRED_HOMES["exit_plan_mode"],
}
"""Every tool of `default_tools`, in its order, by its class: what `replay_tools` makes."""


def replay_tools() -> ToolRegistry:
    """The tools whose cards a stored session is shown with: `default_tools()`'s, each made
    (and its module loaded) when a stored call of it is first shown, and stated from their
    stored specs when the first call is (a session that called none states none).

    Their cards are drawn from what the log holds, not from this machine: `web_search` is
    made without a backend and `skill` without skills, as `default_tools()` makes `skill`
    (what would run a call is never used), so a session that called neither loads neither.
    """
    return ToolsOnFirstUse(lambda: [deferred_tool(n, home) for n, home in REPLAY_HOMES.items()])
