"""Bash command lines as tether understands them: parsed with a real bash grammar.

`parser` turns a line into the simple commands it runs (tree-sitter-bash, through `words`
and `treecheck`); `grammar` is the closed part of bash an allow rule can allow;
`invocations` names each program a line runs, through the `wrappers` that run another
(`env`, `timeout`, ...). The settings' rules and the policy ask it what a command runs.
"""
