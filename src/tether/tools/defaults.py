"""The tools a session offers unless told otherwise."""

from __future__ import annotations

import os
from collections.abc import Mapping

from tether.sandbox.policy import SandboxPolicy
from tether.tools.bash.background import BashOutputTool, KillShellTool
from tether.tools.bash.tool import BashTool
from tether.tools.exit_plan import ExitPlanTool
from tether.tools.fs.edit import EditTool
from tether.tools.fs.multi_edit import MultiEditTool
from tether.tools.fs.notebook_edit import NotebookEditTool
from tether.tools.fs.read import ReadTool
from tether.tools.fs.write import WriteTool
from tether.tools.registry import ToolRegistry
from tether.tools.search import GlobTool, GrepTool, LsTool
from tether.tools.skill import SkillTool
from tether.tools.task import TaskTool
from tether.tools.todo import TodoTool
from tether.tools.web import SearchSetup, WebFetchTool, WebSearchTool, choose_backend

__all__ = ["default_tools"]


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
    if web_search is None:
        web_search = choose_backend(os.environ)
    return ToolRegistry(
        [
            ReadTool(),
            WriteTool(),
            EditTool(),
            MultiEditTool(),
            NotebookEditTool(),
            GrepTool(),
            GlobTool(),
            LsTool(),
            BashTool(sandbox=sandbox, env=env),
            BashOutputTool(),
            KillShellTool(),
            WebFetchTool(allow_private=allow_private_fetch),
            WebSearchTool(web_search),
            TodoTool(),
            TaskTool(),
            SkillTool(),
            ExitPlanTool(),
        ]
    )
