// The session's settings as menus in the header: every `select` config option the agent
// offers (model, mode, sandbox, ...) and its modes when no option stands for them. The server
// sends them ready to show, in order (see src/tether/web/menus.py); a choice goes back as
// `setConfigOption` or `setMode`, and the menus shown next are what the agent then holds.

import { clear, el } from "./dom.js";

export class SettingsMenus {
  /** `root` holds the menus; `onChoose(menu, value)` is called when the user picks a choice. */
  constructor(root, onChoose) {
    this.root = root;
    this.onChoose = onChoose;
    this.menus = [];
    this.disabled = true;
  }

  /** Show these menus (the server's `Menu`s), replacing what was shown. */
  show(menus) {
    const focused = document.activeElement && this.root.contains(document.activeElement)
      ? document.activeElement.dataset.menuId : null;
    this.menus = menus || [];
    clear(this.root);
    for (const menu of this.menus) this.root.append(this.field(menu));
    this.root.hidden = this.menus.length === 0;
    this.setDisabled(this.disabled);
    if (focused) this.root.querySelector(`select[data-menu-id="${CSS.escape(focused)}"]`)?.focus();
  }

  field(menu) {
    const select = el("select", {
      class: "setting-select",
      id: `setting-${menu.source}-${menu.id}`,
      dataset: { menuId: menu.id, source: menu.source },
      title: menu.description || null,
    });
    let group = null;
    for (const choice of menu.choices) {
      const option = el("option", { value: choice.value, text: choice.name, title: choice.description || null });
      if (choice.group) {
        if (!group || group.label !== choice.group) {
          group = el("optgroup", { label: choice.group });
          select.append(group);
        }
        group.append(option);
      } else {
        group = null;
        select.append(option);
      }
    }
    select.value = menu.current;
    select.addEventListener("change", () => this.onChoose(menu, select.value));
    // The label's text names the select everywhere: where it is not shown, it is only
    // visually hidden, never removed.
    return el("label", { class: "setting", dataset: { menuId: menu.id, category: menu.category || "" }, for: select.id },
      el("span", { class: "setting-name", text: menu.name }),
      select);
  }

  /** Menus can be used only on an open session that is not running nor read-only. */
  setDisabled(disabled) {
    this.disabled = disabled;
    for (const select of this.root.querySelectorAll("select")) select.disabled = disabled;
  }

  get count() {
    return this.menus.length;
  }
}
