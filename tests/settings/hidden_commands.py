"""Command lines that make bash run a string no parser sees as a command: for the rule
tests, which must not allow them, and the bench that runs them for real."""

from __future__ import annotations

__all__ = ["HIDDEN"]

HIDDEN = [
    "printf -v PS4 %s '$(PAYLOAD)'; set -x; npm test",
    "x='$(PAYLOAD)'; echo \"${x@P}\"; npm test",
    "[[ 'a[$(PAYLOAD)]' -eq 1 ]]; npm test",
    "test -v 'a[$(PAYLOAD)]'; npm test",
    "[ -v 'a[$(PAYLOAD)]' ]; npm test",
    "[ -\\v 'a[$(PAYLOAD)]' ]; npm test",
    "[ '-v' 'a[$(PAYLOAD)]' ]; npm test",
    "printf -v 'a[$(PAYLOAD)]' x; npm test",
    "declare -n r=PS4; r='$(PAYLOAD)'; set -x; npm test",
    ": ${PS4:='$(PAYLOAD)'}; set -x; npm test",
    "unset PS4; : ${PS4:='$(PAYLOAD)'}; set -x; npm test",
    "x='a[$(PAYLOAD)]'; echo $((x)); npm test",
    "declare 'a[$(PAYLOAD)]=1'; npm test",
    "npm test & wait -n -p 'a[$(PAYLOAD)]'",
    "printf PAYLOAD > .bash_profile; HOME=. bash -lc 'npm test'",
    "npm test <<EOF\n\\\nEOF\nPAYLOAD\nEOF",
    "\r npm test",
    "\rPAYLOAD; npm test",
    "builtin printf -v 'a[$(PAYLOAD)]' x; npm test",
    "command declare 'a[$(PAYLOAD)]=1'; npm test",
    "let 'a[$(PAYLOAD)]'; npm test",
    "(( a[$(PAYLOAD)] )); npm test",
    "read 'a[$(PAYLOAD)]' < x; npm test",
    "mapfile -C 'PAYLOAD' -c 1 a < x; npm test",
    "s=abc; x='a[$(PAYLOAD)]'; echo ${s:x}; npm test",
    "x='a[$(PAYLOAD)]'; echo ${!x}; npm test",
    "set -x; npm test",
    "bash -x -c 'npm test'",
    "BASH_ENV=x bash -c 'npm test'",
    "trap 'PAYLOAD' DEBUG; npm test",
    "exec npm test",
]
"""Each hides `PAYLOAD`: it runs, and no rule names it. The rule tests try each once after an
allowed `npm test` (it must not be allowed) and once with `rm` as the payload (a deny rule
for rm cannot see it, so deny rules cannot be checked on it)."""
