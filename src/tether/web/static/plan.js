// The plan panel: the agent's checklist from ACP `plan` updates (the whole plan each time).

import { clear, el } from "./dom.js";

const MARKS = { completed: "✓", in_progress: "◐", pending: "○", cancelled: "✕" };
// ACP has no `cancelled`: tether sends it as `completed`, says so in `_meta`, and marks the text.
const CANCELLED_SUFFIX = " (cancelled)";

export class PlanPanel {
  constructor(root, list) {
    this.root = root;
    this.list = list;
  }

  /** Show the latest plan; an empty plan hides the panel. */
  show(entries) {
    clear(this.list);
    for (const entry of entries || []) {
      const cancelled = entry._meta && entry._meta.tether && entry._meta.tether.status === "cancelled";
      const status = cancelled ? "cancelled" : MARKS[entry.status] ? entry.status : "pending";
      const text = cancelled && entry.content.endsWith(CANCELLED_SUFFIX) ? entry.content.slice(0, -CANCELLED_SUFFIX.length) : entry.content;
      this.list.append(el("li", { class: `plan-entry ${status}`, dataset: { status, priority: entry.priority || "" } },
        el("span", { class: "plan-mark", text: MARKS[status], "aria-hidden": "true" }),
        el("span", { class: "plan-text", text }),
        cancelled ? el("span", { class: "plan-state", text: "cancelled" }) : null,
        entry.priority === "high" ? el("span", { class: "plan-priority", text: "high" }) : null));
    }
    const live = this.list.querySelectorAll(".plan-entry:not(.cancelled)").length;
    const done = this.list.querySelectorAll(".plan-entry.completed").length;
    this.root.querySelector(".plan-count").textContent = entries && entries.length ? `${done}/${live}` : "";
    this.root.hidden = !(entries && entries.length);
  }

  clear() {
    this.show([]);
  }
}
