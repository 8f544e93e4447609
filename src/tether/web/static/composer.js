// The composer: the prompt box with its Send and Cancel buttons, the slash-command menu,
// the prompts sent before (Up and Down at the box's first and last line), and the read-only
// bar pinned above it while the session is live elsewhere.

import { CommandMenu } from "./commands.js";

const HISTORY_LIMIT = 100;

/** A phone: narrow, or a touch screen without a fine pointer. */
const PHONE = window.matchMedia("(max-width: 760px), (pointer: coarse)");

export class Composer {
  /**
   * `ui`: form, prompt, send, cancel, working, commandMenu, readOnly, readOnlyText, takeOver.
   * `onSubmit(text)` sends a prompt; `onCancel()` stops the running one; `onTakeOver()`.
   */
  constructor(ui, { onSubmit, onCancel, onTakeOver }) {
    this.ui = ui;
    this.onSubmit = onSubmit;
    this.commands = new CommandMenu(ui.prompt, ui.commandMenu);
    this.history = [];
    this.browsing = -1; // index into history while Up/Down walk it; -1: the draft
    this.draft = "";
    this.agentName = "the agent";
    this.readOnly = null;
    ui.form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (ui.prompt.disabled || ui.send.disabled) return;
      const text = ui.prompt.value;
      if (!text.trim()) return;
      if (this.onSubmit(text) === false) return;
      this.remember(text);
      ui.prompt.value = "";
      this.autosize();
    });
    ui.prompt.addEventListener("keydown", (event) => this.onKey(event));
    ui.prompt.addEventListener("input", () => {
      this.browsing = -1;
      this.autosize();
    });
    ui.cancel.addEventListener("click", () => onCancel());
    ui.takeOver.addEventListener("click", () => onTakeOver());
    this.placeholder();
    PHONE.addEventListener("change", () => this.placeholder());
  }

  /** The name the placeholder asks (`Ask OpenCode to…`), from the agent's `agentInfo`. */
  setAgent(name) {
    this.agentName = name || "the agent";
    this.placeholder();
  }

  placeholder() {
    // A phone's keyboard has no Shift+Enter to speak of: its placeholder names none.
    const keys = PHONE.matches ? "" : "  (Enter to send, Shift+Enter for a new line)";
    this.ui.prompt.placeholder = this.readOnly
      ? "Read-only: this session is open in another tab or process"
      : `Ask ${this.agentName} to read, edit or run something…${keys}`;
  }

  onKey(event) {
    const box = this.ui.prompt;
    if (event.defaultPrevented) return; // the command menu took it
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.ui.form.requestSubmit();
      return;
    }
    const plain = !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
    if (!plain || !this.history.length) return;
    const before = box.value.slice(0, box.selectionStart);
    const after = box.value.slice(box.selectionEnd);
    if (event.key === "ArrowUp" && !before.includes("\n")) {
      if (this.browsing === -1) this.draft = box.value;
      const next = this.browsing === -1 ? this.history.length - 1 : Math.max(0, this.browsing - 1);
      if (next === this.browsing) return;
      event.preventDefault();
      this.recall(next);
    } else if (event.key === "ArrowDown" && this.browsing !== -1 && !after.includes("\n")) {
      event.preventDefault();
      this.recall(this.browsing + 1 < this.history.length ? this.browsing + 1 : -1);
    }
  }

  recall(index) {
    this.browsing = index;
    const box = this.ui.prompt;
    box.value = index === -1 ? this.draft : this.history[index];
    box.setSelectionRange(box.value.length, box.value.length);
    this.autosize();
  }

  remember(text) {
    if (this.history[this.history.length - 1] !== text) this.history.push(text);
    if (this.history.length > HISTORY_LIMIT) this.history.shift();
    this.browsing = -1;
    this.draft = "";
  }

  /** Start over from a session's own prompts (oldest first), as a reopened one shows them. */
  setHistory(prompts) {
    this.history = prompts.slice(-HISTORY_LIMIT);
    this.browsing = -1;
  }

  autosize() {
    const box = this.ui.prompt;
    box.style.height = "auto";
    box.style.height = `${Math.min(box.scrollHeight, 240)}px`;
  }

  /** Show whether a prompt runs, and what may be used: `{live, opening, running, readOnly}`. */
  update({ live, opening, running, readOnly }) {
    const { ui } = this;
    if (running && ui.working.hidden) this.startClock();
    if (!running) this.stopClock();
    ui.working.hidden = !running;
    ui.cancel.hidden = !running;
    ui.send.hidden = running;
    ui.prompt.disabled = !live || opening || Boolean(readOnly);
    ui.send.disabled = !live || running || opening || Boolean(readOnly);
    this.setReadOnly(readOnly, live);
  }

  /** How long the running prompt has run, beside "Working…" (a long wait is not a hang). */
  startClock() {
    this.stopClock();
    const started = Date.now();
    const time = this.ui.working.querySelector(".working-time");
    if (!time) return;
    const tick = () => {
      const seconds = Math.floor((Date.now() - started) / 1000);
      const shown = seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
      time.textContent = seconds >= 1 ? ` ${shown}` : "";
    };
    tick();
    this.clock = setInterval(tick, 1000);
  }

  stopClock() {
    if (this.clock) clearInterval(this.clock);
    this.clock = null;
  }

  /** The bar of a session live elsewhere: `{free}`, or null when the session is ours. */
  setReadOnly(readOnly, live) {
    const { ui } = this;
    this.readOnly = readOnly;
    ui.readOnly.hidden = !readOnly;
    this.placeholder();
    if (!readOnly) return;
    ui.readOnlyText.textContent = readOnly.free
      ? "The other tab or process let go of this session · Take over to continue it here"
      : "Read-only · open in another tab or process; new events show here as they happen";
    ui.takeOver.disabled = !readOnly.free || !live;
  }

  focus() {
    if (!this.ui.prompt.disabled) this.ui.prompt.focus({ preventScroll: true });
  }

  /** Put a prompt that failed back in the box, unless something new was typed meanwhile. */
  restore(text) {
    if (!text || this.ui.prompt.value.trim()) return;
    this.ui.prompt.value = text;
    this.browsing = -1;
    this.autosize();
  }
}
