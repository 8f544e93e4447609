// The session list: the agent's stored sessions (search by title or id), each named by its
// title and the shortest id prefix that tells it apart, renamed or deleted in place when the
// agent can; below 760px it is a drawer behind ☰.

import { clear, el } from "./dom.js";
import { sessionRow } from "./session_row.js";

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
   * opens a listed session, `onRename(session, title)` and `onDelete(session)` ask the agent.
   */
  constructor(ui, { onOpen, onRename, onDelete }) {
    this.ui = ui;
    this.onOpen = onOpen;
    this.onRename = onRename;
    this.onDelete = onDelete;
    this.canRename = false;
    this.canDelete = false;
    this.editing = null; // {sessionId, mode: "rename" | "delete"}: the row asking something
    this.sessions = [];
    this.listed = false; // whether the agent's list has come yet (until then: loading)
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
    this.listed = true;
    // A row being renamed keeps what is typed in it: the list is drawn again once it is done.
    if (!this.editing) this.render();
  }

  setCapabilities({ canList, canLoad, canRename, canDelete }) {
    this.canList = canList;
    this.canLoad = canLoad;
    this.canRename = Boolean(canRename);
    this.canDelete = Boolean(canDelete);
    this.ui.search.hidden = !canList;
    this.render();
  }

  setCurrent(sessionId) {
    this.current = sessionId;
    if (!this.editing) this.render();
  }

  render() {
    const list = this.ui.sessions;
    clear(list);
    if (this.canList === null) return;
    if (!this.canList) {
      list.append(el("li", { class: "sessions-empty", text: "This agent cannot list sessions." }));
      return;
    }
    if (!this.listed) {
      list.append(el("li", { class: "sessions-empty", text: "Loading sessions…" }));
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
      const editing = this.editing && this.editing.sessionId === session.sessionId ? this.editing.mode : null;
      const meta = [formatTime(session.updatedAt), uniquePrefix(session.sessionId, ids)].filter(Boolean).join(" · ");
      list.append(sessionRow(session, meta, {
        current: session.sessionId === this.current,
        canLoad: this.canLoad,
        canRename: this.canRename,
        canDelete: this.canDelete,
        mode: editing,
      }, {
        open: () => this.onOpen(session),
        rename: (title) => { this.setEditing(null); this.onRename(session, title); },
        remove: () => { this.setEditing(null); this.onDelete(session); },
        setMode: (mode) => this.setEditing(mode && { sessionId: session.sessionId, mode }, session.sessionId),
      }));
    }
  }

  /** Ask something in one row (or in none); focus goes back to the row's own button after. */
  setEditing(editing, sessionId = null) {
    this.editing = editing;
    this.render();
    if (!editing && sessionId) {
      this.ui.sessions.querySelector(`.session[data-session-id="${CSS.escape(sessionId)}"]`)?.focus();
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
