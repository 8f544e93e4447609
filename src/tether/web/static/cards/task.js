// The task card: an agent's work. While it runs: its current step and its calls so far; once
// it ends: its report (Markdown the server rendered), its calls, tokens and how it ended.
// "Show the agent's transcript" opens the child session inside the card, read-only from its
// log, and follows it while the agent works (the server relays it: `watchChild`).
// Progress updates change the card in place, so an open transcript stays open.

import { clear, el, safeHtml } from "../dom.js";

const ENDINGS = {
  running: ["running", "pill-run"],
  end_turn: ["done", "pill-ok"],
  error: ["failed", "pill-bad"],
  cancelled: ["cancelled", "pill-bad"],
  max_turn_requests: ["stopped: step limit", "pill-bad"],
  max_tokens: ["stopped: output limit", "pill-bad"],
  refusal: ["refused", "pill-bad"],
};

// Given by the app: `send` a message to the server; `openTranscript(box)` draws a read-only
// transcript into a box (the app's own, passed in so this card needs no import of it).
let send = null;
let openTranscript = null;
// Open transcripts by child session id: what the server's `childUpdates` go to.
const watching = new Map();
const states = new WeakMap();

/** Connect the cards to the page's socket and its transcripts (the app calls this once). */
export function connectTasks(sender, transcriptIn) {
  send = sender;
  openTranscript = transcriptIn;
}

/** More of an agent's session, from the server: applied to the transcript showing it. */
export function childUpdates(message) {
  const open = watching.get(message.sessionId);
  if (!open) return;
  if (message.error) {
    open.transcript.notice(`The agent's session cannot be shown: ${message.error}`, "error");
  }
  for (const entry of message.entries || []) {
    if (entry.update) open.transcript.apply(entry.update);
    else if (typeof entry.markdown === "string") open.transcript.markdown(entry.markdown);
  }
  open.box.dataset.done = String(Boolean(message.done));
}

/** Close every open transcript (the page opens another session): the server stops too. */
export function resetTasks() {
  for (const sessionId of watching.keys()) if (send) send({ type: "unwatchChild", sessionId });
  watching.clear();
}

function plural(n, one, many) {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

function tokens(n) {
  if (typeof n !== "number") return null;
  if (n < 1000) return `${n} tokens`;
  if (n < 100000) return `${(n / 1000).toFixed(1).replace(/\.0$/, "")}k tokens`;
  return `${Math.round(n / 1000)}k tokens`;
}

function pill(view) {
  const [label, tone] = ENDINGS[view.stopReason] || [view.stopReason, "pill-bad"];
  return el("span", { class: `pill ${tone}`, dataset: { stop: view.stopReason } },
    view.stopReason === "running" ? el("span", { class: "dot" }) : null, label);
}

function facts(view) {
  return [plural(view.toolCalls || 0, "call", "calls"), tokens(view.tokens)].filter(Boolean).join(" · ");
}

/** The parts of the card that change as the agent works, drawn into their boxes. */
function draw(parts, view) {
  clear(parts.pill).append(pill(view));
  parts.facts.textContent = facts(view);
  const running = view.stopReason === "running";
  parts.activity.hidden = !running;
  parts.activity.textContent = running ? (view.activity || "starting") : "";
  // While the agent thinks, the end of its thought, as the page shows the model's own.
  parts.thought.hidden = !(running && view.thought);
  parts.thought.textContent = running && view.thought ? view.thought : "";
  clear(parts.report);
  if (!running) {
    if (typeof view.html === "string") {
      parts.report.append(el("div", { class: "md task-report" }, safeHtml(view.html)));
    } else if (view.summary) {
      parts.report.append(el("div", { class: "task-report plain", text: view.summary }));
    } else {
      parts.report.append(el("div", { class: "card-note", text: "The agent gave no final message." }));
    }
  }
  parts.error.hidden = !view.error;
  parts.error.textContent = view.error ? `Failed: ${view.error}` : "";
}

function transcriptBox(sessionId) {
  const box = el("div", { class: "task-transcript", dataset: { sessionId } });
  const summary = el("summary", { class: "task-open", text: "The agent's transcript" });
  const details = el("details", { class: "task-details" }, summary, box);
  // On the click (a key press on the summary is one too), before the box opens: what it
  // shows is then always the transcript asked for now, never the last one's.
  summary.addEventListener("click", () => {
    if (!details.open) {
      clear(box);
      box.dataset.done = "false";
      if (!send || !openTranscript) {
        box.append(el("div", { class: "card-note", role: "alert", text: "Not connected to the server." }));
        return;
      }
      watching.set(sessionId, { transcript: openTranscript(box), box });
      send({ type: "watchChild", sessionId });
    } else {
      watching.delete(sessionId);
      if (send) send({ type: "unwatchChild", sessionId });
    }
  });
  return details;
}

export function render(view) {
  const parts = {
    pill: el("span", { class: "task-pill" }),
    facts: el("span", { class: "task-facts" }),
    activity: el("div", { class: "task-activity", "aria-live": "polite" }),
    thought: el("div", { class: "task-thought" }),
    report: el("div", { class: "task-body" }),
    error: el("div", { class: "task-error", role: "alert" }),
  };
  const card = el("div", { class: "card card-task", dataset: { card: "task", sessionId: view.sessionId } },
    el("div", { class: "card-head" },
      el("span", { class: "badge task-agent", text: view.agent }),
      el("span", { class: "path task-description", text: view.description, title: view.description }),
      parts.facts, parts.pill),
    parts.activity, parts.thought, parts.report, parts.error,
    el("div", { class: "card-foot task-session" },
      el("span", { text: "session " }), el("code", { text: view.sessionId }),
      transcriptBox(view.sessionId)));
  draw(parts, view);
  states.set(card, { parts, sessionId: view.sessionId });
  return card;
}

/** The same agent's newer card: redraw its changing parts, keep an open transcript. */
export function update(node, view) {
  const state = states.get(node);
  if (!state || state.sessionId !== view.sessionId) return false;
  draw(state.parts, view);
  return true;
}

/**
 * What a permission request about an agent's call shows above its buttons: which agent asks,
 * and the card of the call it would make (a diff, a command). `null` for any other request.
 */
export function delegatedQuestion(toolCall, renderCall) {
  const tether = toolCall && toolCall._meta && toolCall._meta.tether;
  const delegated = tether && tether.delegated;
  if (!delegated) return null;
  const title = toolCall.title || "";
  const prefix = `${delegated.agent} › `;
  const box = el("div", { class: "perm-delegated" },
    el("div", { class: "perm-title" },
      el("span", { class: "badge task-agent", text: delegated.agent }),
      el("span", { class: "perm-step", text: title.startsWith(prefix) ? title.slice(prefix.length) : title })));
  if (delegated.view) {
    const call = { title: toolCall.title, status: "pending", content: toolCall.content, callView: delegated.view };
    box.append(renderCall(call));
  }
  return box;
}
