"""The policy gate: the session mode decides, a person is asked when it does not.

What passes without asking, by kind of `Access` (`tether.tools.access`):

| access                                      | ask | accept-edits | auto | plan |
|---------------------------------------------|-----|--------------|------|------|
| read inside the workspace (`FileAccess`)    | yes | yes          | yes  | yes  |
| edit inside the workspace (`FileAccess`)    | ask | yes          | yes  | no   |
| read outside (`FileAccess`)                 | ask | ask          | yes  | ask  |
| edit outside (`FileAccess`)                 | ask | ask          | yes  | no   |
| execute (`CommandAccess`)                   | ask | ask          | yes  | ask  |
| fetch (`FetchAccess`)                       | ask | ask          | yes  | ask  |
| web search (`SearchAccess`)                 | ask | ask          | yes  | ask  |
| mcp, not read-only (`McpAccess`)            | ask | ask          | yes  | no   |
| mcp, read-only (`McpAccess`)                | yes | yes          | yes  | yes  |
| an agent or a skill by name (`NamedAccess`) | yes | yes          | yes  | yes  |
| unsandboxed (`UnsandboxedAccess`)           | ask | ask          | ask  | no   |
| edit of a protected path (`FileAccess`)     | ask | ask          | ask  | no   |
| execute, redirecting into a protected path  | ask | ask          | ask  | ask  |
| execute, no sandbox (`CommandAccess`)       | ask | ask          | no   | no   |

In plan mode (`tether.policy.planning`) the "no"s say plan mode is on, and `bash` runs its
commands in the read-only sandbox, so an "execute" there changes nothing.

"Inside" means the resolved path (symlinks followed) lies in a workspace root, and the tool
said so too: either one saying "outside" is enough to ask. An `allow_always` answer lasts for
the rest of the session (the gate's life) and covers the same action on the same resolved
path (`read` and `edit` apart), the exact same command for `execute` (and, apart, for
`unsandboxed`), the same host for `fetch`, every web search for `search`, or the same MCP
tool for `mcp` (an MCP tool the server annotates read-only never asks). "No sandbox" is a
command (`sandbox_problem` set) of a sandboxed session whose sandbox cannot start: auto mode
refuses it rather than run it unconfined without being told to (`--sandbox off`). A protected path
(`tether.sandbox.protected`: `.git`, `.mcp.json`, `.tether/`, `.claude/`, `.vscode/`, tether's
data directory, and the workspace files the configured hooks run, `tether.settings.hookfiles`)
holds what later runs with the user's rights, so editing one always asks, and so does a
command that redirects its output into one (`printf ... > .git/hooks/pre-commit`), in every
mode and whatever the rules: with `--sandbox off` nothing else would stop it.

Rules from the settings (`tether.settings`) come first, in every mode: a deny rule refuses
(the error names the rule and its file), an ask rule asks even in auto mode, and allow rules
let through what the mode would ask about — except a command outside the sandbox, one
that would run unsandboxed because the sandbox cannot start, or an edit of a protected path.
A command whose parts cannot all be seen (`eval $X`) asks in auto mode when deny rules for
bash exist. "Always allow for
this project" writes the exact rule to `.tether/settings.local.json`.

Where Claude Code's `disableBypassPermissionsMode` is set, auto mode decides as ask mode does
(however the session was switched to it), and the question says why.

A `PreToolUse` hook's decision about a call (`tether.tools.access.HookVerdict`, passed with
the access by the call's context) counts as a rule for that call alone: `allow`
as an allow rule naming it (so deny and ask rules still win, what always asks still asks, and
a command line no allow rule could allow — one with a `$(...)`, `eval`, `source` — is asked
about as the mode says), `ask` as an ask rule.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Sequence
from pathlib import Path

from tether.errors import PermissionDenied
from tether.policy.answers import SessionAnswers
from tether.policy.asker import INSTEAD, PermissionAsker, PermissionQuestion, RejectWithMessage
from tether.policy.modes import DEFAULT_MODE, PolicyMode, is_mode
from tether.policy.planning import ask_plan
from tether.policy.protection import Protection
from tether.policy.reasons import hint, mode_reason, plan_refusal
from tether.policy.rules import project_rules, use_of
from tether.policy.wording import describe, permission_options
from tether.settings import Allow, Ask, Deny, NoRule, Rule, Settings, Verdict
from tether.settings.matcher import judge
from tether.tools.access import (
    Access,
    CommandAccess,
    FileAccess,
    HookVerdict,
    PermissionOutcome,
    UnsandboxedAccess,
)
from tether.tools.planning import PLAN_MODE_ON, PlanApproved, PlanVerdict
from tether.tools.workspace import Workspace

__all__ = ["PolicyGate"]

log = logging.getLogger(__name__)


class PolicyGate:
    """Implements `tether.tools.access.Gate` for a session: its mode, its asker, its memory."""

    def __init__(
        self,
        workspace: Workspace,
        mode: PolicyMode = DEFAULT_MODE,
        asker: PermissionAsker | None = None,
        settings: Settings | None = None,
    ) -> None:
        self.workspace = workspace
        self.mode = mode
        self.asker = asker
        """Who answers; `None` in a headless run, where anything that would ask is refused."""
        self.settings = settings
        """The rules (and where they come from); `None`: the mode alone decides."""
        self._answers = SessionAnswers()
        self._protection = Protection()
        self.granted: tuple[Rule, ...] = ()
        """Allow rules of the running prompt alone (a command's `allowed-tools`): weaker than
        every rule of the settings files, so a deny or ask rule there still decides."""

    def child(self, asker: PermissionAsker | None) -> PolicyGate:
        """A gate for a child session: this one's mode and rules, another asker.

        "Always allow" answers are shared both ways: what the person allowed for the session
        holds for its agents, and what they allowed for an agent holds for the session.
        """
        gate = copy.copy(self)  # shallow: the memory of answers is the same
        gate.asker = asker
        return gate

    @property
    def mode(self) -> PolicyMode:
        """The session mode; `session/set_mode` may change it at any time."""
        return self._mode

    @mode.setter
    def mode(self, value: PolicyMode) -> None:
        if not is_mode(value):
            raise ValueError(f"unknown mode {value!r}; expected ask, accept-edits, auto or plan")
        self._mode = value

    @property
    def planning(self) -> bool:
        """Whether plan mode is on: nothing may change, commands run read-only."""
        return self._mode == "plan"

    async def approve_plan(
        self, plan: str, tool_call_id: str, *, via: PermissionAsker | None = None
    ) -> PlanVerdict:
        """Ask the person to approve `plan`; on approval the gate leaves plan mode for the
        mode they chose. Raises `PermissionDenied` when plan mode is off or no one can answer.
        `via`: the asker to ask through instead of the gate's own (as for `authorize`)."""
        if not self.planning:
            raise PermissionDenied(
                "Plan mode is not on: there is no plan to approve; go ahead with the work"
            )
        asker = via or self.asker
        if asker is None:
            raise PermissionDenied(
                f"{PLAN_MODE_ON}, and there is no one here to approve a plan: the session "
                "stays in plan mode (run with --mode accept-edits or --mode auto to work)"
            )
        verdict = await ask_plan(asker, plan, tool_call_id)
        if isinstance(verdict, PlanApproved):
            self.mode = verdict.mode
        return verdict

    async def authorize(
        self,
        access: Access,
        hook: HookVerdict | None = None,
        *,
        via: PermissionAsker | None = None,
    ) -> PermissionOutcome | None:
        """How a person settled the access (`None`: it passed without asking); raise
        `PermissionDenied` saying why not (its `outcome` says how it was settled).
        `hook`: what the call's `PreToolUse` hooks said of it; `via`: the asker to ask
        through instead of the gate's own (a turn's, which runs the session's hooks first)."""
        verdict = self._judge(access)
        if isinstance(verdict, Deny):
            raise PermissionDenied(
                f"Permission to {describe(access)} is denied by the {verdict.rule.describe()}"
            )
        if self.planning and (refusal := plan_refusal(access)) is not None:
            raise PermissionDenied(refusal, outcome="refused")
        auto = self._deciding_mode() == "auto"
        if isinstance(access, CommandAccess) and access.sandbox_problem and auto:
            raise PermissionDenied(
                f"The sandbox cannot start ({access.sandbox_problem}), and auto mode does not "
                "run commands unsandboxed; pass --sandbox off explicitly to run them without it",
                outcome="refused",
            )
        reason = self._reason(access, verdict, hook)
        if reason is None:
            return None
        if self._answers.cover(access):
            return None
        what = describe(access)
        asker = via or self.asker
        if asker is None:
            raise PermissionDenied(
                f"Permission to {what} needs approval ({reason}), but there is no one to ask "
                f"in this session; {self._hint(access)}",
                outcome="refused",
            )
        rules = self._project_rules(access, verdict)
        options = permission_options(access, self.workspace, rules)
        request = PermissionQuestion(
            subject=access,
            options=options,
            reason=reason,
            allowable=self._allowable(access, verdict, hook),
        )
        try:
            answer = await asker.ask(request)
        except PermissionDenied:
            raise  # the asker's own refusal, e.g. the client cancelled the request
        except Exception as exc:
            log.warning("asking for permission to %s failed", what, exc_info=True)
            raise PermissionDenied(f"Permission to {what} could not be asked for: {exc}") from exc
        match answer:
            case "allow_once" | "allow_always" | "allow_project" as allowed:
                if allowed == "allow_project" and rules:
                    await self._remember(rules)
                if allowed != "allow_once":
                    self._answers.add(access, what, listed=allowed == "allow_always")
                return allowed
            case RejectWithMessage(message=message) if message.strip():
                raise PermissionDenied(
                    f"Permission to {what} was rejected. {INSTEAD}{message.strip()}",
                    outcome="reject",
                )
            case _:  # a rejection, or an answer no asker may give
                raise PermissionDenied(f"Permission to {what} was rejected", outcome="reject")

    def session_answers(self) -> list[str]:
        """What this session's "always allow" answers cover, in words, oldest first (a
        project answer is a rule of its file instead)."""
        return self._answers.listed()

    def forget_answer(self, index: int) -> str | None:
        """Take back the session answer at `index` (it asks again); what it covered."""
        return self._answers.forget(index)

    def hidden(self, root: Path, tool: str) -> tuple[str, ...]:
        """What a search of `root` leaves out: the paths deny rules forbid reading there."""
        if self.settings is None:
            return ()
        try:
            return self.settings.search_exclusions(root, tool)
        except ValueError as exc:
            raise PermissionDenied(f"Permission to search {root} is denied: {exc}") from exc

    def _judge(self, access: Access) -> Verdict:
        verdict: Verdict = NoRule()
        if self.settings is not None:
            verdict = self.settings.judge(use_of(access, self.workspace))
        if isinstance(verdict, NoRule) and self.granted:
            granted = judge(self.granted, use_of(access, self.workspace))
            if isinstance(granted, Allow):
                return granted
        return verdict

    def _reason(self, access: Access, verdict: Verdict, hook: HookVerdict | None) -> str | None:
        """Why a person is asked, the rules, the call's hooks and the mode considered;
        `None` to pass."""
        unsandboxed = isinstance(access, UnsandboxedAccess) or (
            isinstance(access, CommandAccess) and access.sandbox_problem is not None
        )
        match verdict:
            case Ask(rule=rule):
                return f"the {rule.describe()} asks"
            case _ if hook is not None and hook.decision == "ask":
                return hook.reason
            case Allow() if not unsandboxed and not self._protected(access):
                return None
            case NoRule(concerns=()) if (
                hook is not None and not unsandboxed and not self._protected(access)
            ):
                # As an allow rule would: a line no rule could allow (`concerns`) still asks.
                return None
            case NoRule(concerns=concerns, opaque=True) if self._deciding_mode() == "auto" and (
                self._bash_denies()
            ):
                return f"{concerns[0]}, so the deny rules cannot be checked on it"
            case _:
                pass
        reason = self._reason_to_ask(access)
        if reason is not None and isinstance(verdict, NoRule) and verdict.concerns:
            return f"{reason}; {verdict.concerns[0]}"
        return reason

    def _allowable(self, access: Access, verdict: Verdict, hook: HookVerdict | None) -> bool:
        """Whether an allow rule could settle this access: no rule or hook asks or stops it,
        and it is not one that always asks (outside the sandbox, a protected path)."""
        return (
            isinstance(verdict, NoRule)
            and not verdict.concerns
            and (hook is None or hook.decision != "ask")
            and not isinstance(access, UnsandboxedAccess)
            and not (isinstance(access, CommandAccess) and access.sandbox_problem is not None)
            and not (isinstance(access, FileAccess) and self._protected(access))
        )

    def _bash_denies(self) -> bool:
        settings = self.settings
        return settings is not None and any(r.tool == "bash" for r in settings.rules_of("deny"))

    def _project_rules(self, access: Access, verdict: Verdict) -> tuple[str, ...]:
        """The rules "always allow for this project" would write; `()` not to offer it."""
        settings = self.settings
        if settings is None or settings.root != self.workspace.cwd or self._protected(access):
            return ()
        if not settings.trust.trusted and settings.trust.withheld:
            return ()  # the workspace's own rules do not apply: one more would not either
        return project_rules(access, verdict, settings)

    async def _remember(self, texts: Sequence[str]) -> None:
        from tether.errors import RememberFailed
        from tether.settings.remember import remember_rules

        settings = self.settings
        assert settings is not None
        try:
            rules = await asyncio.to_thread(remember_rules, settings.root, settings.home, texts)
        except RememberFailed as exc:
            log.warning("%s; allowed for this session only", exc)
            return
        try:
            # Read again: the file (maybe new) and the trust it keeps are part of the report.
            trusted = True if settings.trust.trusted else None
            self.settings = await asyncio.to_thread(settings.reloaded, trusted=trusted)
        except (OSError, ValueError) as exc:
            log.warning("the settings did not load again (%s); the new rules still apply", exc)
            for rule in rules:
                settings = settings.with_rule(rule)
            self.settings = settings

    def _inside(self, access: Access) -> bool:
        """A file access inside the workspace (the tool said so, and the resolved path is)."""
        return (
            isinstance(access, FileAccess)
            and access.inside
            and self.workspace.contains(access.path)
        )

    def _deciding_mode(self) -> PolicyMode:
        """The mode that decides: ask in place of auto where Claude Code's
        `disableBypassPermissionsMode` forbids auto (however the session got into it)."""
        settings = self.settings
        if self.mode == "auto" and settings is not None and settings.bypass_disabled is not None:
            return DEFAULT_MODE
        return self.mode

    def _reason_to_ask(self, access: Access) -> str | None:
        """Why this access needs a person in the current mode, or `None` when it passes."""
        reason = mode_reason(
            access,
            self._deciding_mode(),
            inside=self._inside(access),
            protected=self._protected_why(access),
        )
        settings = self.settings
        if reason is not None and self.mode == "auto" and settings is not None:
            disabled = settings.bypass_disabled
            if disabled is not None:
                return (
                    f"{reason} (auto mode is disabled by disableBypassPermissionsMode in "
                    f"{disabled.source})"
                )
        return reason

    def _hint(self, access: Access) -> str:
        """How to run so that this access would not need asking."""
        return hint(access, inside=self._inside(access), protected=self._protected(access))

    def _protected_why(self, access: Access) -> str | None:
        """Why `access` writes what later runs with the user's rights (an edit of such a
        path, a command's redirection into one): asked whatever the mode or rules."""
        return self._protection.of(access, self.workspace, self.settings)

    def _protected(self, access: Access) -> bool:
        return self._protected_why(access) is not None
