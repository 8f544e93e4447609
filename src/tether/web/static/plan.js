// The plan panel: the agent's checklist from ACP `plan` updates (the whole plan each time),
// as one line (`3/5 · the task in progress`) that opens into the list on click.

import { clear, el, scrollBox } from "./dom.js";

const MARKS = { completed: "✓", in_progress: "◐", pending: "○", cancelled: "✕" };
// ACP has no `cancelled`: tether sends it as `completed`, says so in `_meta`, and marks the text.
const CANCELLED_SUFFIX = " (cancelled)";

/**
 * A tool call's checklist as plan entries, or null when its input is none: `todos` of
 * `{content, status}`, as tether's `todo` and other agents' todo tools take (opencode's
 * `todowrite`, Claude Code's `TodoWrite`), so an agent that sends no `plan` update still
 * fills the panel.
 */
export function todoEntries(rawInput) {
  const todos = rawInput && Array.isArray(rawInput.todos) ? rawInput.todos : null;
  const isTask = (t) => t && typeof t === "object" && typeof t.content === "string" && typeof t.status === "string";
  if (!todos || !todos.length || !todos.every(isTask)) return null;
  return todos.map((t) => ({ content: t.content, status: t.status, priority: typeof t.priority === "string" ? t.priority : undefined }));
}

export class PlanPanel {
  constructor(root) {
    this.root = root;
    this.open = false;
    this.entries = [];
    this.toggle = el("button", {
      type: "button", class: "plan-strip", "aria-expanded": "false", "aria-controls": "plan-entries",
      onclick: () => this.setOpen(!this.open),
    });
    this.list = scrollBox(el("ol", { id: "plan-entries", class: "plan-entries", hidden: true }), "Plan");
    root.append(this.toggle, this.list);
  }

  setOpen(open) {
    this.open = open;
    this.toggle.setAttribute("aria-expanded", String(open));
    this.list.hidden = !open;
    this.root.classList.toggle("open", open);
  }

  /** Show the latest plan; an empty plan hides the panel. */
  show(entries) {
    this.entries = entries || [];
    clear(this.list);
    const shown = this.entries.map((entry) => {
      const cancelled = entry._meta && entry._meta.tether && entry._meta.tether.status === "cancelled";
      const status = cancelled ? "cancelled" : MARKS[entry.status] ? entry.status : "pending";
      const text = cancelled && entry.content.endsWith(CANCELLED_SUFFIX) ? entry.content.slice(0, -CANCELLED_SUFFIX.length) : entry.content;
      return { ...entry, status, text };
    });
    for (const entry of shown) {
      this.list.append(el("li", { class: `plan-entry ${entry.status}`, dataset: { status: entry.status, priority: entry.priority || "" } },
        el("span", { class: "plan-mark", text: MARKS[entry.status], "aria-hidden": "true" }),
        el("span", { class: "plan-text", text: entry.text }),
        entry.status === "cancelled" ? el("span", { class: "plan-state", text: "cancelled" }) : null,
        entry.priority === "high" ? el("span", { class: "plan-priority", text: "high" }) : null));
    }
    // Cancelled tasks count neither as done nor as to do.
    const live = shown.filter((e) => e.status !== "cancelled");
    const done = live.filter((e) => e.status === "completed").length;
    const current = live.find((e) => e.status === "in_progress") || live.find((e) => e.status === "pending");
    const summary = current ? current.text : "all done";
    clear(this.toggle).append(
      el("span", { class: "plan-label", text: "Plan" }),
      el("span", { class: "plan-count", text: `${done}/${live.length}` }),
      el("span", { class: "plan-current", text: summary }),
      el("span", { class: "plan-chevron", "aria-hidden": "true", text: "▾" }));
    this.root.hidden = this.entries.length === 0;
  }

  clear() {
    this.show([]);
    this.setOpen(false);
  }
}
