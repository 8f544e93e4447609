// Permission questions and their answers: the buttons (y / a / p / n while the question has
// focus, as the terminal asks), what "Always allow" covers when the agent says it, why it asks,
// and the decision left in place once answered (a rejection is said once, by the call's header).

import { el } from "./dom.js";

// Decisions by kind, so a live answer and a replayed one read the same.
const DECISIONS = {
  allow_once: ["allow", "Allowed once"], allow_always: ["allow", "Always allowed"],
  allow_project: ["allow", "Always allowed in this project"],
  refused: ["reject", "Rejected: no one to approve it"], cancelled: ["reject", "Cancelled"],
};
const REJECTIONS = new Set(["reject", "reject_once", "reject_always"]);

/** Whether a decision is a plain rejection (the call's header then says "rejected"). */
export function isRejection(kind) {
  return REJECTIONS.has(kind);
}

/** The box a decision leaves under its call; null for a plain rejection (said by the header). */
export function decisionBox(kind) {
  if (isRejection(kind)) return null;
  const [tone, label] = DECISIONS[kind] || ["reject", kind];
  return el("div", { class: "permission answered", dataset: { decision: kind } },
    el("span", { class: `perm-decision perm-decision-${tone}`, text: label }));
}

// The project-wide "always" is an `allow_always` option told apart by its id.
export function decisionOf(option) {
  return option.optionId === "allow_project" ? "allow_project" : option.kind;
}

// The letters come with the options from the server (`tether.policy.asker.DECISION_KEYS`),
// so the page, the terminal and `tether run` type the same answers.
function keyHints(options) {
  const keys = {};
  for (const option of options) if (option.key && !keys[option.key]) keys[option.key] = option;
  // In the order of the buttons they press (insertion order), so the hint reads as the row.
  return keys;
}

/**
 * The question box of a permission request: `onAnswer(optionId)` when a button is pressed.
 * `extra` (an agent's own call, asked here) goes first.
 */
export function questionBox(request, { onAnswer, extra = null }) {
  const tether = request.toolCall && request.toolCall._meta && request.toolCall._meta.tether;
  const reason = tether && typeof tether.reason === "string" ? tether.reason : "";
  const details = [];
  const buttons = request.options.map((option) => {
    let describedBy = null;
    if (option.detail) {
      describedBy = `perm-detail-${request.requestId}-${details.length}`;
      details.push(el("span", { class: "perm-detail", id: describedBy, text: coverage(option) }));
    }
    return el("button", {
      type: "button",
      class: `perm perm-${option.kind}`,
      dataset: { optionId: option.optionId, kind: option.kind },
      title: option.detail || null,
      "aria-describedby": describedBy,
      text: option.name,
      onclick: () => {
        for (const b of box.querySelectorAll("button")) b.disabled = true;
        onAnswer(option.optionId);
      },
    });
  });
  const keys = keyHints(request.options);
  const box = el("div", {
    class: "permission", role: "group", "aria-label": "Permission request", tabindex: "-1",
    dataset: { requestId: request.requestId },
    onkeydown: (event) => {
      const option = keys[event.key.toLowerCase()];
      if (!option || event.ctrlKey || event.metaKey || event.altKey) return;
      event.preventDefault();
      box.querySelector(`button[data-option-id="${CSS.escape(option.optionId)}"]`)?.click();
    },
  },
  extra,
  el("span", { class: "perm-question" }, "Allow this?", reason ? el("span", { class: "perm-reason", text: ` ${reason}` }) : null),
  el("div", { class: "perm-buttons" }, buttons),
  el("span", { class: "perm-keys", text: Object.keys(keys).join(" / ") }),
  details.length ? el("div", { class: "perm-details" }, details) : null);
  return box;
}

/** What an option covers, said under the buttons: `"Always allow" covers edits of a.py …`. */
function coverage(option) {
  const rest = option.detail.startsWith(`${option.name} `) ? option.detail.slice(option.name.length + 1) : null;
  return rest ? `“${option.name}” covers ${rest}` : option.detail;
}
