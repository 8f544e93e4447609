// The session list: the agent's stored sessions (search by title or id), each named by its
// title and the shortest id prefix that tells it apart; below 760px it is a drawer behind ☰.

import { clear, el } from "./dom.js";

/** Shortest prefix, at least `min` characters (8, as `tether sessions`), that no other id starts with (as the CLI shows). */
export function uniquePrefix(id, ids, min = 8) {
  for (let length = min; length < id.length; length++) {
    const prefix = id.slice(0, length);
    if (!ids.some((other) => other !== id && other.startsWith(prefix))) return prefix;
  }
  return id;
}

function formatTime(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay
    ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleDateString([], { month: "short", day: "numeric" });
}

export class Sidebar {
  /**
   * `ui` holds the list, the search box, the menu button and the backdrop; `onOpen(session)`
   * opens a listed session.
   */
  constructor(ui, { onOpen }) {
    this.ui = ui;
    this.onOpen = onOpen;
    this.sessions = [];
    this.current = null; // the session shown (open or opening)
    this.canList = null; // unknown until the agent is ready
    this.canLoad = false;
    this.filter = "";
    ui.search.addEventListener("input", () => {
      this.filter = ui.search.value.trim().toLowerCase();
      this.render();
    });
    ui.menu.addEventListener("click", () => this.setDrawer(!document.body.classList.contains("drawer-open")));
    ui.backdrop.addEventListener("click", () => this.setDrawer(false));
  }

  /** The listed session with this id, if any. */
  find(sessionId) {
    return this.sessions.find((s) => s.sessionId === sessionId) || null;
  }

  setSessions(sessions) {
    this.sessions = sessions || [];
    this.render();
  }

  setCapabilities({ canList, canLoad }) {
    this.canList = canList;
    this.canLoad = canLoad;
    this.ui.search.hidden = !canList;
    this.render();
  }

  setCurrent(sessionId) {
    this.current = sessionId;
    this.render();
  }

  render() {
    const list = this.ui.sessions;
    clear(list);
    if (this.canList === null) return;
    if (!this.canList) {
      list.append(el("li", { class: "sessions-empty", text: "This agent cannot list sessions." }));
      return;
    }
    if (!this.sessions.length) {
      list.append(el("li", { class: "sessions-empty", text: "No sessions yet." }));
      return;
    }
    const ids = this.sessions.map((s) => s.sessionId);
    const shown = this.sessions.filter((s) => !this.filter
      || (s.title || "").toLowerCase().includes(this.filter) || s.sessionId.toLowerCase().startsWith(this.filter));
    if (!shown.length) {
      list.append(el("li", { class: "sessions-empty", text: "No session matches." }));
      return;
    }
    for (const session of shown) {
      const current = session.sessionId === this.current;
      list.append(el("li", {},
        el("button", {
          type: "button",
          class: `session${current ? " current" : ""}`,
          dataset: { sessionId: session.sessionId },
          title: `${session.sessionId}\n${session.cwd}`,
          "aria-current": current ? "true" : null,
          disabled: !this.canLoad,
          onclick: () => this.onOpen(session),
        },
        el("span", { class: "session-name", text: session.title || "Untitled session" }),
        el("span", { class: "session-meta", text: [formatTime(session.updatedAt), uniquePrefix(session.sessionId, ids)].filter(Boolean).join(" · ") }))));
    }
  }

  /** Open or close the drawer (narrow screens). */
  setDrawer(open) {
    document.body.classList.toggle("drawer-open", open);
    this.ui.menu.setAttribute("aria-expanded", String(open));
    if (open) this.ui.firstFocus.focus();
  }

  get drawerOpen() {
    return document.body.classList.contains("drawer-open");
  }
}
