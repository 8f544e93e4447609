// The plan panel: the agent's checklist from ACP `plan` updates (the whole plan each time).

import { clear, el } from "./dom.js";

const MARKS = { completed: "✓", in_progress: "◐", pending: "○" };

export class PlanPanel {
  constructor(root, list) {
    this.root = root;
    this.list = list;
  }

  /** Show the latest plan; an empty plan hides the panel. */
  show(entries) {
    clear(this.list);
    for (const entry of entries || []) {
      const status = MARKS[entry.status] ? entry.status : "pending";
      this.list.append(el("li", { class: `plan-entry ${status}`, dataset: { status, priority: entry.priority || "" } },
        el("span", { class: "plan-mark", text: MARKS[status], "aria-hidden": "true" }),
        el("span", { class: "plan-text", text: entry.content }),
        entry.priority === "high" ? el("span", { class: "plan-priority", text: "high" }) : null));
    }
    const done = (entries || []).filter((e) => e.status === "completed").length;
    this.root.querySelector(".plan-count").textContent = entries && entries.length ? `${done}/${entries.length}` : "";
    this.root.hidden = !(entries && entries.length);
  }

  clear() {
    this.show([]);
  }
}
