// "Rewind to here" on each prompt of the person, for agents that fork sessions (tether): the
// files changed since that prompt (from the agent's checkpoint notices), then a choice of
// code and conversation, conversation only, or code only.
// Code is restored by the agent's `/rewind N` command (a file someone else changed too is
// asked about as a permission request); the conversation continues in a fork of the session
// before that prompt (`forkSession`), which the page then opens.

import { el } from "./dom.js";

const CHOICES = [
  ["both", "Code and conversation", "Restore the files and continue from before this prompt"],
  ["conversation", "Conversation only", "Continue from before this prompt; the files stay"],
  ["code", "Code only", "Restore the files; the conversation stays"],
];

export class Rewind {
  /**
   * `send(message)` to the server, `sendPrompt(text)` as if typed, `sessionId()` the session
   * shown, `canFork()` whether its agent forks sessions, `cannotRewind()` why this tab may
   * not prompt it now (null: it may).
   */
  constructor({ send, sendPrompt, sessionId, canFork, cannotRewind }) {
    this.send = send;
    this.sendPrompt = sendPrompt;
    this.sessionId = sessionId;
    this.canFork = canFork;
    this.cannotRewind = cannotRewind;
    this.files = new Map(); // prompt number -> files its tools changed
    this.after = null; // {sessionId, prompt}: fork once this session's `/rewind` has ended
    this.panel = null;
    this.waiting = []; // [node, number] of prompts shown before the agent said it forks
  }

  reset() {
    this.files.clear();
    this.waiting = [];
    this.after = null;
    this.close();
  }

  /** A tether notice: a prompt's checkpoint names the files it changed. */
  notice(notice) {
    if (notice.kind === "checkpoint" && Array.isArray(notice.files)) this.files.set(notice.prompt, notice.files);
  }

  /** A prompt of the person ended: it gets its "Rewind to here" action. */
  prompt(node, number) {
    if (node.dataset.prompt) return;
    if (!this.canFork()) {
      // A session shown from its log before the agent is ready: its rows come with it.
      this.waiting.push([node, number]);
      return;
    }
    node.dataset.prompt = String(number);
    // Beside the message, not in it: its text stays the prompt as typed.
    const row = el("div", { class: "rewind-row", dataset: { prompt: String(number) } });
    row.append(el("button", {
      type: "button", class: "rewind-here", text: "Rewind to here",
      title: `Go back to before prompt ${number}`, "aria-expanded": "false",
      onclick: (event) => this.toggle(row, number, event.currentTarget),
    }));
    node.after(row);
  }

  /** The agent is ready: prompts shown before it get their action, if it forks. */
  agentReady() {
    const waiting = this.waiting;
    this.waiting = [];
    for (const [node, number] of waiting) if (node.isConnected) this.prompt(node, number);
  }

  /** A prompt ended (`promptEnd`): a "code and conversation" rewind forks now. */
  promptEnded(sessionId) {
    if (!this.after || this.after.sessionId !== sessionId) return;
    const { prompt } = this.after;
    this.after = null;
    this.send({ type: "forkSession", sessionId, prompt });
  }

  close() {
    if (!this.panel) return;
    const { node, button } = this.panel;
    node.remove();
    button.setAttribute("aria-expanded", "false");
    this.panel = null;
  }

  toggle(message, number, button) {
    const same = this.panel && this.panel.button === button;
    this.close();
    if (same) return;
    const changed = new Set();
    for (const [prompt, files] of this.files) if (prompt >= number) for (const f of files) changed.add(f);
    const files = [...changed].sort();
    const why = this.cannotRewind();
    const enabled = why === null;
    const node = el("section", { class: "rewind-panel", "aria-label": `Rewind to before prompt ${number}` },
      el("div", { class: "rewind-title", text: `Rewind to before prompt ${number}` }),
      files.length
        ? el("div", { class: "rewind-files" },
          el("span", { text: `Files tether changed since (${files.length}): ` }),
          ...files.map((f) => el("code", { class: "rewind-file", text: f })))
        : el("div", { class: "rewind-files", text: "Tether changed no files since." }),
      el("div", { class: "rewind-choices" },
        ...CHOICES.map(([what, label, detail]) => el("button", {
          type: "button", class: `rewind-choice rewind-${what}`, text: label, title: detail,
          disabled: !enabled, onclick: () => this.choose(what, number),
        })),
        el("button", { type: "button", class: "rewind-cancel", text: "Cancel", onclick: () => this.close() })),
      enabled ? null : el("div", { class: "rewind-note", text: why }));
    message.after(node);
    button.setAttribute("aria-expanded", "true");
    this.panel = { node, button };
    node.querySelector("button:not([disabled])").focus();
  }

  choose(what, number) {
    const sessionId = this.sessionId();
    this.close();
    if (!sessionId) return;
    if (what === "conversation") {
      this.send({ type: "forkSession", sessionId, prompt: number });
      return;
    }
    if (what === "both") this.after = { sessionId, prompt: number };
    this.sendPrompt(`/rewind ${number}`);
  }
}
