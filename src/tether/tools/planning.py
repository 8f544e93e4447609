"""Plan mode as tools see it: whether it is on, and the person's verdict on a plan.

The policy gate holds the mode; `exit_plan_mode` asks it for the person's verdict, and
`bash` asks it whether commands must run read-only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "EXIT_PLAN_TOOL",
    "PLAN_MODE_ON",
    "KeepPlanning",
    "PlanApproved",
    "PlanVerdict",
    "WorkMode",
]

EXIT_PLAN_TOOL = "exit_plan_mode"
"""The tool that asks the person to approve a plan."""

WorkMode = Literal["accept-edits", "auto"]
"""The modes a person may continue in once the plan is approved."""

PLAN_MODE_ON = "Plan mode is on"
"""How every refusal of plan mode starts."""


@dataclass(frozen=True)
class PlanApproved:
    """The person approved the plan; the session now runs in `mode`."""

    mode: WorkMode


@dataclass(frozen=True)
class KeepPlanning:
    """The person wants more planning; `feedback` says what to change (may be empty)."""

    feedback: str


PlanVerdict = PlanApproved | KeepPlanning
"""What the person said of a plan."""
