// Slash commands in the composer: the agent's `available_commands_update`, listed as you type
// `/` (a listbox the prompt box controls, as a combobox does), plus what the page itself
// answers: `/help` lists them all, and a `/word` that names no command is said so.

import { clear, el } from "./dom.js";

/** Commands the page answers itself, without the agent. */
export const PAGE_COMMANDS = [{ name: "help", description: "List the commands" }];

export class CommandMenu {
  constructor(input, menu) {
    this.input = input;
    this.menu = menu;
    this.commands = [];
    this.matches = [];
    this.selected = 0;
    // Registered before the composer's own Enter handler, so a pick wins over sending.
    input.addEventListener("keydown", (event) => this.onKey(event));
    input.addEventListener("input", () => this.refresh());
    // Closed a moment after the box loses focus (a click on an item lands first), unless
    // focus came back meanwhile.
    input.addEventListener("blur", () => setTimeout(() => {
      if (document.activeElement !== input) this.hide();
    }, 150));
  }

  /** The agent's commands (ACP `availableCommands`); the page's own are added to them. */
  set(commands) {
    this.agentCommands = commands || [];
    const names = new Set(this.agentCommands.map((c) => c.name));
    this.commands = [...this.agentCommands, ...PAGE_COMMANDS.filter((c) => !names.has(c.name))];
    this.refresh();
  }

  /** Whether the agent said which commands it has (an agent that never does may have any). */
  get known() {
    return Array.isArray(this.agentCommands) && this.agentCommands.length > 0;
  }

  /** The command `text` names (`/name args`), the page's own included, or null. */
  named(text) {
    const match = /^\/(\S+)/.exec(text.trim());
    return match ? this.commands.find((c) => c.name === match[1]) || null : null;
  }

  /**
   * The `/word` a prompt starts with when it looks like a command yet names none, or null.
   * A path (`/usr/bin/env is missing`) is no command: a word with another `/` in it is text.
   */
  unknown(text) {
    const match = /^\/([A-Za-z][\w:-]*)(?=\s|$)/.exec(text.trim());
    if (!match || !this.known) return null;
    return this.commands.some((c) => c.name === match[1]) ? null : match[1];
  }

  /** The command name being typed (`/rev` → `rev`), or null when the text is no command yet. */
  typed() {
    const match = /^\/(\S*)$/.exec(this.input.value);
    return match ? match[1] : null;
  }

  refresh() {
    const typed = this.typed();
    this.matches = typed === null ? [] : this.commands.filter((c) => c.name.startsWith(typed));
    this.selected = Math.min(this.selected, Math.max(0, this.matches.length - 1));
    this.render();
  }

  render() {
    clear(this.menu);
    this.matches.forEach((command, index) => {
      const hint = command.input && command.input.hint ? command.input.hint : "";
      this.menu.append(el("li", {
        id: `command-${index}`,
        class: `command${index === this.selected ? " selected" : ""}`,
        role: "option",
        "aria-selected": String(index === this.selected),
        dataset: { name: command.name },
        onmousedown: (event) => { event.preventDefault(); this.pick(index); },
      },
      el("span", { class: "command-name", text: `/${command.name}` }),
      hint ? el("span", { class: "command-hint", text: hint }) : null,
      el("span", { class: "command-desc", text: command.description })));
    });
    const open = this.matches.length > 0;
    this.menu.hidden = !open;
    this.input.setAttribute("aria-expanded", String(open));
    if (open) this.input.setAttribute("aria-activedescendant", `command-${this.selected}`);
    else this.input.removeAttribute("aria-activedescendant");
    this.menu.querySelector(".selected")?.scrollIntoView({ block: "nearest" });
  }

  hide() {
    this.matches = [];
    this.render();
  }

  pick(index) {
    const command = this.matches[index];
    if (!command) return;
    this.input.value = `/${command.name} `;
    this.input.focus();
    this.hide();
    this.input.dispatchEvent(new Event("input"));
  }

  onKey(event) {
    if (this.menu.hidden || !this.matches.length) return;
    const move = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (move) {
      event.preventDefault();
      this.selected = (this.selected + move + this.matches.length) % this.matches.length;
      this.render();
    } else if (event.key === "Tab" || (event.key === "Enter" && !event.shiftKey && this.matches[this.selected].name !== this.typed())) {
      // Enter on a command already typed out in full sends it; otherwise it completes it.
      event.preventDefault();
      event.stopImmediatePropagation();
      this.pick(this.selected);
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      this.hide();
    }
  }
}
