"""`tether show`'s table of dataclass code (`tether.dataclass_code`), filled at install.

A command's table is written at the end of a process that compiled something new, and only
where bytecode is written. Where it never is (`PYTHONDONTWRITEBYTECODE`, as on CI machines and
in containers), every `tether show` compiled the methods of the classes it makes again: about
0.08 s of CPU a start, a tenth of `show --json` on a 43 MB log. `scripts/setup` runs
`python -m tether.cli.code_tables` once, after compiling the bytecode: it makes the classes
either form of `tether show` makes (the command, the replay, every tool a stored call may
name, the cards' and updates' schemas) under `show`'s table, which is saved as it exits.

A class this leaves out is compiled when a command makes it, as before; nothing here changes
what a class is (`tether.dataclass_code` says why).

`python -m tether.cli.code_tables schemas`, run next by `scripts/setup` in a process of its
own, keeps pydantic's core schemas of the types `tether show` and `tether run` build
(`tether.schema_table`): about 0.01 s of CPU at every start of either.

Either process keeps the bytecode of the modules it loads in the table of modules' bytecode
(`tether.module_code`), which a start reads instead of a file per module: both commands' own,
and most of what they import.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

__all__ = ["RUN_MODULES", "SHOW_MODULES", "fill_schemas", "fill_show_table"]

SHOW_MODULES = (
    "tether.cli.show",
    "tether.cli.show_json",
    "tether.cli.printer",
    "tether.render.terminal",
    "tether.render.outcome",
    "tether.render.markdown",
    "tether.render.task_card",
    "tether.linediff",
    "tether.highlight",
    "tether.session.jobcards",
    "tether.mcp.presenter",
    "rich.table",
)
"""What `tether show` may load after its start: both forms and the cards each draws (diffs,
Markdown, highlighted code), jobs, MCP calls."""

RUN_MODULES = (
    "tether.cli.run",
    "tether.cli.run_surface",
    "tether.cli.asker",
    "tether.cli.mcp",
    "tether.surface.compose",
    "tether.session.session",
    "tether.models.openai_compat",
)
"""What `tether run` loads up to its first request, whose types' schemas are kept too."""


def fill_show_table() -> None:
    """Make, under `show`'s table, the classes `tether show` makes; the table is saved at
    the process's exit (bytecode is written meanwhile, whatever the environment says)."""
    # The table is saved only where bytecode is written: this is the one process meant to.
    sys.dont_write_bytecode = False
    from tether.dataclass_code import COMPILED_CHECKS, reuse_code_in, reuse_dataclass_code
    from tether.lazy import before_run

    reuse_dataclass_code("show")
    before_run(COMPILED_CHECKS, reuse_code_in)
    from tether.cli import build_parser

    # Parsing compiles argparse's patterns for its arguments' counts, kept in the table too.
    parser = build_parser("show")
    for line in (["show", "ID", "--json"], ["-v", "show", "ID"]):
        parser.parse_args(line)
    for module in SHOW_MODULES:
        importlib.import_module(module)
    from tether.session.log.events import EVENT, HEADER
    from tether.session.updates import CLIENT_UPDATE
    from tether.tools.defaults import REPLAY_HOMES
    from tether.views.codec import TOOL_VIEW

    for home in REPLAY_HOMES.values():
        module, _, name = home.rpartition(".")
        getattr(importlib.import_module(module), name)
    # Schemas are built at first use: resolving their annotations compiles them too.
    for adapter in (EVENT, HEADER, CLIENT_UPDATE, TOOL_VIEW):
        adapter.rebuild()
    from tether.render.markdown_parser import markdown

    # The parser's rules and tokens, and rich's Markdown elements, are made as it is used.
    markdown("# A\n\n*b* `c` ~~d~~\n\n| e |\n|---|\n| f |\n\n- g\n\n```py\nh\n```\n")


def fill_schemas(path: Path | None = None) -> int:
    """Keep the schemas of the types `tether show` and `tether run` build
    (`tether.schema_table`; at `path`, else beside the bytecode); the number kept."""
    from tether.tools.defaults import DEFERRED_HOMES, REPLAY_HOMES

    homes = {*REPLAY_HOMES.values(), *DEFERRED_HOMES.values()}
    for module in (*SHOW_MODULES, *RUN_MODULES, *(home.rpartition(".")[0] for home in homes)):
        importlib.import_module(module)
    from tether.schema_table import fill_schema_table

    return fill_schema_table(path)


if __name__ == "__main__":
    from tether.module_code import reuse_module_code

    # Each module this loads is kept in the table of modules' bytecode at exit, where bytecode
    # is written (so here too: the tables are what this process is for).
    sys.dont_write_bytecode = False
    reuse_module_code()
    # Two processes: the schemas' modules would otherwise add their classes to show's table.
    if sys.argv[1:] == ["schemas"]:
        fill_schemas()
    else:
        fill_show_table()
