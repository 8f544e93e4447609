// Cards: tether's render intents (read, diff, terminal, web, generic) and the fallback to ACP's
// standard tool-call content for anything else. Each function returns a DOM element.

import { ansiToFragment } from "./ansi.js";
import { el } from "./dom.js";
import { searchCard } from "./search_card.js";

const KNOWN_CALL_CARDS = new Set(["generic", "terminal", "diff"]);
const KNOWN_RESULT_CARDS = new Set(["generic", "terminal", "diff", "read", "search", "web"]);

/**
 * The body of a tool call block. `call` is the accumulated ACP tool call
 * ({title, kind, status, content, rawInput, callView, resultView}).
 */
export function renderToolBody(call) {
  const result = call.resultView && KNOWN_RESULT_CARDS.has(call.resultView.card) ? call.resultView : null;
  const start = call.callView && KNOWN_CALL_CARDS.has(call.callView.card) ? call.callView : null;
  if (result) return resultCard(result, start, call);
  if (start) return callCard(start, call);
  return fallbackCard(call);
}

function resultCard(view, start, call) {
  switch (view.card) {
    case "read":
      return readCard(view);
    case "diff":
      return diffCard(view.diffs, "applied");
    case "terminal":
      return terminalCard(start && start.card === "terminal" ? start : null, view, call);
    case "web":
      return view.kind === "fetch" ? webFetchCard(view, call) : fallbackCard(call);
    case "generic":
      return genericResultCard(view, call);
    case "search":
      return searchCard(view, call);
    default:
      return fallbackCard(call);
  }
}

function callCard(view, call) {
  switch (view.card) {
    case "terminal":
      return terminalCard(view, null, call);
    case "diff":
      return diffCard(view.diffs, "proposed");
    case "generic":
      return genericCallCard(view, call);
    default:
      return fallbackCard(call);
  }
}

// --- read -------------------------------------------------------------------------------

function readCard(view) {
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
    const gutter = el("div", { class: "gutter", "aria-hidden": "true" });
    const code = el("code", { class: "lines" });
    const tokens = Array.isArray(view.tokens) && view.tokens.length === lines.length ? view.tokens : null;
    lines.forEach((line, i) => {
      gutter.append(el("div", { class: "num", text: line.number }));
      const row = el("div", { class: "line" });
      if (tokens) {
        for (const [cls, text] of tokens[i]) row.append(cls ? el("span", { class: cls, text }) : text);
      } else {
        row.textContent = line.text;
      }
      if (!row.textContent) row.append("\u200b"); // keep empty lines one row tall
      code.append(row);
    });
    // Only a long window gets a scroll area of its own; a short one is shown whole.
    const tall = lines.length > 40 ? " tall" : "";
    card.append(el("div", { class: `code hl${tall}` }, gutter, el("pre", { class: "code-text" }, code)));
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

// --- diff -------------------------------------------------------------------------------

/** Render FileDiffs ({path, oldText, newText, hunks?}); `state` is "proposed" or "applied". */
export function diffCard(diffs, state) {
  const card = el("div", { class: `card card-diff ${state}`, dataset: { card: "diff" } });
  for (const diff of diffs || []) card.append(fileDiff(diff));
  return card;
}

function fallbackHunks(diff) {
  // Only if the server gave no hunks: everything old removed, everything new added.
  const split = (t) => (t ? t.replace(/\n$/, "").split("\n") : []);
  const lines = [
    ...split(diff.oldText).map((text, i) => ({ op: "-", old: i + 1, new: null, text })),
    ...split(diff.newText).map((text, i) => ({ op: "+", old: null, new: i + 1, text })),
  ];
  return lines.length ? [{ oldStart: 1, newStart: 1, lines }] : [];
}

function fileDiff(diff) {
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
  box.append(el("div", { class: "diff-scroll" }, table));
  return box;
}

// --- terminal ---------------------------------------------------------------------------

function exitPill(result, status) {
  if (result && result.signal) return el("span", { class: "pill pill-bad", text: `killed · ${result.signal}` });
  if (result && typeof result.exitCode === "number") {
    // A command stopped by its timeout or a cancel failed, whatever code its shell exited with.
    const ok = result.exitCode === 0 && status !== "failed";
    return el("span", { class: `pill ${ok ? "pill-ok" : "pill-bad"}`, text: `exit ${result.exitCode}` });
  }
  if (status === "failed") return el("span", { class: "pill pill-bad", text: "failed" });
  if (status === "completed") return el("span", { class: "pill", text: "done" });
  return el("span", { class: "pill pill-run" }, el("span", { class: "dot" }), "running");
}

function terminalCard(start, result, call) {
  const command = start ? start.title : call.title;
  const output = result && result.output ? result.output : "";
  const running = !(result && (typeof result.exitCode === "number" || result.signal)) && !["completed", "failed"].includes(call.status);
  const card = el("div", { class: "card card-terminal", dataset: { card: "terminal" } },
    el("div", { class: "term-head" },
      el("span", { class: "cwd", text: start && start.cwd ? start.cwd : "" , title: start && start.cwd ? start.cwd : null}),
      start && start.description ? el("span", { class: "term-desc", text: start.description }) : null,
      start && start.sandbox ? el("span", { class: "term-sandbox", text: start.sandbox }) : null,
      exitPill(result, running ? "running" : call.status)),
    el("pre", { class: "term-cmd" }, el("span", { class: "prompt-sign", text: "$ " }), command || ""));
  if (output) {
    const pre = el("pre", { class: "term-out" });
    pre.append(ansiToFragment(output));
    card.append(pre);
  } else if (!running) {
    card.append(el("div", { class: "term-empty", text: "(no output)" }));
  }
  return card;
}

// --- web --------------------------------------------------------------------------------

function pageLink(url) {
  // Only web URLs become links; the page opens apart from this one (no opener, no referrer).
  if (!/^https?:\/\//i.test(url || "")) return el("span", { class: "path", text: url || "" });
  return el("a", { class: "path web-url", href: url, target: "_blank", rel: "noopener noreferrer", text: url, title: url });
}

function byteSize(size) {
  if (typeof size !== "number") return null;
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

function webFetchCard(view, call) {
  const ok = view.statusCode < 400;
  const facts = [view.contentType ? view.contentType.split(";")[0] : null, byteSize(view.bytes)].filter(Boolean).join(" · ");
  const card = el("div", { class: "card card-web", dataset: { card: "web" } },
    el("div", { class: "card-head" },
      pageLink(view.url),
      facts ? el("span", { class: "web-facts", text: facts }) : null,
      el("span", { class: `pill ${ok ? "pill-ok" : "pill-bad"}`, text: String(view.statusCode) })));
  if (view.title && view.title !== call.title) card.append(el("div", { class: "generic-title web-title", text: view.title }));
  if (view.redirect) {
    card.append(el("div", { class: "card-note web-redirect" }, "Redirects to another host (not followed): ", pageLink(view.redirect)));
  }
  if (typeof view.html === "string") {
    // The server rendered it with raw HTML escaped and only safe link schemes.
    // Parsed in an inert template: nothing in it loads before it is checked below.
    const parsed = document.createElement("template");
    parsed.innerHTML = view.html;
    const body = parsed.content;
    for (const img of body.querySelectorAll("img")) {
      // A fetched page's images are not loaded on their own (no tracking by opening a card):
      // each becomes a link to the image.
      const link = el("a", { href: img.getAttribute("src") || "", text: `[image${img.alt ? `: ${img.alt}` : ""}]` });
      img.replaceWith(link);
    }
    for (const a of body.querySelectorAll("a[href]")) {
      // A relative link is relative to the fetched page, not to this one.
      try {
        const target = new URL(a.getAttribute("href"), view.url);
        if (/^(https?|mailto):$/.test(target.protocol)) a.setAttribute("href", target.href);
        else a.removeAttribute("href");
      } catch {
        a.removeAttribute("href");
      }
      a.setAttribute("target", "_blank");
      a.setAttribute("rel", "noopener noreferrer");
    }
    card.append(el("div", { class: "markdown web-body hl" }, body));
  } else if (view.content) {
    card.append(el("pre", { class: "generic-text", text: view.content }));
  } else if (!view.redirect) {
    card.append(el("div", { class: "card-note", text: "(no text)" }));
  }
  if (view.truncated) card.append(el("div", { class: "card-foot", text: "Truncated: the model saw the start of the page." }));
  return card;
}

// --- generic ----------------------------------------------------------------------------

function genericCallCard(view, call) {
  const card = el("div", { class: "card card-generic", dataset: { card: "generic" } });
  if (view.content) card.append(el("pre", { class: "generic-text", text: view.content }));
  const locations = view.locations || [];
  if (locations.length) {
    card.append(el("div", { class: "locations" },
      locations.map((l) => el("span", { class: "location", text: l.line ? `${l.path}:${l.line}` : l.path }))));
  }
  const raw = view.rawInput ?? call.rawInput;
  if (raw !== undefined && raw !== null) card.append(rawInputDetails(raw));
  const pending = !["completed", "failed"].includes(call.status);
  if (!view.content && !locations.length && (raw === undefined || raw === null)) {
    card.append(el("div", { class: "card-note", text: pending ? "Waiting…" : "" }));
  }
  return card;
}

function genericResultCard(view, call) {
  const card = el("div", { class: "card card-generic", dataset: { card: "generic" } });
  if (view.title && view.title !== call.title) card.append(el("div", { class: "generic-title", text: view.title }));
  const attachments = Array.isArray(view.attachments) ? view.attachments : [];
  if (view.content) {
    card.append(el("pre", { class: `generic-text${call.status === "failed" ? " is-error" : ""}`, text: view.content }));
  } else if (!attachments.length) {
    card.append(el("div", { class: "card-note", text: "(no output)" }));
  }
  // An image attachment's data is the n-th image block of the call's ACP content.
  const images = (Array.isArray(call.content) ? call.content : [])
    .map((item) => (item && item.type === "content" ? item.content : null))
    .filter((block) => block && block.type === "image");
  let next = 0;
  for (const attachment of attachments) {
    card.append(attachmentItem(attachment, attachment && attachment.type === "image" ? images[next++] : null));
  }
  return card;
}

// The largest image shown inline (decoded bytes); a larger one is named, not drawn.
const INLINE_IMAGE_BYTES = 5 * 1024 * 1024;
// Only raster types a browser draws without running anything (no SVG).
const INLINE_IMAGE_TYPES = /^image\/(png|jpeg|gif|webp)$/;

/**
 * An image drawn from its base64 data only (a data: URL; never a fetch of any URI it names),
 * when it is a safe raster type and not too large; otherwise a note with its type and size.
 */
function inlineImage(data, mimeType, size) {
  const bytes = typeof size === "number" ? size : Math.floor(((data || "").length * 3) / 4);
  const facts = [mimeType, byteSize(bytes)].filter(Boolean).join(" · ");
  if (typeof data !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(data) || !INLINE_IMAGE_TYPES.test(mimeType || "")) {
    return el("div", { class: "card-note attachment", text: `image (${facts}) not shown` });
  }
  if (bytes > INLINE_IMAGE_BYTES) {
    return el("div", { class: "card-note attachment", text: `image (${facts}) too large to show` });
  }
  return el("figure", { class: "attachment attachment-image" },
    el("img", { class: "content-image", alt: `image (${facts})`, src: `data:${mimeType};base64,${data}` }),
    el("figcaption", { class: "uri", text: facts }));
}

/** One attachment of a generic result: an image, a link to a resource, an embedded resource. */
function attachmentItem(attachment, image) {
  if (!attachment || typeof attachment !== "object") return null;
  switch (attachment.type) {
    case "image":
      if (!image) return el("div", { class: "card-note attachment", text: `image (${attachment.mimeType} · ${byteSize(attachment.bytes)})` });
      return inlineImage(image.data, image.mimeType, attachment.bytes);
    case "resource_link": {
      const facts = [attachment.mimeType, byteSize(attachment.size)].filter(Boolean).join(" · ");
      // Named, never followed or fetched: the page does not know what the URI leads to.
      return el("div", { class: "resource-link attachment" },
        el("span", { class: "badge", text: "link" }),
        el("span", { text: attachment.title || attachment.name }),
        el("span", { class: "uri", text: attachment.uri }),
        facts ? el("span", { class: "uri", text: facts }) : null);
    }
    case "resource": {
      const facts = [attachment.mimeType, byteSize(attachment.bytes)].filter(Boolean).join(" · ");
      return el("div", { class: "resource attachment" },
        el("div", {},
          el("span", { class: "badge", text: "resource" }), " ",
          el("span", { class: "uri", text: attachment.uri }), " ",
          facts ? el("span", { class: "uri", text: facts }) : null),
        typeof attachment.text === "string" ? el("pre", { class: "generic-text", text: attachment.text }) : null);
    }
    default:
      return el("pre", { class: "generic-text", text: JSON.stringify(attachment, null, 2) });
  }
}

function rawInputDetails(raw) {
  let text;
  try {
    text = typeof raw === "string" ? raw : JSON.stringify(raw, null, 2);
  } catch {
    text = String(raw);
  }
  return el("details", { class: "raw-input" }, el("summary", { text: "input" }), el("pre", { text }));
}

// --- fallback: ACP standard content -----------------------------------------------------

/** Render a tool call from ACP's own fields only (no tether view, or one we do not know). */
export function fallbackCard(call) {
  const card = el("div", { class: "card card-fallback", dataset: { card: "fallback" } });
  const items = Array.isArray(call.content) ? call.content : [];
  for (const item of items) card.append(contentItem(item, call.status));
  if (!items.length) {
    if (call.rawInput !== undefined && call.rawInput !== null) card.append(rawInputDetails(call.rawInput));
    else card.append(el("div", { class: "card-note", text: ["completed", "failed"].includes(call.status) ? "(no output)" : "Waiting…" }));
  }
  return card;
}

function contentItem(item, status) {
  if (!item || typeof item !== "object") return el("pre", { class: "generic-text", text: String(item) });
  switch (item.type) {
    case "content":
      return contentBlock(item.content, status);
    case "diff":
      return fileDiff(item);
    case "terminal":
      return el("div", { class: "card-note", text: `Terminal ${item.terminalId} (live terminals are not shown here)` });
    default:
      return el("pre", { class: "generic-text", text: JSON.stringify(item, null, 2) });
  }
}

/** One ACP content block (text, image, resource link, embedded resource). */
export function contentBlock(block, status) {
  if (!block || typeof block !== "object") return el("pre", { class: "generic-text", text: String(block) });
  switch (block.type) {
    case "text":
      return el("pre", { class: `generic-text${status === "failed" ? " is-error" : ""}`, text: block.text });
    case "image":
      return inlineImage(block.data, block.mimeType, null);
    case "resource_link":
      return el("div", { class: "resource-link" }, el("span", { class: "badge", text: "link" }), el("span", { text: block.title || block.name }), el("span", { class: "uri", text: block.uri }));
    case "resource":
      if (block.resource && typeof block.resource.text === "string") {
        return el("div", { class: "resource" }, el("div", { class: "uri", text: block.resource.uri }), el("pre", { class: "generic-text", text: block.resource.text }));
      }
      return el("div", { class: "card-note", text: `resource ${block.resource ? block.resource.uri : ""}` });
    default:
      return el("pre", { class: "generic-text", text: JSON.stringify(block, null, 2) });
  }
}
