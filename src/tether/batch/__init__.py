"""`tether batch`: many headless prompts, each in its own workspace, on a pool or on Ray.

`tasks` reads the task file, `workspaces` makes each task's copy and its diff, `runner` runs
one task, `pool` (local processes) and `ray_runner` (a Ray cluster) run many, `driver`
writes `results.jsonl` and `progress` shows it.
"""
