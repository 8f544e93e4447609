// The generic card: a title and text, for calls and results no other card fits.

import { el } from "../dom.js";
import { hasRawInput, rawInputDetails, textBox } from "./content.js";

export const call = {
  render(view, { call: acp }) {
    const card = el("div", { class: "card card-generic", dataset: { card: "generic" } });
    if (view.content) card.append(textBox(view.content));
    const locations = view.locations || [];
    if (locations.length) {
      card.append(el("div", { class: "locations" },
        locations.map((l) => el("span", { class: "location", text: l.line ? `${l.path}:${l.line}` : l.path }))));
    }
    const raw = view.rawInput ?? acp.rawInput;
    const showRaw = hasRawInput(raw);
    if (showRaw) card.append(rawInputDetails(raw));
    const pending = !["completed", "failed"].includes(acp.status);
    if (!view.content && !locations.length && !showRaw) {
      card.append(el("div", { class: "card-note", text: pending ? "Waiting…" : "" }));
    }
    return card;
  },
};

export const result = {
  render(view, { call: acp }) {
    const card = el("div", { class: "card card-generic", dataset: { card: "generic" } });
    if (view.title && view.title !== acp.title) card.append(el("div", { class: "generic-title", text: view.title }));
    card.append(view.content
      ? textBox(view.content, { error: acp.status === "failed" })
      : el("div", { class: "card-note", text: "(no output)" }));
    return card;
  },
};
