// The page header: ☰ (narrow screens), the session's title (the page's one h1) and id, the
// budget gauge, and the session's settings menus. Below 760px the menus move into a panel
// behind ⋯, so the title keeps its room; the gauge stays.

import { BudgetGauge } from "./budget.js";
import { SettingsMenus } from "./menus.js";

export class Header {
  /** `ui`: title, sessionId, budget, settings, more. `onChoose(menu, value)` switches a setting. */
  constructor(ui, { onChoose }) {
    this.ui = ui;
    this.budget = new BudgetGauge(ui.budget);
    this.menus = new SettingsMenus(ui.settings, onChoose);
    this.titleFrom = null; // "agent" once the agent named the session itself
    ui.more.addEventListener("click", () => this.setPanel(!this.panelOpen));
    document.addEventListener("click", (event) => {
      if (this.panelOpen && !ui.settings.contains(event.target) && !ui.more.contains(event.target)) this.setPanel(false);
    });
    ui.settings.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.panelOpen) {
        event.stopPropagation();
        this.setPanel(false);
        ui.more.focus();
      }
    });
  }

  get panelOpen() {
    return document.body.classList.contains("settings-open");
  }

  setPanel(open) {
    document.body.classList.toggle("settings-open", open);
    this.ui.more.setAttribute("aria-expanded", String(open));
    if (open) this.ui.settings.querySelector("select")?.focus();
  }

  /** A session is shown: its id, and a title until a better one is known. */
  session(sessionId, title) {
    this.ui.sessionId.textContent = sessionId || "";
    this.titleFrom = null;
    this.setTitle(title);
  }

  setTitle(text) {
    this.ui.title.textContent = text;
    this.ui.title.title = text;
    document.title = text && text !== "No session open" ? `${text} · tether` : "tether";
  }

  /** The agent's own title (`session_info_update`): it wins over the session list's. */
  agentTitle(text) {
    this.titleFrom = "agent";
    this.setTitle(text);
  }

  /** The session list's title, used while the agent has not named the session itself. */
  listedTitle(text) {
    if (this.titleFrom !== "agent" && text) this.setTitle(text);
  }

  showMenus(menus) {
    this.menus.show(menus);
    this.ui.more.hidden = this.menus.count === 0;
    if (!this.menus.count) this.setPanel(false);
  }

  setMenusDisabled(disabled) {
    this.menus.setDisabled(disabled);
  }
}
