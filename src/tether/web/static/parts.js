// The page's parts (header, session list, plan, permissions report, sign-in, composer,
// transcript, rewind), each given its elements from index.html and what it calls back; and
// which part shows which ACP `session/update`.

import { connectTasks } from "./cards/index.js";
import { Composer } from "./composer.js";
import { Header } from "./header.js";
import { PermissionsPanel } from "./permissions.js";
import { PlanPanel, todoEntries } from "./plan.js";
import { Rewind } from "./rewind.js";
import { SignInPanel } from "./signin.js";
import { Sidebar } from "./sidebar.js";
import { Transcript } from "./transcript.js";

const $ = (id) => document.getElementById(id);

/**
 * The parts, wired to `page`: `send(message)` to the server, and the page's own steps
 * (`choose`, `openSession`, `deleteSession`, `submit`, `cancel`, `takeOver`, `retry`,
 * `sendPrompt`, `busy`, `announce`, `sessionId`, `canFork`, `cannotRewind`).
 */
export function buildParts(page) {
  // Task cards open their agents' transcripts: read-only, so no answer and no retry.
  connectTasks(page.send, (box) => new Transcript(box, { onAnswer: () => {}, onRetry: null, announcer: null }));
  const header = new Header(
    { title: $("session-title"), sessionId: $("session-id"), budget: $("budget"), settings: $("settings"), more: $("more") },
    { onChoose: page.choose },
  );
  const sidebar = new Sidebar(
    { sessions: $("sessions"), search: $("session-search"), menu: $("menu"), backdrop: $("backdrop"), firstFocus: $("new-session") },
    {
      onOpen: (session) => page.openSession(session.sessionId, session.cwd),
      onRename: (session, title) => page.send({ type: "renameSession", sessionId: session.sessionId, title }),
      onDelete: page.deleteSession,
    },
  );
  const plan = new PlanPanel($("plan"));
  const permissions = new PermissionsPanel({
    request: (sessionId) => page.send({ type: "listPermissions", sessionId }),
    sessionId: page.sessionId,
  });
  $("more").before(permissions.button);
  const signIn = new SignInPanel({ send: page.send, busy: page.busy, announce: page.announce });
  $("agent").after(signIn.button);
  const composer = new Composer(
    {
      form: $("composer"), prompt: $("prompt"), send: $("send"), cancel: $("cancel"), working: $("working"),
      commandMenu: $("command-menu"), readOnly: $("read-only"), readOnlyText: $("read-only-text"), takeOver: $("take-over"),
    },
    { onSubmit: page.submit, onCancel: page.cancel, onTakeOver: page.takeOver },
  );
  const transcript = new Transcript($("transcript"), {
    onPrompt: (node, number) => rewind.prompt(node, number),
    onNotice: (notice) => rewind.notice(notice),
    onAnswer: (requestId, optionId) => {
      page.send({ type: "answer", requestId, optionId });
      composer.focus(); // the question is answered: back to where the user types
    },
    onRetry: page.retry,
    announcer: $("announcer"),
  });
  const rewind = new Rewind({
    send: page.send,
    sendPrompt: page.sendPrompt,
    sessionId: page.sessionId,
    canFork: page.canFork,
    cannotRewind: page.cannotRewind,
  });
  return { header, sidebar, plan, permissions, signIn, composer, transcript, rewind };
}

/** The agent is ready (`ready`, again after a restart): the parts show it and what it can do. */
export function showAgent({ signIn, composer, sidebar, rewind }, ready) {
  signIn.setAgent(ready);
  $("conn").title = `connected to ${ready.agentName}`;
  $("agent").textContent = ready.agentVersion ? `${ready.agentName} ${ready.agentVersion}` : ready.agentName;
  $("agent").title = ready.cwd;
  composer.setAgent(ready.agentName);
  sidebar.setCapabilities(ready);
  rewind.agentReady();
}

/**
 * Which controls work now: `ready` (the agent's `ready`, null while disconnected), the
 * `sessionId` shown, `readOnly` (it is followed), `opening` (a session is coming), `running`.
 */
export function enableParts({ signIn, composer, header, permissions }, { ready, sessionId, readOnly, opening, running }) {
  const live = Boolean(ready);
  $("new-session").disabled = !live || opening;
  $("refresh").disabled = !live || !ready?.canList;
  signIn.button.disabled = !live;
  composer.update({ live, opening, running, readOnly });
  header.setMenusDisabled(!sessionId || running || Boolean(readOnly) || !live);
  // Only an agent that says it has the report gets the button ("Method not found" otherwise).
  permissions.button.hidden = !ready?.canReportPermissions;
  permissions.enable(live && Boolean(sessionId) && !readOnly);
}

/** Show one ACP `session/update` of the session shown in the part it belongs to. */
export function showUpdate({ plan, composer, header, transcript }, update) {
  switch (update.sessionUpdate) {
    case "plan":
      plan.show(update.entries);
      return;
    case "available_commands_update":
      composer.commands.set(update.availableCommands);
      return;
    case "usage_update":
      header.budget.show(update);
      return;
    case "session_info_update":
      if (update.title) header.agentTitle(update.title);
      transcript.apply(update);
      return;
    case "tool_call":
    case "tool_call_update": {
      // A todo tool's checklist is the plan, whether or not the agent also sends `plan`.
      const todos = todoEntries(update.rawInput);
      if (todos) plan.show(todos);
      transcript.apply(update);
      return;
    }
    default:
      transcript.apply(update);
  }
}
