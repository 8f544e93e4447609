// The permissions panel: a session's rules, the file each comes from, its mode and whether
// the workspace is trusted, as the agent reports them (`_tether/permissions`, relayed by the
// server as `permissionsReport`). The panel owns its button and its dialog; the page only
// places the button and passes reports in.

import { clear, el } from "./dom.js";

const KINDS = [
  ["deny", "Deny", "Refused in every mode, whatever other rules say."],
  ["ask", "Ask", "Asked every time, even in auto mode."],
  ["allow", "Allow", "Runs without asking."],
];

export class PermissionsPanel {
  /** `request(sessionId)` asks the server for a report; `sessionId()` names the open one. */
  constructor({ request, sessionId }) {
    this.request = request;
    this.sessionId = sessionId;
    this.button = el("button", {
      id: "permissions-button", class: "ghost perms-button", type: "button", title: "Permission rules of this session",
      "aria-haspopup": "dialog", disabled: true,
      onclick: () => this.open(),
    }, el("span", { class: "perms-icon", "aria-hidden": "true", text: "⚖" }), el("span", { class: "perms-label", text: "Permissions" }));
    this.body = el("div", { class: "perms-body" });
    this.dialog = el("dialog", { id: "permissions", class: "perms", "aria-label": "Permissions" },
      el("div", { class: "perms-head" },
        el("h2", { text: "Permissions" }),
        el("button", { class: "ghost", type: "button", "aria-label": "Close", text: "✕", onclick: () => this.dialog.close() })),
      this.body);
    document.body.append(this.dialog);
  }

  /** Whether there is a session whose rules can be shown. */
  enable(enabled) {
    this.button.disabled = !enabled;
    if (!enabled && this.dialog.open) this.dialog.close();
  }

  open() {
    const sessionId = this.sessionId();
    if (!sessionId) return;
    clear(this.body).append(el("p", { class: "perms-note", text: "Loading…" }));
    if (!this.dialog.open) this.dialog.showModal();
    this.request(sessionId);
  }

  /** Show a report (or why there is none) for the session it is about. */
  show(message) {
    if (message.sessionId !== this.sessionId() || !this.dialog.open) return;
    clear(this.body);
    if (!message.report) {
      this.body.append(el("p", { class: "perms-note", text: `This agent gives no permission report: ${message.error || "no answer"}` }));
      return;
    }
    const report = message.report;
    const trusted = report.trusted;
    this.body.append(
      el("p", { class: "perms-workspace" },
        el("span", { class: "perms-path", text: report.workspace }),
        el("span", { class: `perms-trust ${trusted ? "trusted" : "untrusted"}`, text: trusted ? "trusted" : "not trusted" })),
      el("p", { class: "perms-mode" }, "Mode: ", el("strong", { text: report.mode.value }),
        report.mode.source ? ` (from ${sourceText(report.mode.source)})` : ""));
    for (const [kind, title, hint] of KINDS) {
      const rules = report.rules.filter((rule) => rule.kind === kind);
      const section = el("section", { class: "perms-kind", dataset: { kind } },
        el("h3", { text: `${title} (${rules.length})`, title: hint }));
      if (rules.length === 0) section.append(el("p", { class: "perms-none", text: "none" }));
      else {
        section.append(el("ul", { class: "perms-rules" }, rules.map((rule) =>
          el("li", { class: "perms-rule", dataset: { kind } },
            el("code", { text: rule.rule }),
            el("span", { class: "perms-source", text: sourceText(rule.source), title: rule.source.path || "" })))));
      }
      this.body.append(section);
    }
    if (report.claudeFiles && report.claudeFiles.length) {
      this.body.append(el("section", { class: "perms-claude" },
        el("h3", { text: "Claude Code's files" }),
        el("ul", {}, report.claudeFiles.map((file) => el("li", { text: file.line, title: file.path })))));
    }
    if (report.withheld.length) {
      this.body.append(el("section", { class: "perms-withheld" },
        el("h3", { text: "Waiting for trust" }),
        el("p", { class: "perms-note", text: "The workspace's own settings grant these once you trust it (tether asks at the first prompt, or run `tether permissions trust`)." }),
        el("ul", {}, report.withheld.map((item) => el("li", { text: item })))));
    }
    if (report.problems.length) {
      this.body.append(el("section", { class: "perms-problems" },
        el("h3", { text: "Problems (ignored)" }),
        el("ul", {}, report.problems.map((p) => el("li", { text: `${p.file}: ${p.key}: ${p.message}` })))));
    }
  }
}

function sourceText(source) {
  if (!source.path) return "command line";
  return `${source.scope} · ${source.path}`;
}
