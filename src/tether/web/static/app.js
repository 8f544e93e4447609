// tether web: the page. It wires the parts (header, session list, transcript, plan, composer)
// to one connection to the server, which speaks ACP to the agent.
// Protocol (JSON, tagged by `type`): see src/tether/web/protocol/.

import { hashSession, ownedBefore, setHash, setOwned } from "./address.js";
import { childUpdates, resetTasks } from "./cards/index.js";
import { Connection } from "./connection.js";
import { ParkedQuestions } from "./parked.js";
import { buildParts, enableParts, showAgent, showUpdate } from "./parts.js";

const $ = (id) => document.getElementById(id);

const state = {
  ready: null, // the server's `ready` message
  sessionId: null, // the session shown, open here or read-only
  opening: null, // a session being created or loaded
  creating: false, // a new session was asked for and the server has not said which yet
  running: new Set(), // sessions with a prompt in flight (one may run while another is shown)
  queued: null, // prompt text waiting for a new session to open
  readOnly: null, // {sessionId, free}: the shown session is live elsewhere, followed from its log
  parked: new ParkedQuestions((text) => announce(text)), // asked while another session was shown
  unknownTried: null, // an unknown `/word` prompt said so once; sent as text if submitted again
  deleting: null, // the shown session, asked to be deleted: once it leaves the list, so does the page
  quietOpen: null, // the session opened again in a restarted agent (not announced)
};

const connection = new Connection({ onMessage: receive, onOpen: opened, onClose: closed });
const parts = buildParts({
  send: (message) => connection.send(message),
  choose,
  openSession,
  deleteSession: (session) => {
    if (session.sessionId === state.sessionId) state.deleting = session.sessionId;
    connection.send({ type: "deleteSession", sessionId: session.sessionId });
  },
  submit,
  cancel,
  takeOver: () => state.readOnly && openSession(state.readOnly.sessionId),
  retry: (text) => {
    if (!running() && !state.opening && !state.readOnly && state.ready) sendPrompt(text);
  },
  sendPrompt: (text) => sendPrompt(text),
  busy: () => state.running.size > 0,
  announce: (text) => announce(text),
  sessionId: () => state.sessionId,
  canFork: () => Boolean(state.ready && state.ready.canFork),
  cannotRewind: () => {
    if (state.readOnly) return "This session is open in another tab or process: take it over to rewind it here.";
    if (running()) return "Wait for the running prompt to end.";
    if (state.opening) return "Wait for the session to open.";
    return null;
  },
});
const { header, sidebar, plan, permissions, signIn, composer, transcript, rewind } = parts;
const scroller = $("scroller");
const loading = $("loading");
const emptyState = $("empty");
const announcer = $("announcer");

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
      connection.settled();
      setConn("ready", "Connected");
      showAgent(parts, message);
      update();
      if (message.canList) connection.send({ type: "listSessions" });
      if (restarted && state.sessionId && !state.readOnly) {
        const reopened = state.sessionId;
        state.quietOpen = reopened; // the same session again: its opening is no news
        state.sessionId = null;
        state.running.clear();
        openSession(reopened);
        // Opening from the request on, as after a reconnect: until the server's `opening`,
        // a prompt would find no session shown and start a new one.
        if (message.canLoad) state.opening = reopened;
        update();
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
      shown(message.sessionId, null, message.menus);
      const waiting = state.parked.waiting(message.sessionId);
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
      shown(message.sessionId, { sessionId: message.sessionId, free: message.free }, []);
      update();
      return;
    case "update":
      if (current(message)) showUpdate(parts, message.update);
      return;
    case "markdown":
      if (current(message)) transcript.markdown(message.html);
      return;
    case "childUpdates":
      childUpdates(message);
      return;
    case "permission":
      if (message.sessionId === state.sessionId) transcript.permission(message);
      else state.parked.park(message);
      return;
    case "permissionClosed":
      state.parked.unpark(message.requestId);
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

function announce(text) {
  announcer.textContent = text;
}

/** The session opening is shown now: here (`readOnly` null) or followed from its log. */
function shown(sessionId, readOnly, menus) {
  loading.hidden = true;
  replayed(sessionId);
  state.opening = null;
  state.sessionId = sessionId;
  state.readOnly = readOnly;
  setHash(sessionId);
  setOwned(readOnly ? null : sessionId);
  header.showMenus(menus);
  composer.setHistory(transcript.userTexts);
  sidebar.setCurrent(sessionId);
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

// --- sessions -----------------------------------------------------------------------------

/** A session is about to be shown: an empty transcript, and a loading line for a stored one. */
function showOpening(sessionId, replay) {
  // A question still open in the session shown waits for it (a replay does not ask it again).
  for (const request of transcript.openRequests()) state.parked.park(request, false);
  clearView();
  emptyState.remove();
  loading.hidden = !replay;
  transcript.replaying = replay;
  const known = sidebar.find(sessionId);
  header.session(sessionId, known && known.title ? known.title : replay ? "Loading session…" : "New session");
  sidebar.setCurrent(sessionId);
}

/** What a session shows, emptied: its transcript, tasks, plan, commands, budget and menus. */
function clearView() {
  resetTasks();
  transcript.reset();
  rewind.reset();
  plan.clear();
  composer.commands.set([]);
  header.budget.clear();
  header.showMenus([]);
}

/** No session shown (the one shown was deleted): the page as it first opens. */
function showNothing() {
  clearView();
  header.session(null, "No session open");
  $("transcript").append(emptyState);
  state.sessionId = null;
  state.readOnly = null;
  setOwned(null);
  setHash(null);
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
  const { ready, sessionId, readOnly } = state;
  enableParts(parts, { ready, sessionId, readOnly, opening: Boolean(state.opening || state.creating), running: running() });
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
