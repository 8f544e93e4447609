// The read card: a window of a file, line numbers in a gutter apart from the highlighted code;
// a notebook's cells (code highlighted, Markdown rendered by the server) with their outputs.

import { el, rescroll, safeHtml, scrollBox } from "../dom.js";
import { inlineImage } from "./content.js";

/** Lines beyond which a window gets a scroll area of its own; a shorter one shows whole. */
const TALL = 40;

/** Rows drawn in one go: a longer view draws the rest in slices this size, each its own
 *  task, so a 2,000-line read never holds the page for one long task (live or replayed). */
const SLICE = 200;

/** A code view: numbers beside rows (each row a node from `row(i)`), both scrolling as one. */
export function codeView(numbers, row, { label, tall = false, extra = "" } = {}) {
  const gutter = el("div", { class: "gutter", "aria-hidden": "true" });
  const code = el("code", { class: "lines" });
  const draw = (from, to) => {
    // Each slice is laid out only while it is on screen (content-visibility), its height
    // known from its row count meanwhile: a long view costs the rows in sight, not all.
    const nums = el("div", { class: "slice" });
    const rows = el("div", { class: "slice" });
    for (const slice of [nums, rows]) slice.style.setProperty("--rows", String(to - from));
    for (let i = from; i < to; i++) {
      nums.append(el("div", { class: "num", text: numbers[i] }));
      rows.append(row(i));
    }
    gutter.append(nums);
    code.append(rows);
  };
  draw(0, Math.min(SLICE, numbers.length));
  const text = scrollBox(el("pre", { class: "code-text" }, code), `${label} (scrolls sideways)`);
  const box = scrollBox(el("div", { class: `code hl${tall ? " tall" : ""}${extra}` }, gutter, text), label);
  if (numbers.length > SLICE) {
    // The first slice fills the view (a tall view scrolls at 40 lines); the rest follows.
    box.setAttribute("aria-busy", "true");
    let next = SLICE;
    const step = () => {
      draw(next, Math.min(next + SLICE, numbers.length));
      next += SLICE;
      if (next < numbers.length) setTimeout(step, 0);
      else {
        box.removeAttribute("aria-busy");
        rescroll(box);
        rescroll(text);
      }
    };
    setTimeout(step, 0);
  }
  return box;
}

export function render(view, ctx) {
  if (view.notebook && Array.isArray(view.notebook.cells)) return notebookCard(view, ctx);
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

/** Highlighted tokens of one line, or its plain text, as a row of a code view. */
function tokenRow(tokens, text) {
  const line = el("div", { class: "line" });
  if (tokens) {
    for (const [cls, piece] of tokens) line.append(cls ? el("span", { class: cls, text: piece }) : piece);
  } else {
    line.textContent = text;
  }
  if (!line.textContent) line.append("\u200b");
  return line;
}

/** The notebook view: each cell under a label (`In [3]`, `markdown`), then its outputs. */
function notebookCard(view, ctx) {
  const notebook = view.notebook;
  const count = notebook.cells.length + (notebook.leftOut || 0);
  const card = el("div", { class: "card card-read card-notebook", dataset: { card: "read", view: "notebook" } },
    el("div", { class: "card-head" },
      el("span", { class: "path", text: view.path, title: view.path }),
      el("span", { class: "lang", text: notebook.language }),
      el("span", { class: "range", text: `notebook · ${count} cell${count === 1 ? "" : "s"}` })));
  // An output image is the n-th image block of the call's ACP content (what the model saw).
  const content = ctx && ctx.call && Array.isArray(ctx.call.content) ? ctx.call.content : [];
  const images = content
    .map((item) => (item && item.type === "content" ? item.content : null))
    .filter((block) => block && block.type === "image");
  for (const cell of notebook.cells) card.append(notebookCell(cell, notebook.language, view.path, images));
  if (notebook.leftOut) {
    card.append(el("div", { class: "card-foot", text: `${notebook.leftOut} more cell${notebook.leftOut === 1 ? "" : "s"} not shown (past the size read)` }));
  }
  return card;
}

function notebookCell(cell, language, path, images) {
  const label = cell.cellType === "code"
    ? `In [${cell.executionCount ?? " "}]`
    : cell.cellType;
  const node = el("section", { class: `nb-cell nb-${cell.cellType}`, dataset: { cellId: cell.id }, "aria-label": `${cell.cellType} cell ${cell.id}` },
    el("div", { class: "nb-label" }, el("span", { class: "nb-kind", text: label }), el("span", { class: "nb-id", text: cell.id })));
  const source = typeof cell.source === "string" ? cell.source : "";
  if (cell.cellType === "markdown" && typeof cell.html === "string") {
    node.append(el("div", { class: "md nb-markdown" }, safeHtml(cell.html)));
  } else if (cell.cellType === "code") {
    const lines = source.split("\n");
    const tokens = Array.isArray(cell.tokens) && cell.tokens.length === lines.length ? cell.tokens : null;
    node.append(codeView(lines.map((_, i) => i + 1), (i) => tokenRow(tokens && tokens[i], lines[i]),
      { label: `${path}, cell ${cell.id}`, tall: lines.length > TALL }));
  } else {
    node.append(el("pre", { class: "nb-raw", text: source }));
  }
  for (const output of Array.isArray(cell.outputs) ? cell.outputs : []) node.append(notebookOutput(output, images));
  return node;
}

function notebookOutput(output, images) {
  switch (output && output.kind) {
    case "text":
      return scrollBox(el("pre", { class: "nb-output", text: output.text || "" }), "Cell output");
    case "error":
      return scrollBox(el("pre", { class: "nb-output is-error", text: output.text || "" }), "Cell error");
    case "image": {
      const block = typeof output.image === "number" ? images[output.image - 1] : null;
      if (!block) {
        const why = typeof output.image === "number" ? "not in this update" : "one image too many to pass on";
        return el("div", { class: "card-note nb-output", text: `image (${output.mimeType || "image"}) · ${why}` });
      }
      return inlineImage(block.data, block.mimeType);
    }
    default:
      return null;
  }
}
