// tether web: the page. One WebSocket to the server, which speaks ACP to the agent.
// Protocol (JSON, tagged by `type`): see src/tether/web/protocol.py.

import { childUpdates, connectTasks, resetTasks } from "./cards/index.js";
import { CommandMenu } from "./commands.js";
import { clear, el } from "./dom.js";
import { PlanPanel } from "./plan.js";
import { Transcript } from "./transcript.js";

const $ = (id) => document.getElementById(id);
const ui = {
  conn: $("conn"), connText: $("conn-text"), agent: $("agent"), menu: $("menu"), backdrop: $("backdrop"),
  announcer: $("announcer"), banner: $("banner"), newSession: $("new-session"), refresh: $("refresh"),
  sessions: $("sessions"), title: $("session-title"), sessionId: $("session-id"),
  budget: $("budget"), modeBox: $("mode-box"), mode: $("mode"), sandboxBox: $("sandbox-box"), sandbox: $("sandbox"), scroller: $("scroller"), transcriptRoot: $("transcript"),
  composer: $("composer"), prompt: $("prompt"), send: $("send"), cancel: $("cancel"), working: $("working"),
  plan: $("plan"), planEntries: $("plan-entries"), commandMenu: $("command-menu"),
};
const plan = new PlanPanel(ui.plan, ui.planEntries);
const commands = new CommandMenu(ui.prompt, ui.commandMenu);

const state = {
  ready: null, // the server's `ready` message
  sessionId: null, // the open session
  opening: null, // a session being created or loaded
  running: false, // a prompt is in flight
  queued: null, // prompt text waiting for a new session to open
  readOnly: null, // {sessionId, free}: the open session is live elsewhere, shown from its log
  sessions: [],
};

// Keep the view pinned to the bottom while new content arrives, unless the user scrolled up.
let stick = true;
ui.scroller.addEventListener("scroll", () => {
  const s = ui.scroller;
  stick = s.scrollHeight - s.scrollTop - s.clientHeight < 48;
});
function follow() {
  if (stick) ui.scroller.scrollTop = ui.scroller.scrollHeight;
}

const transcript = new Transcript(ui.transcriptRoot, {
  onAnswer: (requestId, optionId) => send({ type: "answer", requestId, optionId }),
  onRetry: (text) => {
    if (!state.running && !state.opening && !state.readOnly && state.ready) submitPrompt(text);
  },
  announcer: ui.announcer,
});
const emptyState = $("empty");

// --- socket -----------------------------------------------------------------------------
// The server keeps its token across restarts, so a lost connection is retried with backoff
// and the open session is opened again once the agent is ready.

const token = new URLSearchParams(location.search).get("token") || "";
const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?token=${encodeURIComponent(token)}`;
const RETRY_MS = [500, 1000, 2000, 4000, 8000, 10000];
let socket = null;
let retries = 0;
let reopen = null; // the session to open again after a reconnect

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}
connectTasks(send); // task cards open their agents' transcripts through the socket

function setConn(stateName, text) {
  ui.conn.dataset.state = stateName;
  ui.connText.textContent = text;
}

function connect() {
  setConn(retries ? "reconnecting" : "connecting", retries ? "Reconnecting…" : "Connecting…");
  socket = new WebSocket(wsUrl);
  socket.addEventListener("open", () => setConn("starting", "Starting the agent…"));
  socket.addEventListener("close", () => {
    const wasReady = Boolean(state.ready);
    state.ready = null;
    if (state.sessionId || state.opening) reopen = state.sessionId || state.opening;
    state.opening = null;
    setRunning(false);
    updateControls();
    const delay = RETRY_MS[Math.min(retries, RETRY_MS.length - 1)];
    retries += 1;
    setConn("closed", `Disconnected · retrying in ${Math.round(delay / 1000) || 1}s`);
    if (wasReady) {
      transcript.notice("Disconnected from the server; reconnecting…", "error");
      follow();
    }
    setTimeout(connect, delay);
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    handle(message);
    follow();
  });
}

function handle(message) {
  switch (message.type) {
    case "ready":
      state.ready = message;
      retries = 0;
      setConn("ready", "Connected");
      ui.conn.title = `connected to ${message.agentName}`;
      ui.agent.textContent = message.agentVersion ? `${message.agentName} ${message.agentVersion}` : message.agentName;
      ui.agent.title = message.cwd;
      updateControls();
      if (message.canList) send({ type: "listSessions" });
      else renderSessions();
      if (message.canLoad && (reopen || hashSession())) openSession(reopen || hashSession());
      reopen = null;
      return;
    case "sessions":
      state.sessions = message.sessions;
      renderSessions();
      return;
    case "opening":
      state.opening = message.sessionId;
      state.sessionId = null;
      setReadOnly(null);
      resetTasks();
      transcript.reset();
      plan.clear();
      commands.set([]);
      emptyState.remove();
      // The budget is the opened session's: its own updates (replayed on load) set it again.
      ui.budget.hidden = true;
      ui.budget.textContent = "";
      showSession(message.sessionId);
      updateControls();
      return;
    case "opened":
      state.opening = null;
      state.sessionId = message.sessionId;
      history.replaceState(null, "", `${location.pathname}${location.search}#session=${encodeURIComponent(message.sessionId)}`);
      showModes(message.modes);
      showSandbox(message.sandbox);
      showSession(message.sessionId);
      updateControls();
      if (state.ready && state.ready.canList) send({ type: "listSessions" });
      if (state.queued !== null) {
        const text = state.queued;
        state.queued = null;
        submitPrompt(text);
      } else {
        ui.prompt.focus();
      }
      return;
    case "update":
      if (message.sessionId !== state.sessionId && message.sessionId !== state.opening) return;
      onUpdate(message.update);
      return;
    case "readOnly":
      if (message.sessionId !== state.opening && message.sessionId !== state.sessionId) return;
      state.opening = null;
      state.sessionId = message.sessionId;
      history.replaceState(null, "", `${location.pathname}${location.search}#session=${encodeURIComponent(message.sessionId)}`);
      ui.modeBox.hidden = true;
      setReadOnly(message);
      showSession(message.sessionId);
      updateControls();
      return;
    case "markdown":
      if (message.sessionId !== state.sessionId && message.sessionId !== state.opening) return;
      transcript.markdown(message.html);
      return;
    case "childUpdates":
      childUpdates(message);
      return;
    case "permission":
      transcript.permission(message);
      return;
    case "permissionClosed":
      transcript.permissionClosed(message.requestId, message.optionId);
      return;
    case "promptEnd":
      if (message.sessionId !== state.sessionId) return;
      setRunning(false);
      // A tether agent already said how the turn ended (turnEnd); others are told here.
      if (message.stopReason !== "end_turn" && !transcript.ended) transcript.stopNotice(message.stopReason, message.error);
      transcript.ended = false;
      if (state.ready && state.ready.canList) send({ type: "listSessions" });
      return;
    case "error":
      transcript.notice(message.message, "error");
      if (state.opening) {
        state.opening = null;
        updateControls();
      }
      return;
    default:
      return;
  }
}

/** A token count as the terminal shows it: 950, 9.8k, 23.1k, 104k, 1.2M. */
function shortTokens(count) {
  const trim = (value) => value.toFixed(1).replace(/\.0$/, "");
  if (count < 1000) return String(count);
  if (count < 100000) return `${trim(count / 1000)}k`;
  if (count < 1000000) return `${Math.floor(count / 1000)}k`;
  return `${trim(count / 1000000)}M`;
}

// A session live in another tab or process: its log is followed, and it can be taken over
// once the other side lets go.
function setReadOnly(readOnly) {
  state.readOnly = readOnly;
  clear(ui.banner);
  ui.banner.hidden = !readOnly;
  if (!readOnly) return;
  const text = readOnly.free
    ? "The other tab or process has closed this session. Take it over to continue it here."
    : "Read-only: this session is live in another tab or tether process. Its new events appear here as they happen.";
  ui.banner.append(el("span", { text }),
    el("button", {
      type: "button", class: "primary", id: "take-over", text: "Take over", disabled: !readOnly.free,
      onclick: () => openSession(readOnly.sessionId),
    }));
}

function hashSession() {
  return location.hash.startsWith("#session=") ? decodeURIComponent(location.hash.slice("#session=".length)) : null;
}

function onUpdate(update) {
  if (update.sessionUpdate === "current_mode_update") {
    ui.mode.value = update.currentModeId;
    return;
  }
  if (update.sessionUpdate === "plan") {
    plan.show(update.entries);
    return;
  }
  if (update.sessionUpdate === "available_commands_update") {
    commands.set(update.availableCommands);
    return;
  }
  if (update.sessionUpdate === "usage_update") {
    ui.budget.textContent = `${shortTokens(update.used)} / ${shortTokens(update.size)} tokens`;
    ui.budget.hidden = false;
    return;
  }
  if (update.sessionUpdate === "session_info_update" && update.title) {
    ui.title.textContent = update.title;
    return;
  }
  transcript.apply(update);
}

// --- sessions ---------------------------------------------------------------------------

function formatTime(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay
    ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleDateString([], { month: "short", day: "numeric" });
}

function renderSessions() {
  clear(ui.sessions);
  if (!state.ready || !state.ready.canList) {
    ui.sessions.append(el("li", { class: "sessions-empty", text: "This agent cannot list sessions." }));
    return;
  }
  if (!state.sessions.length) {
    ui.sessions.append(el("li", { class: "sessions-empty", text: "No sessions yet." }));
    return;
  }
  for (const session of state.sessions) {
    const current = session.sessionId === (state.sessionId || state.opening);
    ui.sessions.append(el("li", {},
      el("button", {
        type: "button",
        class: `session${current ? " current" : ""}`,
        dataset: { sessionId: session.sessionId },
        title: `${session.sessionId}\n${session.cwd}`,
        disabled: !state.ready.canLoad || state.running,
        onclick: () => openSession(session.sessionId, session.cwd),
      },
      el("span", { class: "session-name", text: session.title || "Untitled session" }),
      el("span", { class: "session-meta", text: [formatTime(session.updatedAt), session.sessionId.slice(0, 8)].filter(Boolean).join(" · ") }))));
  }
}

function openSession(sessionId, cwd) {
  closeDrawer();
  if (state.running || state.opening || !state.ready) return;
  const known = state.sessions.find((s) => s.sessionId === sessionId);
  send({ type: "loadSession", sessionId, cwd: cwd || (known ? known.cwd : undefined) });
}

function showSession(sessionId) {
  const known = state.sessions.find((s) => s.sessionId === sessionId);
  ui.title.textContent = known && known.title ? known.title : "New session";
  ui.sessionId.textContent = sessionId;
  renderSessions();
}

function showModes(modes) {
  showChoices(ui.modeBox, ui.mode, modes);
}

// A menu of the agent's choices ({currentModeId, availableModes}); hidden when there are none.
function showChoices(box, select, choices) {
  clear(select);
  if (!choices || !choices.availableModes.length) {
    box.hidden = true;
    return;
  }
  for (const choice of choices.availableModes) {
    select.append(el("option", { value: choice.id, text: choice.name, title: choice.description || "" }));
  }
  select.value = choices.currentModeId;
  box.hidden = false;
}

// The sandbox menu: the agent's `sandbox` config option (how commands are confined).
function showSandbox(sandbox) {
  showChoices(ui.sandboxBox, ui.sandbox, sandbox);
}

ui.sandbox.addEventListener("change", () => {
  if (state.sessionId) send({ type: "setSandbox", sessionId: state.sessionId, value: ui.sandbox.value });
});
ui.mode.addEventListener("change", () => {
  if (state.sessionId) send({ type: "setMode", sessionId: state.sessionId, modeId: ui.mode.value });
});
ui.newSession.addEventListener("click", () => {
  closeDrawer();
  if (!state.running && !state.opening) send({ type: "newSession" });
});
ui.refresh.addEventListener("click", () => send({ type: "listSessions" }));

// --- composer ---------------------------------------------------------------------------

function setRunning(running) {
  state.running = running;
  ui.working.hidden = !running;
  ui.cancel.hidden = !running;
  ui.send.hidden = running;
  updateControls();
  renderSessions();
}

function updateControls() {
  const live = Boolean(state.ready);
  ui.newSession.disabled = !live || state.running || Boolean(state.opening);
  ui.refresh.disabled = !live || !state.ready?.canList;
  const readOnly = Boolean(state.readOnly);
  ui.prompt.disabled = !live || Boolean(state.opening) || readOnly;
  ui.send.disabled = !live || state.running || Boolean(state.opening) || readOnly;
  ui.mode.disabled = !state.sessionId || state.running || readOnly;
  ui.sandbox.disabled = !state.sessionId || state.running || readOnly;
}

function submitPrompt(text) {
  if (!state.sessionId) {
    state.queued = text;
    send({ type: "newSession" });
    return;
  }
  emptyState.remove();
  transcript.chunk("user", { type: "text", text });
  transcript.lastMessage = null;
  transcript.ended = false;
  stick = true;
  follow();
  setRunning(true);
  send({ type: "prompt", sessionId: state.sessionId, text });
}

function autosize() {
  ui.prompt.style.height = "auto";
  ui.prompt.style.height = `${Math.min(ui.prompt.scrollHeight, 240)}px`;
}

ui.composer.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = ui.prompt.value;
  if (!text.trim() || state.running || state.opening || !state.ready) return;
  ui.prompt.value = "";
  autosize();
  submitPrompt(text);
});
ui.prompt.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    ui.composer.requestSubmit();
  }
});
ui.prompt.addEventListener("input", autosize);
ui.cancel.addEventListener("click", () => {
  if (state.sessionId && state.running) send({ type: "cancel", sessionId: state.sessionId });
});

// --- keyboard, address, drawer ------------------------------------------------------------

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  if (document.body.classList.contains("drawer-open")) {
    closeDrawer();
    ui.menu.focus();
  } else if (state.sessionId && state.running) {
    send({ type: "cancel", sessionId: state.sessionId });
  }
});
window.addEventListener("hashchange", () => {
  const wanted = hashSession();
  if (wanted && wanted !== state.sessionId && wanted !== state.opening && state.ready?.canLoad) openSession(wanted);
});

// Below 760px the sidebar is a drawer behind the menu button.
function closeDrawer() {
  document.body.classList.remove("drawer-open");
  ui.menu.setAttribute("aria-expanded", "false");
}
ui.menu.addEventListener("click", () => {
  const open = document.body.classList.toggle("drawer-open");
  ui.menu.setAttribute("aria-expanded", String(open));
  if (open) ui.newSession.focus();
});
ui.backdrop.addEventListener("click", closeDrawer);

updateControls();
connect();
