// One line of the session list: the button that opens the session and, when the agent can,
// Rename (the title edited in place: Enter saves, Esc keeps it) and Delete (asked once more
// in place: Delete or Keep).

import { el } from "./dom.js";

/**
 * The row's `li`. `session` as listed; `meta` the line under its name; `state` {current,
 * canLoad, canRename, canDelete, mode: null | "rename" | "delete"}; `on` {open, rename(title),
 * remove, setMode(mode)}.
 */
export function sessionRow(session, meta, state, on) {
  const name = session.title || "New session"; // as the header names it
  if (state.mode === "rename") return renameRow(session, on);
  if (state.mode === "delete") return deleteRow(name, on);
  const open = el("button", {
    type: "button",
    class: `session${state.current ? " current" : ""}`,
    dataset: { sessionId: session.sessionId },
    title: `${session.sessionId}\n${session.cwd}`,
    "aria-current": state.current ? "true" : null,
    disabled: !state.canLoad,
    onclick: on.open,
  },
  el("span", { class: "session-name", text: name }),
  el("span", { class: "session-meta", text: meta }));
  const actions = el("span", { class: "session-actions" },
    state.canRename ? el("button", {
      type: "button", class: "ghost session-action session-rename", text: "✎",
      "aria-label": `Rename ${name}`, title: "Rename",
      onclick: () => on.setMode("rename"),
    }) : null,
    state.canDelete ? el("button", {
      type: "button", class: "ghost session-action session-delete", text: "✕",
      "aria-label": `Delete ${name}`, title: "Delete",
      onclick: () => on.setMode("delete"),
    }) : null);
  return el("li", { class: "session-row", dataset: { sessionId: session.sessionId } },
    open, actions.childElementCount ? actions : null);
}

function renameRow(session, on) {
  const input = el("input", {
    type: "text", class: "session-title-input", value: session.title || "", maxlength: "200",
    "aria-label": "Session title", autocomplete: "off",
  });
  const form = el("form", { class: "session-edit" },
    input,
    el("span", { class: "session-edit-actions" },
      el("button", { type: "submit", class: "primary", text: "Save" }),
      el("button", { type: "button", text: "Cancel", onclick: () => on.setMode(null) })));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const title = input.value.trim();
    if (title && title !== session.title) on.rename(title);
    else on.setMode(null);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation(); // Esc here keeps the title; it does not cancel a running prompt
    on.setMode(null);
  });
  requestAnimationFrame(() => { input.focus(); input.select(); });
  return el("li", { class: "session-row editing", dataset: { sessionId: session.sessionId } }, form);
}

function deleteRow(name, on) {
  const keep = el("button", { type: "button", class: "session-keep", text: "Keep", onclick: () => on.setMode(null) });
  // A list item holds the question: the list keeps only items as its children.
  const row = el("li", { class: "session-row confirming" },
    el("div", { class: "session-confirm", role: "group", "aria-label": `Delete ${name}?` },
      el("span", { class: "session-confirm-text", text: `Delete “${name}” and its log?` }),
      el("span", { class: "session-edit-actions" },
        el("button", { type: "button", class: "danger session-confirm-delete", text: "Delete", onclick: on.remove }),
        keep)));
  row.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation();
    on.setMode(null);
  });
  requestAnimationFrame(() => keep.focus());
  return row;
}
