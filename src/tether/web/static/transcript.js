// The transcript of one session: messages, tool call blocks (keyed by toolCallId) and
// permission requests, built from ACP session updates, live or replayed alike.

import { contentBlock, delegatedQuestion, renderToolBody } from "./cards/index.js";
import { clear, el, safeHtml } from "./dom.js";
import { decisionBox, decisionOf, isRejection, questionBox } from "./permission_prompt.js";
import { todoEntries } from "./plan.js";

// The id tether gives its question about trusting a workspace (no tool call asks it).
const TRUST_CALL = "workspace-trust";

const KIND_ICONS = {
  read: "▤", edit: "✎", delete: "✕", move: "⇄", search: "⌕", execute: "❯",
  think: "✦", fetch: "⇣", switch_mode: "⇆", other: "•",
};
const STATUS_LABELS = { pending: "pending", in_progress: "running", completed: "done", failed: "failed", rejected: "rejected" };
const STOP_TEXT = {
  cancelled: "Cancelled.",
  max_tokens: "Stopped: the model hit its token limit.",
  max_turn_requests: "Stopped: too many steps for one prompt.",
  refusal: "The model refused.",
  error: "The prompt failed.",
};

/** What the page says when a prompt stops other than normally. */
export function stopText(reason, error) {
  if (reason === "error" && error) return `The prompt failed: ${error}`;
  return STOP_TEXT[reason] || `Stopped: ${reason}`;
}

/** The status a call's header shows: a command that exited non-zero failed, whatever ACP says. */
function shownStatus(state) {
  if (isRejection(state.permission) || state.permission === "refused") return "rejected";
  const view = state.resultView;
  if (view && view.card === "terminal" && (view.signal || (typeof view.exitCode === "number" && view.exitCode !== 0))) {
    return "failed";
  }
  return state.status || "pending";
}

export class Transcript {
  constructor(root, { onAnswer, onRetry, announcer, onPrompt, onNotice }) {
    this.root = root;
    this.onAnswer = onAnswer;
    this.onRetry = onRetry;
    this.onPrompt = onPrompt; // (node, number): a prompt of the person ended, numbered as the log does
    this.onNotice = onNotice; // (notice): a tether notice (`_meta.tether.notice`)
    this.prompts = 0; // prompts ended so far (a tether agent's turn ends, live or replayed)
    this.lastUser = null; // the person's latest message, until its turn ends
    this.announcer = announcer; // a polite live region: only new things are read out
    this.replaying = false; // a stored session's history is being shown (announced: nothing)
    this.calls = new Map(); // toolCallId -> {state, node}
    this.permissions = new Map(); // requestId -> {node, options}
    this.lastMessage = null; // {role, node} of the message being streamed into
    this.pendingAgent = null; // the agent message whose Markdown has not arrived yet
    this.lastUserText = "";
    this.userTexts = []; // every prompt shown, oldest first (for the composer's history)
    this.ended = false; // the running prompt's end was already shown (from the agent's turnEnd)
  }

  reset() {
    clear(this.root);
    this.calls.clear();
    this.permissions.clear();
    this.lastMessage = null;
    this.pendingAgent = null;
    this.lastUserText = "";
    this.userTexts = [];
    this.ended = false;
    this.prompts = 0;
    this.lastUser = null;
  }

  announce(text) {
    // A session's history replayed as it opens is not news: only what happens now is read.
    if (!this.announcer || !text || this.replaying) return;
    this.announcer.textContent = text.length > 300 ? `${text.slice(0, 300)}…` : text;
  }

  get isEmpty() {
    return this.root.childElementCount === 0;
  }

  /** Apply one ACP session update (as relayed by the server). */
  apply(update) {
    switch (update.sessionUpdate) {
      case "user_message_chunk":
        return this.chunk("user", update.content);
      case "agent_message_chunk": {
        const notice = update._meta && update._meta.tether ? update._meta.tether.notice : undefined;
        if (notice && update.content && update.content.type === "text") {
          if (this.onNotice) this.onNotice(notice);
          if (notice.kind === "hook") return this.hookNotice(update.content.text.trim(), notice);
          return this.notice(update.content.text.trim(), "info", null, "context");
        }
        return this.chunk("agent", update.content);
      }
      case "agent_thought_chunk": {
        const thought = update._meta && update._meta.tether ? update._meta.tether.thought : undefined;
        if (thought) return this.thoughtEnd(thought.durationMs);
        return this.chunk("thought", update.content);
      }
      case "tool_call":
      case "tool_call_update":
        this.lastMessage = null;
        return this.toolCall(update, update.sessionUpdate === "tool_call");
      case "session_info_update": {
        const end = update._meta && update._meta.tether ? update._meta.tether.turnEnd : undefined;
        if (end) this.turnEnd(end);
        return undefined;
      }
      default:
        return undefined; // mode, commands, usage, session info: shown elsewhere or not at all
    }
  }

  /** Where a prompt ended (tether agents say so live and on replay alike). */
  turnEnd(end) {
    this.lastMessage = null;
    this.ended = true;
    // Every turn end is one prompt of the log (slash commands done without a turn are not).
    this.prompts += 1;
    if (this.lastUser && this.onPrompt) this.onPrompt(this.lastUser, this.prompts);
    this.lastUser = null;
    if (end.stopReason !== "end_turn") this.stopNotice(end.stopReason, end.error);
  }

  /** The notice for a prompt that stopped early; a failed one gets a Retry button. */
  stopNotice(reason, error) {
    const retry = reason === "error" && this.lastUserText && this.onRetry;
    const text = this.lastUserText;
    this.notice(stopText(reason, error), reason === "error" ? "error" : "info",
      retry ? () => this.onRetry(text) : null);
  }

  /** The Markdown of the message just streamed replaces its plain text. */
  markdown(html) {
    const target = this.pendingAgent;
    this.pendingAgent = null;
    if (this.lastMessage && this.lastMessage.node === target) this.lastMessage = null;
    if (!target) return;
    const text = target.querySelector(".msg-text");
    clear(text).append(safeHtml(html));
    text.classList.add("md");
    for (const pre of text.querySelectorAll("pre.md-code")) addCopyButton(pre);
    this.announce(text.textContent);
  }

  chunk(role, content) {
    if (!content) return;
    if (role === "user" && content.type === "text") {
      if (this.lastMessage && this.lastMessage.role === "user") {
        this.lastUserText += content.text;
        this.userTexts[this.userTexts.length - 1] = this.lastUserText;
      } else {
        this.lastUserText = content.text;
        this.userTexts.push(content.text);
      }
    }
    if (!this.lastMessage || this.lastMessage.role !== role) {
      const node = role === "thought"
        ? el("details", { class: "msg msg-thought" }, el("summary", { text: "Thinking" }), el("div", { class: "msg-text" }))
        : el("div", { class: `msg msg-${role}` }, el("div", { class: "msg-text" }));
      this.root.append(node);
      this.lastMessage = { role, node, text: node.querySelector(".msg-text") };
      if (role === "agent") this.pendingAgent = node;
      if (role === "user") this.lastUser = node;
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

  /** A thought ended (tether says so live and on replay): its block says how long it took. */
  thoughtEnd(ms) {
    if (this.lastMessage && this.lastMessage.role === "thought") {
      const seconds = ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
      this.lastMessage.node.querySelector("summary").textContent = `Thought for ${seconds}`;
      this.lastMessage = null;
    }
  }

  /** The user's own prompt, shown as sent (the agent does not echo it live). */
  userPrompt(text) {
    this.chunk("user", { type: "text", text });
    this.lastMessage = null;
    this.ended = false;
  }

  /** The commands one can type, as `/help` lists them. */
  help(commands) {
    this.lastMessage = null;
    this.root.append(el("section", { class: "notice notice-help", "aria-label": "Commands" },
      el("div", { class: "help-title", text: commands.length ? "Commands (type / to pick one)" : "This agent offers no commands." }),
      el("dl", { class: "help-list" }, commands.flatMap((c) => [
        el("dt", {}, el("code", { text: `/${c.name}` }), c.input && c.input.hint ? el("span", { class: "command-hint", text: ` ${c.input.hint}` }) : null),
        el("dd", { text: c.description || "" }),
      ]))));
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
    const tether = update._meta && update._meta.tether ? update._meta.tether : {};
    if (tether.job) state.job = tether.job; // a background command: its card lives on
    if (tether.permission) {
      state.permission = tether.permission;
      state.permissionSaid = true; // the agent's own record of the answer
    }
    const view = tether.view;
    if (view) {
      if (isStart) state.callView = view;
      else state.resultView = view;
    }
    this.renderCall(entry);
  }

  renderCall(entry) {
    const { state, node } = entry;
    const planLine = planSummary(state);
    if (planLine !== null && !entry.planLine) {
      // The plan strip above shows the list: the call is one line here, opened on demand.
      entry.planLine = true;
      node.classList.add("plan-line", "collapsed");
    }
    const status = shownStatus(state);
    node.dataset.status = status;
    node.dataset.kind = state.kind || "other";
    const body = renderToolBody(state, entry.body);
    if (body !== entry.body) {
      body.classList.add("tool-body");
      body.id = `body-${state.toolCallId}`;
      if (entry.body) entry.body.replaceWith(body);
      entry.body = body;
    }
    const collapsed = node.classList.contains("collapsed");
    const toggle = el("button", {
      type: "button", class: "tool-toggle", "aria-expanded": String(!collapsed), "aria-controls": body.id,
      title: collapsed ? "Show the card" : "Hide the card",
      onclick: () => {
        const now = node.classList.toggle("collapsed");
        toggle.setAttribute("aria-expanded", String(!now));
        toggle.title = now ? "Show the card" : "Hide the card";
      },
    },
    el("span", { class: "tool-icon", "aria-hidden": "true", text: KIND_ICONS[state.kind] || KIND_ICONS.other }),
    el("span", { class: "tool-title", text: planLine || state.title || state.toolCallId, title: planLine || state.title || "" }),
    el("span", { class: `tool-status status-${status}`, text: STATUS_LABELS[status] || status }));
    const head = el("header", { class: "tool-head" }, toggle);
    if (entry.head) entry.head.replaceWith(head);
    else node.prepend(head);
    entry.head = head;
    if (!body.parentNode) head.after(body);
    if (!node.querySelector(":scope > .permission") && state.permission) {
      const decided = decisionBox(state.permission);
      if (decided) node.append(decided);
    }
  }

  /** Show a permission request as buttons, inside its tool call block when there is one. */
  permission(request) {
    this.lastMessage = null;
    const call = request.toolCall || {};
    const delegated = delegatedQuestion(call, renderToolBody); // an agent's call, asked here
    if (call.toolCallId && (!this.calls.has(call.toolCallId) || (!delegated && hasView(call)))) {
      // The request may show more than the call did (an edit's change worked out, in context).
      this.toolCall({ ...call, status: call.status || "pending" }, true);
    } else if (call.toolCallId && !delegated && Array.isArray(call.content) && call.content.length) {
      // Another agent's request: its content (a diff, drawn from its input if need be) shows
      // the change before the answer; the call keeps its own title and input.
      this.toolCall({ toolCallId: call.toolCallId, content: call.content }, true);
    }
    const box = questionBox(request, {
      onAnswer: (optionId) => this.onAnswer(request.requestId, optionId),
      extra: delegated,
    });
    const host = this.calls.get(call.toolCallId);
    (host ? host.node : this.root).append(box);
    this.permissions.set(request.requestId, { node: box, options: request.options, delegated, host, request });
    box.querySelector("button")?.focus({ preventScroll: true });
    this.announce(`Permission requested: ${call.title || "a tool call"}`);
  }

  /** The questions shown and not answered yet, as they were asked. */
  openRequests() {
    return [...this.permissions.values()].map((entry) => entry.request);
  }

  /** Replace a permission's buttons with the decision taken. */
  permissionClosed(requestId, optionId) {
    const entry = this.permissions.get(requestId);
    if (!entry) return;
    this.permissions.delete(requestId);
    const option = entry.options.find((o) => o.optionId === optionId);
    const decision = option ? decisionOf(option) : "cancelled";
    if (entry.request.toolCall && entry.request.toolCall.toolCallId === TRUST_CALL && entry.host) {
      // tether's answer follows as a notice (the one a reload shows): the question goes.
      entry.host.node.remove();
      this.calls.delete(TRUST_CALL);
      return;
    }
    // An agent's answer belongs to its own call, which its transcript shows with it.
    const decided = entry.delegated ? null : decisionBox(decision);
    if (decided) entry.node.replaceWith(decided);
    else entry.node.remove();
    if (!entry.delegated && entry.host && isRejection(decision)) {
      entry.host.state.permission = decision;
      this.renderCall(entry.host);
    }
  }

  /** A hook's run: a warning when it decided something (blocked a call, a prompt), an error
   *  when it failed, else a quiet line. */
  hookNotice(text, hook) {
    const kind = hook.failed ? "error" : hook.decision ? "warn" : "info";
    this.notice(text, kind, null, "hook");
    const node = this.root.lastElementChild;
    node.dataset.event = hook.event;
    if (hook.decision) node.dataset.decision = hook.decision;
  }

  notice(text, kind = "info", retry = null, topic = null) {
    this.lastMessage = null;
    this.root.append(el("div", { class: `notice notice-${kind}`, role: kind === "error" ? "alert" : null, dataset: topic ? { topic } : undefined },
      el("span", { class: "notice-text", text }),
      retry ? el("button", { type: "button", class: "retry", text: "Retry", onclick: retry }) : null));
    if (kind !== "error") this.announce(text);
  }
}

function hasView(call) {
  return Boolean(call._meta && call._meta.tether && call._meta.tether.view);
}

function addCopyButton(pre) {
  const button = el("button", {
    type: "button", class: "copy", text: "Copy", "aria-label": "Copy the code",
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(pre.querySelector("code").textContent);
        button.textContent = "Copied";
      } catch {
        button.textContent = "Copy failed";
      }
    },
  });
  pre.before(el("div", { class: "code-tools" }, button));
}

/**
 * The one line a plan update shows (`Plan updated · 1/3 · the task in progress`), or null
 * for any other call. A call is a plan update when its input is a checklist (`todos` of
 * `{content, status}`), as tether's `todo` and other agents' todo tools take.
 */
export function planSummary(state) {
  const todos = todoEntries(state.rawInput);
  if (!todos) return null;
  const live = todos.filter((t) => t.status !== "cancelled");
  const done = live.filter((t) => t.status === "completed").length;
  const now = todos.find((t) => t.status === "in_progress");
  return [`Plan updated · ${done}/${live.length}`, now ? now.content : null].filter(Boolean).join(" · ");
}
