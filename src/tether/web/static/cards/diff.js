// The diff card: removed and added lines with their old and new numbers, file by file.

import { el, scrollBox } from "../dom.js";

/** Render FileDiffs ({path, oldText, newText, hunks?}); `state` is "proposed" or "applied". */
export function diffCard(diffs, state) {
  const card = el("div", { class: `card card-diff ${state}`, dataset: { card: "diff", state } });
  for (const diff of diffs || []) card.append(fileDiff(diff));
  return card;
}

/** The change a call proposes (before it runs or is approved). */
export const proposed = { render: (view) => diffCard(view.diffs, "proposed") };

/** The change a call applied. */
export const applied = { render: (view) => diffCard(view.diffs, "applied") };

function fallbackHunks(diff) {
  // Only if the server gave no hunks: everything old removed, everything new added.
  const split = (t) => (t ? t.replace(/\n$/, "").split("\n") : []);
  const lines = [
    ...split(diff.oldText).map((text, i) => ({ op: "-", old: i + 1, new: null, text })),
    ...split(diff.newText).map((text, i) => ({ op: "+", old: null, new: i + 1, text })),
  ];
  return lines.length ? [{ oldStart: 1, newStart: 1, lines }] : [];
}

/** One file's diff: a head with the path and counts, then the hunks as a numbered table. */
export function fileDiff(diff) {
  const hunks = Array.isArray(diff.hunks) ? diff.hunks : fallbackHunks(diff);
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) for (const line of hunk.lines) {
    if (line.op === "+") added++;
    else if (line.op === "-") removed++;
  }
  const isNew = diff.oldText === null || diff.oldText === undefined;
  const head = el("div", { class: "card-head" },
    el("span", { class: "path", text: diff.path, title: diff.path }),
    isNew ? el("span", { class: "badge badge-new", text: "new file" }) : null,
    el("span", { class: "stat" },
      el("span", { class: "stat-add", text: `+${added}` }),
      el("span", { class: "stat-del", text: `−${removed}` })));
  const box = el("div", { class: "file-diff", dataset: { path: diff.path } }, head);
  if (!hunks.length) {
    box.append(el("div", { class: "card-note", text: "No changes." }));
    return box;
  }
  const placed = diff.placed !== false;
  const table = el("table", { class: `diff-table${placed ? "" : " unplaced"}` });
  const body = el("tbody");
  hunks.forEach((hunk, index) => {
    if (index > 0 || (placed && (hunk.oldStart > 1 || hunk.newStart > 1))) {
      body.append(el("tr", { class: "hunk-sep" },
        el("td", { class: "ln", "aria-hidden": "true" }), el("td", { class: "ln", "aria-hidden": "true" }),
        el("td", { class: "hunk-label", colspan: "2", text: placed ? `@@ -${hunk.oldStart} +${hunk.newStart} @@` : "⋯" })));
    }
    for (const line of hunk.lines) {
      const kind = line.op === "+" ? "add" : line.op === "-" ? "del" : "ctx";
      body.append(el("tr", { class: `row-${kind}` },
        el("td", { class: "ln ln-old", text: line.old ?? "" }),
        el("td", { class: "ln ln-new", text: line.new ?? "" }),
        el("td", { class: "sign", text: line.op === " " ? "" : line.op === "-" ? "−" : "+" }),
        el("td", { class: "text", text: line.text || "\u200b" })));
    }
  });
  table.append(body);
  box.append(scrollBox(el("div", { class: "diff-scroll" }, table), `Changes to ${diff.path}`));
  return box;
}
