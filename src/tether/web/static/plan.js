// The plan panel: the agent's checklist from ACP `plan` updates (the whole plan each time),
// as one line (`3/5 · the task in progress`) that opens into the list on click.

import { clear, el, scrollBox } from "./dom.js";

const MARKS = { completed: "✓", in_progress: "◐", pending: "○" };

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
    for (const entry of this.entries) {
      const status = MARKS[entry.status] ? entry.status : "pending";
      this.list.append(el("li", { class: `plan-entry ${status}`, dataset: { status, priority: entry.priority || "" } },
        el("span", { class: "plan-mark", text: MARKS[status], "aria-hidden": "true" }),
        el("span", { class: "plan-text", text: entry.content }),
        entry.priority === "high" ? el("span", { class: "plan-priority", text: "high" }) : null));
    }
    const done = this.entries.filter((e) => e.status === "completed").length;
    const current = this.entries.find((e) => e.status === "in_progress")
      || this.entries.find((e) => e.status === "pending");
    const summary = current ? current.content : "all done";
    clear(this.toggle).append(
      el("span", { class: "plan-label", text: "Plan" }),
      el("span", { class: "plan-count", text: `${done}/${this.entries.length}` }),
      el("span", { class: "plan-current", text: summary }),
      el("span", { class: "plan-chevron", "aria-hidden": "true", text: "▾" }));
    this.toggle.setAttribute("aria-label", `Plan: ${done} of ${this.entries.length} done; ${current ? `now: ${summary}` : "all done"}`);
    this.root.hidden = this.entries.length === 0;
  }

  clear() {
    this.show([]);
    this.setOpen(false);
  }
}
