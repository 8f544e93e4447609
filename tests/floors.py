"""The floors of `src/tether`, from the ground up: a package imports only packages on floors
below its own (`tests/test_layers.py` checks it, `ARCHITECTURE.md` lists them).

The table is LAYOUT.md's, with the homes added since and what their code showed:

- `frontmatter.py`, `home.py`, `lazy.py`, `dataclass_code.py`, `module_code.py`,
  `schema_table/`, `pydantic_docstrings.py`, `pydantic_fields.py`, `pydantic_plugins.py`,
  `figures.py` and `gitenv.py` stand on the ground floor with `jsontext.py`: plain helpers
  that know nothing of tether's concepts. `bounded.py` reads JSON with `jsontext.py`, so it
  has a floor of its own just above.
- `instructions/` (the `AGENTS.md` chains and their `@imports`) reads bounded Markdown and
  nothing else, and `skills/` expands a skill's imports with it, so it sits below `skills/`.
- `skills/` sits below `tools/` rather than beside it: the `skill` tool in `tools/` reads the
  skills it finds, and a floor never imports its own neighbours.
- `errors.py` (the one exception tree) stands below everything, so that every floor can
  raise and catch its errors (it imports nothing); `kept_table.py` (the file format of the
  tables kept beside the bytecode) stands with it, so that `dataclass_code.py` and
  `schema_table/`, neighbours on the ground floor, share it; so does the package itself
  (`__version__`, importing nothing), since a table is kept for one release. `beneath.py`
  (opening exactly the path that was checked) stands with `bounded.py`, for the tools, the
  sandbox and the checkpoints.
- `sandbox/` (bubblewrap, seccomp, mounts, git disarming) sits below `tools/`: the `bash` tool
  and the hooks run commands in it. `shell/` (the bash parser) sits on the same floor: it
  imports nothing of tether, and the settings' rules, the policy and the tools may ask it.
- `settings/` sits between `tools/` and `policy/`: it reports errors as tools do and writes
  through the one atomic writer, and the policy (and `mcp/`, which takes its file lock) asks it.
- `agents/`, `checkpoints/` and `hooks/` sit below `session/`, which uses them; `hooks/`
  reads settings, `agents/` names tools.
- `render/` (the terminal's cards) sits with `session/` and so imports nothing of it: it draws
  views and plain values, so `cli/` can hand it what a session reported.
- `surface/` is what every way of running a session shares (the composition root that
  builds a session's configuration from settings, the one slash-command dispatcher): above
  `session/` and `commands/`, below `batch/`, `acp/` and `cli/`, which all use it.
- `batch/` runs sessions for `cli/`.
"""

from __future__ import annotations

__all__ = ["FLOOR", "FLOORS"]

FLOORS: tuple[tuple[str, ...], ...] = (
    ("errors", "kept_table", "tether"),  # `tether`: the package itself, `__version__`
    (
        "wire",
        "jsontext",
        "highlight",
        "providers",
        "frontmatter",
        "figures",
        "home",
        "lazy",
        "dataclass_code",
        "module_code",
        "schema_table",
        "pydantic_docstrings",
        "pydantic_fields",
        "pydantic_plugins",
        "gitenv",
    ),
    ("bounded", "beneath", "version"),
    ("views", "content"),
    ("linediff", "models"),
    ("instructions",),
    ("skills",),
    ("sandbox", "shell"),
    ("tools",),
    ("settings",),
    ("policy", "mcp"),
    ("agents", "checkpoints", "hooks"),
    ("session", "commands", "render"),
    ("surface",),
    ("batch",),
    ("acp",),
    ("web",),
    ("cli", "demo"),
    ("__main__",),
)
"""From the ground up: the top-level modules and packages of `tether` on each floor."""

FLOOR = {name: level for level, names in enumerate(FLOORS) for name in names}
