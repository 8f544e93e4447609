// Signing the agent in, with the methods it advertised (ACP `authMethods`, relayed in `ready`
// as `signIn`). An API-key method asks for its variables; the server keeps them (mode 0600,
// never sent back: the page only hears which are saved) and restarts the agent with them.
// A method the agent runs itself is one click; a terminal method says what to run.

import { clear, el } from "./dom.js";

export class SignInPanel {
  /** `send(message)` reaches the server; `busy()` says a prompt runs (no restart then). */
  constructor({ send, busy, announce }) {
    this.send = send;
    this.busy = busy;
    this.announce = announce;
    this.ready = null;
    this.pending = null; // the method a sign-in was asked with, until the server answers
    this.button = el("button", {
      id: "sign-in-button", class: "ghost sign-in-button", type: "button", hidden: true,
      "aria-haspopup": "dialog", text: "Sign in", onclick: () => this.open(),
    });
    this.status = el("p", { id: "sign-in-status", class: "sign-in-status", role: "status" });
    this.body = el("div", { class: "perms-body sign-in-body" });
    this.heading = el("h2", { id: "sign-in-heading", text: "Sign in" });
    this.dialog = el("dialog", { id: "sign-in", class: "perms sign-in", "aria-labelledby": "sign-in-heading" },
      el("div", { class: "perms-head" },
        this.heading,
        el("button", { class: "ghost", type: "button", "aria-label": "Close", text: "✕", onclick: () => this.dialog.close() })),
      this.body);
    document.body.append(this.dialog);
  }

  /** The agent (re)started: its methods, and the one it was signed in with from here. */
  setAgent(ready) {
    this.ready = ready;
    const methods = ready ? ready.signIn || [] : [];
    this.button.hidden = methods.length === 0;
    const method = ready && methods.find((m) => m.id === ready.signedIn);
    this.button.textContent = method ? "Signed in" : "Sign in";
    this.button.title = method ? `Signed in with ${method.name}; sign in again` : `Sign in to ${ready ? ready.agentName : "the agent"}`;
    if (this.dialog.open) this.render();
  }

  /** Open the dialog; `why` says what needs the sign-in (a refused prompt). */
  open(why = "") {
    if (!this.ready || !(this.ready.signIn || []).length) return false;
    this.render();
    this.status.textContent = why;
    if (!this.dialog.open) this.dialog.showModal();
    const first = this.body.querySelector("input, button.primary");
    if (first) first.focus();
    return true;
  }

  /** How a sign-in ended (`signIn` from the server). */
  result(message) {
    const asked = this.pending === message.methodId;
    if (asked) this.pending = null;
    const method = this.ready && (this.ready.signIn || []).find((m) => m.id === message.methodId);
    const name = method ? method.name : message.methodId;
    if (message.signedOut) {
      this.pending = null;
      this.setBusy(false);
      if (this.dialog.open) this.dialog.close();
      this.announce(`Signed out: the saved ${name} is deleted and the agent restarted without it.`);
      return;
    }
    if (message.error) {
      this.open(`Signing in with ${name} failed: ${message.error}`);
      this.setBusy(false);
      return;
    }
    if (!asked) return; // a kept sign-in renewed at the agent's start is not news
    this.setBusy(false);
    if (this.dialog.open) this.dialog.close();
    this.announce(`Signed in to ${this.ready ? this.ready.agentName : "the agent"} with ${name}.`);
  }

  setBusy(busy) {
    for (const control of this.body.querySelectorAll("input, button")) control.disabled = busy;
  }

  render() {
    const ready = this.ready;
    this.heading.textContent = `Sign in to ${ready.agentName}`;
    clear(this.body).append(this.status);
    for (const method of ready.signIn || []) this.body.append(this.section(method, ready.signedIn === method.id));
    if (ready.signedIn) {
      this.body.append(el("section", { class: "sign-in-method sign-in-out" },
        el("button", {
          class: "danger", type: "button", text: "Forget the saved key and sign out",
          onclick: () => {
            this.pending = "sign-out";
            this.status.textContent = "Restarting the agent without the key…";
            this.setBusy(true);
            this.send({ type: "signOut" });
          },
        })));
    }
    if (this.pending) this.setBusy(true);
  }

  section(method, current) {
    const section = el("section", { class: "sign-in-method", dataset: { method: method.id, kind: method.kind } },
      el("h3", { text: current ? `${method.name} (signed in)` : method.name }),
      method.description ? el("p", { class: "perms-note", text: method.description }) : null);
    if (method.kind === "env_var") section.append(this.keyForm(method));
    else if (method.kind === "agent") {
      section.append(el("button", {
        class: "primary", type: "button", text: `Sign in with ${method.name}`,
        onclick: () => this.ask(method, {}),
      }));
    } else {
      section.append(el("p", { class: "perms-note" },
        "This needs a terminal: run ", el("code", { text: method.command || "" }), " in one, then reload this page."));
    }
    return section;
  }

  keyForm(method) {
    const inputs = [];
    const form = el("form", { class: "sign-in-form", autocomplete: "off" });
    for (const variable of method.vars) {
      const id = `sign-in-${method.id}-${variable.name}`.replace(/[^A-Za-z0-9_-]/g, "_");
      const input = el("input", {
        id, name: variable.name, type: variable.secret ? "password" : "text", autocomplete: "off", spellcheck: "false",
        placeholder: variable.saved ? "saved — leave blank to keep it" : variable.optional ? "optional" : "",
        required: !variable.saved && !variable.optional,
      });
      inputs.push(input);
      form.append(el("label", { for: id, class: "sign-in-label" },
        el("span", { text: variable.label || variable.name }),
        el("code", { class: "sign-in-var", text: variable.name })), input);
    }
    form.append(
      method.link ? el("p", { class: "perms-note" },
        el("a", { href: method.link, target: "_blank", rel: "noopener noreferrer", text: "Where to get one" })) : null,
      el("p", { class: "perms-note", text: "Kept on this computer only ($TETHER_HOME/agent-keys.json, readable by you alone); the agent restarts with it." }),
      el("button", { class: "primary", type: "submit", text: "Save and sign in" }));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const values = {};
      for (const input of inputs) if (input.value.trim()) values[input.name] = input.value.trim();
      // The key leaves the page once, to the server; it does not stay in the form.
      for (const input of inputs) input.value = "";
      this.ask(method, values);
    });
    return form;
  }

  ask(method, values) {
    if (this.busy() && method.kind === "env_var") {
      this.status.textContent = "A prompt is running: the agent restarts to sign in, so wait for it to end (or cancel it).";
      return;
    }
    this.pending = method.id;
    this.status.textContent = method.kind === "env_var" ? "Restarting the agent to sign in…" : "Signing in…";
    this.setBusy(true);
    this.send({ type: "signIn", methodId: method.id, values });
  }
}
