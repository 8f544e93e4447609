// The transcript of one session: messages, tool call blocks (keyed by toolCallId) and
// permission requests, built from ACP session updates, live or replayed alike.

import { contentBlock, renderToolBody } from "./cards.js";
import { clear, el } from "./dom.js";

const KIND_ICONS = {
  read: "▤", edit: "✎", delete: "✕", move: "⇄", search: "⌕", execute: "❯",
  think: "✦", fetch: "⇣", switch_mode: "⇆", other: "•",
};
const STATUS_LABELS = { pending: "pending", in_progress: "running", completed: "done", failed: "failed" };

export class Transcript {
  constructor(root, { onAnswer }) {
    this.root = root;
    this.onAnswer = onAnswer;
    this.calls = new Map(); // toolCallId -> {state, node}
    this.permissions = new Map(); // requestId -> {node, options}
    this.lastMessage = null; // {role, node} of the message being streamed into
  }

  reset() {
    clear(this.root);
    this.calls.clear();
    this.permissions.clear();
    this.lastMessage = null;
  }

  get isEmpty() {
    return this.root.childElementCount === 0;
  }

  /** Apply one ACP session update (as relayed by the server). */
  apply(update) {
    switch (update.sessionUpdate) {
      case "user_message_chunk":
        return this.chunk("user", update.content);
      case "agent_message_chunk":
        return this.chunk("agent", update.content);
      case "agent_thought_chunk":
        return this.chunk("thought", update.content);
      case "tool_call":
      case "tool_call_update":
        this.lastMessage = null;
        return this.toolCall(update, update.sessionUpdate === "tool_call");
      case "plan":
        return this.plan(update.entries || []);
      default:
        return undefined; // mode, commands, usage, session info: shown elsewhere or not at all
    }
  }

  chunk(role, content) {
    if (!content) return;
    if (!this.lastMessage || this.lastMessage.role !== role) {
      const node = role === "thought"
        ? el("details", { class: "msg msg-thought" }, el("summary", { text: "Thinking" }), el("div", { class: "msg-text" }))
        : el("div", { class: `msg msg-${role}` }, el("div", { class: "msg-text" }));
      this.root.append(node);
      this.lastMessage = { role, node, text: node.querySelector(".msg-text") };
    }
    const target = this.lastMessage.text;
    if (content.type === "text") {
      // Consecutive chunks go into one text node: streaming stays cheap and selectable.
      const tail = target.lastChild;
      if (tail && tail.nodeType === Node.TEXT_NODE) tail.appendData(content.text);
      else target.append(document.createTextNode(content.text));
    } else {
      target.append(contentBlock(content));
    }
  }

  toolCall(update, isStart) {
    let entry = this.calls.get(update.toolCallId);
    if (!entry) {
      const node = el("section", { class: "tool", dataset: { toolCallId: update.toolCallId } });
      entry = { state: { toolCallId: update.toolCallId, status: "pending" }, node };
      this.calls.set(update.toolCallId, entry);
      this.root.append(node);
    }
    const state = entry.state;
    for (const key of ["title", "kind", "status", "content", "locations", "rawInput", "rawOutput"]) {
      if (update[key] !== undefined && update[key] !== null) state[key] = update[key];
    }
    const view = update._meta && update._meta.tether ? update._meta.tether.view : undefined;
    if (view) {
      if (isStart) state.callView = view;
      else state.resultView = view;
    }
    this.renderCall(entry);
  }

  renderCall(entry) {
    const { state, node } = entry;
    const permission = node.querySelector(":scope > .permission");
    clear(node);
    node.dataset.status = state.status || "pending";
    node.dataset.kind = state.kind || "other";
    node.append(
      el("header", { class: "tool-head" },
        el("span", { class: "tool-icon", "aria-hidden": "true", text: KIND_ICONS[state.kind] || KIND_ICONS.other }),
        el("span", { class: "tool-title", text: state.title || state.toolCallId, title: state.title || "" }),
        el("span", { class: `tool-status status-${state.status || "pending"}`, text: STATUS_LABELS[state.status] || state.status || "" })),
      renderToolBody(state));
    if (permission) node.append(permission);
  }

  plan(entries) {
    this.lastMessage = null;
    let node = this.root.querySelector(":scope > .plan:last-child");
    if (!node) {
      node = el("div", { class: "plan" });
      this.root.append(node);
    }
    clear(node).append(el("div", { class: "plan-title", text: "Plan" }),
      el("ul", {}, entries.map((e) => el("li", { class: `plan-${e.status}`, text: e.content }))));
  }

  /** Show a permission request as buttons, inside its tool call block when there is one. */
  permission(request) {
    this.lastMessage = null;
    const call = request.toolCall || {};
    if (call.toolCallId && !this.calls.has(call.toolCallId)) {
      this.toolCall({ ...call, status: call.status || "pending" }, true);
    }
    const buttons = request.options.map((option) => el("button", {
      type: "button",
      class: `perm perm-${option.kind}`,
      dataset: { optionId: option.optionId, kind: option.kind },
      text: option.name,
      onclick: () => {
        for (const b of box.querySelectorAll("button")) b.disabled = true;
        this.onAnswer(request.requestId, option.optionId);
      },
    }));
    const box = el("div", { class: "permission", dataset: { requestId: request.requestId } },
      el("span", { class: "perm-question", text: "Allow this?" }),
      el("div", { class: "perm-buttons" }, buttons));
    const host = this.calls.get(call.toolCallId);
    (host ? host.node : this.root).append(box);
    this.permissions.set(request.requestId, { node: box, options: request.options });
    box.querySelector("button")?.focus({ preventScroll: true });
  }

  /** Replace a permission's buttons with the decision taken. */
  permissionClosed(requestId, optionId) {
    const entry = this.permissions.get(requestId);
    if (!entry) return;
    this.permissions.delete(requestId);
    const option = entry.options.find((o) => o.optionId === optionId);
    const label = option ? option.name : "Cancelled";
    const kind = option ? option.kind : "cancelled";
    clear(entry.node).append(el("span", { class: `perm-decision perm-decision-${kind}`, text: label }));
    entry.node.classList.add("answered");
  }

  notice(text, kind = "info") {
    this.lastMessage = null;
    this.root.append(el("div", { class: `notice notice-${kind}`, text }));
  }
}
