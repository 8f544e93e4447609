// tether web: the page. It wires the parts (header, session list, transcript, plan, composer)
// to one connection to the server, which speaks ACP to the agent.
// Protocol (JSON, tagged by `type`): see src/tether/web/protocol/.

import { childUpdates, connectTasks, resetTasks } from "./cards/index.js";
import { Composer } from "./composer.js";
import { Connection } from "./connection.js";
import { Header } from "./header.js";
import { PermissionsPanel } from "./permissions.js";
import { PlanPanel, todoEntries } from "./plan.js";
import { Rewind } from "./rewind.js";
import { SignInPanel } from "./signin.js";
import { Sidebar } from "./sidebar.js";
import { Transcript } from "./transcript.js";

const $ = (id) => document.getElementById(id);

const state = {
  ready: null, // the server's `ready` message
  sessionId: null, // the session shown, open here or read-only
  opening: null, // a session being created or loaded
  creating: false, // a new session was asked for and the server has not said which yet
  running: new Set(), // sessions with a prompt in flight (one may run while another is shown)
  queued: null, // prompt text waiting for a new session to open
  readOnly: null, // {sessionId, free}: the shown session is live elsewhere, followed from its log
  parked: new Map(), // sessionId -> permission requests asked while another session was shown
  unknownTried: null, // an unknown `/word` prompt said so once; sent as text if submitted again
  deleting: null, // the shown session, asked to be deleted: once it leaves the list, so does the page
  quietOpen: null, // the session opened again in a restarted agent (not announced)
};

const connection = new Connection({ onMessage: receive, onOpen: opened, onClose: closed });
// Task cards open their agents' transcripts: read-only, so no answer and no retry.
connectTasks(
  (message) => connection.send(message),
  (box) => new Transcript(box, { onAnswer: () => {}, onRetry: null, announcer: null }),
);
const header = new Header(
  { title: $("session-title"), sessionId: $("session-id"), budget: $("budget"), settings: $("settings"), more: $("more") },
  { onChoose: choose },
);
const sidebar = new Sidebar(
  { sessions: $("sessions"), search: $("session-search"), menu: $("menu"), backdrop: $("backdrop"), firstFocus: $("new-session") },
  {
    onOpen: (session) => openSession(session.sessionId, session.cwd),
    onRename: (session, title) => connection.send({ type: "renameSession", sessionId: session.sessionId, title }),
    onDelete: (session) => {
      if (session.sessionId === state.sessionId) state.deleting = session.sessionId;
      connection.send({ type: "deleteSession", sessionId: session.sessionId });
    },
  },
);
const plan = new PlanPanel($("plan"));
const permissions = new PermissionsPanel({
  request: (sessionId) => connection.send({ type: "listPermissions", sessionId }),
  sessionId: () => state.sessionId,
});
$("more").before(permissions.button);
const signIn = new SignInPanel({
  send: (message) => connection.send(message),
  busy: () => state.running.size > 0,
  announce: (text) => announce(text),
});
$("agent").after(signIn.button);
const composer = new Composer(
  {
    form: $("composer"), prompt: $("prompt"), send: $("send"), cancel: $("cancel"), working: $("working"),
    commandMenu: $("command-menu"), readOnly: $("read-only"), readOnlyText: $("read-only-text"), takeOver: $("take-over"),
  },
  { onSubmit: submit, onCancel: cancel, onTakeOver: () => state.readOnly && openSession(state.readOnly.sessionId) },
);
const scroller = $("scroller");
const loading = $("loading");
const emptyState = $("empty");
const announcer = $("announcer");
const transcript = new Transcript($("transcript"), {
  onPrompt: (node, number) => rewind.prompt(node, number),
  onNotice: (notice) => rewind.notice(notice),
  onAnswer: (requestId, optionId) => {
    connection.send({ type: "answer", requestId, optionId });
    composer.focus(); // the question is answered: back to where the user types
  },
  onRetry: (text) => {
    if (!running() && !state.opening && !state.readOnly && state.ready) sendPrompt(text);
  },
  announcer,
});
const rewind = new Rewind({
  send: (message) => connection.send(message),
  sendPrompt: (text) => sendPrompt(text),
  sessionId: () => state.sessionId,
  canFork: () => Boolean(state.ready && state.ready.canFork),
  cannotRewind: () => {
    if (state.readOnly) return "This session is open in another tab or process: take it over to rewind it here.";
    if (running()) return "Wait for the running prompt to end.";
    if (state.opening) return "Wait for the session to open.";
    return null;
  },
});

// Keep the view pinned to the bottom while new content arrives, unless the user scrolled up.
let stick = true;
scroller.addEventListener("scroll", () => {
  stick = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 48;
});
function follow() {
  if (stick) scroller.scrollTop = scroller.scrollHeight;
}

function running() {
  return Boolean(state.sessionId) && state.running.has(state.sessionId);
}

// --- connection ---------------------------------------------------------------------------

let reopen = null; // the session to open again after a reconnect

function setConn(name, text) {
  $("conn").dataset.state = name;
  $("conn-text").textContent = text;
}

function opened() {
  setConn("starting", "Starting the agent…");
  // Asked at once, while the agent starts: a session held elsewhere shows read-only right away.
  const wanted = reopen || hashSession();
  reopen = null;
  if (wanted && !state.sessionId && !state.opening) {
    state.opening = wanted;
    showOpening(wanted, true);
    connection.send({ type: "loadSession", sessionId: wanted, reclaim: ownedBefore() === wanted });
  }
}

function closed(delay) {
  const wasReady = Boolean(state.ready);
  state.ready = null;
  if (state.sessionId || state.opening) reopen = state.sessionId || state.opening;
  state.opening = null;
  state.creating = false;
  state.sessionId = null;
  state.running.clear();
  state.parked.clear(); // the agent that asked is gone with the connection
  loading.hidden = true;
  update();
  setConn("closed", `Disconnected · retrying in ${Math.round(delay / 1000) || 1}s`);
  if (wasReady) {
    transcript.notice("Disconnected from the server; reconnecting…", "error");
    follow();
  }
}

function receive(message) {
  handle(message);
  follow();
}

function current(message) {
  return message.sessionId === state.sessionId || message.sessionId === state.opening;
}

function handle(message) {
  switch (message.type) {
    case "ready": {
      // A second `ready` on one connection: the agent restarted (to take a sign-in's keys),
      // and the session shown is opened again in it.
      const restarted = Boolean(state.ready);
      state.ready = message;
      signIn.setAgent(message);
      connection.settled();
      setConn("ready", "Connected");
      $("conn").title = `connected to ${message.agentName}`;
      $("agent").textContent = message.agentVersion ? `${message.agentName} ${message.agentVersion}` : message.agentName;
      $("agent").title = message.cwd;
      composer.setAgent(message.agentName);
      sidebar.setCapabilities(message);
      rewind.agentReady();
      update();
      if (message.canList) connection.send({ type: "listSessions" });
      if (restarted && state.sessionId && !state.readOnly) {
        const reopened = state.sessionId;
        state.quietOpen = reopened; // the same session again: its opening is no news
        state.sessionId = null;
        state.running.clear();
        openSession(reopened);
      } else if (message.canLoad && !state.opening && !state.sessionId && hashSession()) openSession(hashSession());
      return;
    }
    case "signIn":
      signIn.result(message);
      return;
    case "sessions": {
      sidebar.setSessions(message.sessions);
      const shown = sidebar.find(state.sessionId || state.opening);
      if (shown) header.listedTitle(shown.title);
      if (state.deleting && state.deleting === state.sessionId && !shown) showNothing();
      state.deleting = null;
      return;
    }
    case "opening":
      state.creating = false;
      state.opening = message.sessionId;
      state.sessionId = null;
      state.readOnly = null;
      showOpening(message.sessionId, message.replay);
      update();
      return;
    case "opened":
      loading.hidden = true;
      replayed(message.sessionId);
      state.opening = null;
      state.sessionId = message.sessionId;
      state.readOnly = null;
      setHash(message.sessionId);
      setOwned(message.sessionId);
      header.showMenus(message.menus);
      composer.setHistory(transcript.userTexts);
      sidebar.setCurrent(message.sessionId);
      const waiting = state.parked.get(message.sessionId) || [];
      for (const request of waiting) transcript.permission(request);
      update();
      if (state.ready && state.ready.canList) connection.send({ type: "listSessions" });
      if (state.queued !== null) {
        const text = state.queued;
        state.queued = null;
        sendPrompt(text);
      } else if (!waiting.length) {
        composer.focus(); // else the question waiting has it
      }
      return;
    case "menus":
      if (current(message)) header.showMenus(message.menus);
      return;
    case "readOnly":
      if (!current(message)) return;
      loading.hidden = true;
      replayed(message.sessionId);
      state.opening = null;
      state.sessionId = message.sessionId;
      state.readOnly = { sessionId: message.sessionId, free: message.free };
      setHash(message.sessionId);
      setOwned(null);
      header.showMenus([]);
      composer.setHistory(transcript.userTexts);
      sidebar.setCurrent(message.sessionId);
      update();
      return;
    case "update":
      if (current(message)) onUpdate(message.update);
      return;
    case "markdown":
      if (current(message)) transcript.markdown(message.html);
      return;
    case "childUpdates":
      childUpdates(message);
      return;
    case "permission":
      if (message.sessionId === state.sessionId) transcript.permission(message);
      else park(message);
      return;
    case "permissionClosed":
      unpark(message.requestId);
      transcript.permissionClosed(message.requestId, message.optionId);
      return;
    case "permissionsReport":
      permissions.show(message);
      return;
    case "promptEnd":
      state.running.delete(message.sessionId);
      rewind.promptEnded(message.sessionId);
      if (message.sessionId === state.sessionId) {
        // A tether agent already said how the turn ended (turnEnd); others are told here.
        if (message.stopReason !== "end_turn" && !transcript.ended) transcript.stopNotice(message.stopReason, message.error);
        // A prompt that failed is not lost: it is back in the box, to fix or send again.
        if (message.stopReason === "error") composer.restore(transcript.lastUserText);
        if (message.signIn) signIn.open(`${state.ready ? state.ready.agentName : "The agent"} asks you to sign in first; your prompt is kept in the box.`);
        transcript.ended = false;
      }
      update();
      if (state.ready && state.ready.canList) connection.send({ type: "listSessions" });
      return;
    case "error":
      transcript.notice(message.message, "error");
      if (state.opening || state.creating) {
        state.opening = null;
        state.creating = false;
        transcript.replaying = false;
        loading.hidden = true;
        update();
      }
      return;
    default:
      return;
  }
}

// A permission asked by a prompt running in a session not shown: kept, and shown with it.
function park(request, asked = true) {
  const list = state.parked.get(request.sessionId) || [];
  if (!list.some((r) => r.requestId === request.requestId)) list.push(request);
  state.parked.set(request.sessionId, list);
  if (asked) announce(`A prompt in another session asks for permission: ${request.toolCall.title || "a tool call"}`);
}

function unpark(requestId) {
  for (const [sessionId, list] of state.parked) {
    const left = list.filter((r) => r.requestId !== requestId);
    if (left.length) state.parked.set(sessionId, left);
    else state.parked.delete(sessionId);
  }
}

function announce(text) {
  announcer.textContent = text;
}

/** A stored session's history is shown: said once, by its title, not message by message. */
function replayed(sessionId) {
  if (!transcript.replaying) return;
  transcript.replaying = false;
  if (state.quietOpen === sessionId) {
    state.quietOpen = null;
    return;
  }
  const known = sidebar.find(sessionId);
  announce(`Opened ${known && known.title ? `“${known.title}”` : "the session"}.`);
}

function onUpdate(update) {
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

// --- sessions -----------------------------------------------------------------------------

// The session this tab had open (not read-only), kept across reloads of this tab only.
const OWNED = "tether-owned-session";
function ownedBefore() {
  try {
    return sessionStorage.getItem(OWNED);
  } catch {
    return null;
  }
}
function setOwned(sessionId) {
  try {
    if (sessionId) sessionStorage.setItem(OWNED, sessionId);
    else sessionStorage.removeItem(OWNED);
  } catch {
    // storage refused (a private window's quota): a reload then asks to take over
  }
}

function hashSession() {
  return location.hash.startsWith("#session=") ? decodeURIComponent(location.hash.slice("#session=".length)) : null;
}

function setHash(sessionId) {
  history.replaceState(null, "", `${location.pathname}${location.search}#session=${encodeURIComponent(sessionId)}`);
}

/** A session is about to be shown: an empty transcript, and a loading line for a stored one. */
function showOpening(sessionId, replay) {
  // A question still open in the session shown waits for it (a replay does not ask it again).
  for (const request of transcript.openRequests()) park(request, false);
  resetTasks();
  transcript.reset();
  rewind.reset();
  plan.clear();
  composer.commands.set([]);
  header.budget.clear();
  header.showMenus([]);
  emptyState.remove();
  loading.hidden = !replay;
  transcript.replaying = replay;
  const known = sidebar.find(sessionId);
  header.session(sessionId, known && known.title ? known.title : replay ? "Loading session…" : "New session");
  sidebar.setCurrent(sessionId);
}

/** No session shown (the one shown was deleted): the page as it first opens. */
function showNothing() {
  resetTasks();
  transcript.reset();
  rewind.reset();
  plan.clear();
  composer.commands.set([]);
  header.budget.clear();
  header.showMenus([]);
  header.session(null, "No session open");
  $("transcript").append(emptyState);
  state.sessionId = null;
  state.readOnly = null;
  setOwned(null);
  history.replaceState(null, "", `${location.pathname}${location.search}`);
  sidebar.setCurrent(null);
  update();
  announce("The session was deleted.");
}

function openSession(sessionId, cwd) {
  sidebar.setDrawer(false);
  if (state.opening || !state.ready || !state.ready.canLoad) return;
  const known = sidebar.find(sessionId);
  connection.send({ type: "loadSession", sessionId, cwd: cwd || (known ? known.cwd : undefined) });
}

function choose(menu, value) {
  if (!state.sessionId || state.readOnly) return;
  if (menu.source === "modes") connection.send({ type: "setMode", sessionId: state.sessionId, modeId: value });
  else connection.send({ type: "setConfigOption", sessionId: state.sessionId, configId: menu.id, value });
}

$("new-session").addEventListener("click", () => {
  sidebar.setDrawer(false);
  if (state.ready && !state.opening && !state.creating) newSession();
});

/** Ask for a new session; until the server names it, nothing asks for another or prompts. */
function newSession() {
  state.creating = true;
  connection.send({ type: "newSession" });
  update();
}
$("refresh").addEventListener("click", () => connection.send({ type: "listSessions" }));

// --- composer -----------------------------------------------------------------------------

function update() {
  const live = Boolean(state.ready);
  const opening = Boolean(state.opening || state.creating);
  $("new-session").disabled = !live || opening;
  $("refresh").disabled = !live || !state.ready?.canList;
  signIn.button.disabled = !live;
  composer.update({ live, opening, running: running(), readOnly: state.readOnly });
  header.setMenusDisabled(!state.sessionId || running() || Boolean(state.readOnly) || !live);
  // Only an agent that says it has the report gets the button ("Method not found" otherwise).
  permissions.button.hidden = !state.ready?.canReportPermissions;
  permissions.enable(live && Boolean(state.sessionId) && !state.readOnly);
}

/** The composer's text: the page's own commands, an unknown one said so, else a prompt. */
function submit(text) {
  if (running() || state.opening || state.creating || state.readOnly || !state.ready) return false;
  const named = composer.commands.named(text);
  if (named && named.name === "help" && !composer.commands.agentCommands.some((c) => c.name === "help")) {
    emptyState.remove();
    transcript.help(composer.commands.commands);
    stick = true;
    follow();
    return true;
  }
  const unknown = composer.commands.unknown(text);
  if (unknown && state.unknownTried !== text) {
    state.unknownTried = text;
    transcript.notice(`/${unknown} is not a command here. Type / to see the commands, or press Enter again to send it as text.`, "info", null, "unknown-command");
    follow();
    return false;
  }
  state.unknownTried = null;
  sendPrompt(text);
  return true;
}

function sendPrompt(text) {
  if (!state.sessionId) {
    state.queued = text;
    if (!state.creating) newSession();
    return;
  }
  emptyState.remove();
  transcript.userPrompt(text);
  stick = true;
  follow();
  state.running.add(state.sessionId);
  update();
  connection.send({ type: "prompt", sessionId: state.sessionId, text });
}

function cancel() {
  if (running()) connection.send({ type: "cancel", sessionId: state.sessionId });
}

// --- keyboard, address ----------------------------------------------------------------------

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || event.defaultPrevented) return;
  if (sidebar.drawerOpen) {
    sidebar.setDrawer(false);
    $("menu").focus();
  } else if (header.panelOpen) {
    header.setPanel(false);
    $("more").focus();
  } else {
    cancel();
  }
});
window.addEventListener("hashchange", () => {
  const wanted = hashSession();
  if (wanted && wanted !== state.sessionId && wanted !== state.opening) openSession(wanted);
});

update();
setConn("connecting", "Connecting…");
connection.connect();
