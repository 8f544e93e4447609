// Slash commands in the composer: the agent's `available_commands_update`, listed as you type `/`.

import { clear, el } from "./dom.js";

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
    input.addEventListener("blur", () => setTimeout(() => this.hide(), 150));
  }

  set(commands) {
    this.commands = commands || [];
    this.refresh();
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
        class: `command${index === this.selected ? " selected" : ""}`,
        role: "option",
        dataset: { name: command.name },
        onmousedown: (event) => { event.preventDefault(); this.pick(index); },
      },
      el("span", { class: "command-name", text: `/${command.name}` }),
      hint ? el("span", { class: "command-hint", text: hint }) : null,
      el("span", { class: "command-desc", text: command.description })));
    });
    this.menu.hidden = this.matches.length === 0;
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
      this.hide();
    }
  }
}
