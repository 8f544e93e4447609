// The read card: a window of a file, line numbers in a gutter apart from the highlighted code.

import { el, scrollBox } from "../dom.js";

/** Lines beyond which a window gets a scroll area of its own; a shorter one shows whole. */
const TALL = 40;

/** A code view: numbers beside rows (each row a node from `row(i)`), both scrolling as one. */
export function codeView(numbers, row, { label, tall = false, extra = "" } = {}) {
  const gutter = el("div", { class: "gutter", "aria-hidden": "true" });
  const code = el("code", { class: "lines" });
  numbers.forEach((number, i) => {
    gutter.append(el("div", { class: "num", text: number }));
    code.append(row(i));
  });
  const text = scrollBox(el("pre", { class: "code-text" }, code), `${label} (scrolls sideways)`);
  return scrollBox(el("div", { class: `code hl${tall ? " tall" : ""}${extra}` }, gutter, text), label);
}

export function render(view) {
  const lines = view.lines || [];
  const total = view.totalLines;
  const first = lines.length ? lines[0].number : view.offset;
  const last = lines.length ? lines[lines.length - 1].number : view.offset - 1;
  let range;
  if (total === 0) range = "empty file";
  else if (!lines.length) range = `no lines shown (from line ${view.offset} of ${total})`;
  else range = `lines ${first}–${last} of ${total}`;

  const card = el("div", { class: "card card-read", dataset: { card: "read" } },
    el("div", { class: "card-head" },
      el("span", { class: "path", text: view.path, title: view.path }),
      view.lang ? el("span", { class: "lang", text: view.lang }) : null,
      el("span", { class: "range", text: range })));

  if (lines.length) {
    const tokens = Array.isArray(view.tokens) && view.tokens.length === lines.length ? view.tokens : null;
    const row = (i) => {
      const line = el("div", { class: "line" });
      if (tokens) {
        for (const [cls, text] of tokens[i]) line.append(cls ? el("span", { class: cls, text }) : text);
      } else {
        line.textContent = lines[i].text;
      }
      if (!line.textContent) line.append("\u200b"); // keep empty lines one row tall
      return line;
    };
    card.append(codeView(lines.map((l) => l.number), row, { label: `${view.path}, ${range}`, tall: lines.length > TALL }));
  } else {
    card.append(el("div", { class: "card-note", text: total === 0 ? "The file is empty." : "No lines in this window." }));
  }
  if (last < total) {
    const cap = view.byteCap;
    const capText = cap ? `Cut at the ${cap % 1024 ? `${cap} bytes` : `${cap / 1024} KB`} output cap · ` : "";
    card.append(el("div", { class: "card-foot" },
      el("span", { text: `${capText}${total - last} more line${total - last === 1 ? "" : "s"} · ` }),
      el("code", { text: `use offset=${last + 1} to continue` })));
  }
  return card;
}
