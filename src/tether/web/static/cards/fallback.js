// The fallback card: a tool call from ACP's own fields only (no tether view, or an unknown one).

import { el } from "../dom.js";
import { contentItem, hasRawInput, rawInputDetails } from "./content.js";

export function render(_view, { call }) {
  const card = el("div", { class: "card card-fallback", dataset: { card: "fallback" } });
  const items = Array.isArray(call.content) ? call.content : [];
  for (const item of items) card.append(contentItem(item, call.status));
  if (!items.length) {
    if (hasRawInput(call.rawInput)) card.append(rawInputDetails(call.rawInput));
    else card.append(el("div", { class: "card-note", text: ["completed", "failed"].includes(call.status) ? "(no output)" : "Waiting…" }));
  }
  return card;
}
