// The search card: grep's matches as collapsible file groups with line numbers (the first few
// open, the list one scroll box and one tab stop; context lines dimmed, a gap marked), grep's
// counts per file, or glob's paths; each says when the list was capped and how many exist.

import { el, scrollBox } from "../dom.js";

/** Groups open at first; the rest are one click (or Enter) away. */
const OPEN_GROUPS = 5;

/** Render a search card ({card:"search", shape, ...}); the call gives the pattern to highlight. */
export function render(view, { call }) {
  if (view.shape === "paths") return pathsCard(view, call);
  if ((view.files || []).some((f) => typeof f.count === "number")) return countsCard(view, call);
  return matchesCard(view, call);
}

/** A file's matching lines (its context lines left out). */
function matchCount(file) {
  return file.matches.filter((m) => !m.context).length;
}

/** The card's own title, only when the call's header does not already say it. */
function ownTitle(view, call, fallback) {
  const title = view.title || fallback;
  return title === call.title ? null : el("span", { class: "search-title", text: title });
}

function matchesCard(view, call) {
  const regex = patternOf(call);
  const files = view.files || [];
  const shown = files.reduce((n, f) => n + matchCount(f), 0);
  const fileCount = typeof view.totalFiles === "number" ? view.totalFiles : files.length;
  const base = commonDir(files.map((f) => f.path));
  const card = el("div", { class: "card card-search", dataset: { card: "search", shape: "matches" } },
    el("div", { class: "card-head" },
      ownTitle(view, call, "Grep"),
      base ? el("span", { class: "search-base", text: base, title: base }) : null,
      el("span", { class: "range", text: `${count(view.total, "match", "matches")} in ${count(fileCount, "file", "files")}` })));
  if (!files.length) {
    card.append(el("div", { class: "card-note", text: "No matches." }));
    return card;
  }
  const list = el("div", { class: "search-files", role: "group", "aria-label": `Matches in ${count(files.length, "file", "files")}` });
  files.forEach((file, index) => {
    const summary = el("summary", { tabindex: index === 0 ? "0" : "-1" },
      el("span", { class: "path", text: file.path.slice(base.length), title: file.path }),
      el("span", { class: "badge", text: String(matchCount(file)), "aria-label": count(matchCount(file), "match", "matches") }));
    const group = el("details", { class: "search-file", open: index < OPEN_GROUPS, dataset: { path: file.path } }, summary);
    group.append(el("div", { class: "matches hl" }, rows(file, regex)));
    list.append(group);
  });
  list.addEventListener("keydown", (event) => moveAmongGroups(list, event));
  list.addEventListener("focusin", (event) => {
    // The group last focused keeps the list's one tab stop.
    if (event.target.tagName !== "SUMMARY") return;
    for (const s of list.querySelectorAll(":scope > details > summary")) s.tabIndex = s === event.target ? 0 : -1;
  });
  card.append(list);
  if (view.truncated) card.append(cappedFoot(`showing ${shown} of ${view.total} matches`, "narrow the pattern, path or include to see the rest"));
  return card;
}

/** One row per line, its number beside it: a long line wraps, and its number stays with it.
 * Context lines (grep's -A/-B/-C) are dimmed and never highlighted; a gap between them is a row. */
function rows(file, regex) {
  const out = [];
  // Without context every line is a match and gaps are the rule: only context has them.
  const gaps = file.matches.some((m) => m.context);
  let previous = null;
  for (const match of file.matches) {
    if (gaps && previous !== null && match.lineNumber > previous + 1) {
      out.push(el("div", { class: "match gap", "aria-label": "lines skipped" },
        el("span", { class: "num", "aria-hidden": "true", text: "⋮" }), el("span", { class: "line" })));
    }
    previous = match.lineNumber;
    out.push(el("div", { class: match.context ? "match context" : "match" },
      el("span", { class: "num", "aria-hidden": "true", text: match.lineNumber }),
      match.context ? el("code", { class: "line", text: match.line || "\u200b" }) : highlighted(match.line, regex)));
  }
  return out;
}

function countsCard(view, call) {
  const files = view.files || [];
  const fileCount = typeof view.totalFiles === "number" ? view.totalFiles : files.length;
  const base = commonDir(files.map((f) => f.path));
  const card = el("div", { class: "card card-search", dataset: { card: "search", shape: "counts" } },
    el("div", { class: "card-head" },
      ownTitle(view, call, "Grep"),
      base ? el("span", { class: "search-base", text: base, title: base }) : null,
      el("span", { class: "range", text: `${count(view.total, "match", "matches")} in ${count(fileCount, "file", "files")}` })));
  card.append(scrollBox(el("ul", { class: "search-paths search-counts" }, files.map((f) =>
    el("li", { class: "path", title: f.path, dataset: { path: f.path } },
      el("span", { class: "badge", text: String(f.count), "aria-label": count(f.count, "match", "matches") }),
      el("span", { text: f.path.slice(base.length) })))), `${count(files.length, "file", "files")} counted`));
  if (view.truncated) card.append(cappedFoot(`showing the counts of ${files.length} of ${fileCount} files`, "narrow the pattern, path or include to see the rest"));
  return card;
}

/** Up/Down (and Home/End) move between the groups' headers; Enter or Space opens one. */
function moveAmongGroups(list, event) {
  if (event.target.tagName !== "SUMMARY" || event.altKey || event.ctrlKey || event.metaKey) return;
  const heads = [...list.querySelectorAll(":scope > details > summary")];
  const at = heads.indexOf(event.target);
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: heads.length - 1 }[event.key];
  if (to === undefined || to < 0 || to >= heads.length) return;
  event.preventDefault();
  heads[to].focus();
}

function pathsCard(view, call) {
  const paths = view.paths || [];
  const base = commonDir(paths);
  const card = el("div", { class: "card card-search", dataset: { card: "search", shape: "paths" } },
    el("div", { class: "card-head" },
      ownTitle(view, call, "Glob"),
      base ? el("span", { class: "search-base", text: base, title: base }) : null,
      el("span", { class: "range", text: count(view.total, "file", "files") })));
  if (!paths.length) {
    card.append(el("div", { class: "card-note", text: "No files." }));
    return card;
  }
  card.append(scrollBox(el("ul", { class: "search-paths" }, paths.map((p) => el("li", { class: "path", text: p.slice(base.length), title: p }))), `${count(paths.length, "file", "files")} found`));
  if (view.truncated) card.append(cappedFoot(`showing the ${paths.length} newest of ${view.total} files`, "narrow the pattern or path to see the rest"));
  return card;
}

function cappedFoot(what, how) {
  return el("div", { class: "card-foot search-capped" },
    el("span", { class: "badge badge-capped", text: "capped" }),
    el("span", { text: ` ${what} · ` }),
    el("span", { text: how }));
}

function highlighted(line, regex) {
  const row = el("code", { class: "line" });
  let last = 0;
  if (regex) {
    regex.lastIndex = 0;
    for (let i = 0, m; i < 1000 && (m = regex.exec(line)) !== null; i++) {
      if (m[0] === "") { regex.lastIndex++; continue; }
      if (m.index > last) row.append(line.slice(last, m.index));
      row.append(el("mark", { class: "search-hit", text: m[0] }));
      last = m.index + m[0].length;
    }
  }
  if (last < line.length) row.append(line.slice(last));
  if (!row.textContent) row.append("\u200b");
  return row;
}

function patternOf(call) {
  // ripgrep's syntax is close to JavaScript's for everyday patterns; one that does not
  // compile here is shown without highlighting.
  const pattern = call && call.rawInput && typeof call.rawInput.pattern === "string" ? call.rawInput.pattern : null;
  if (!pattern) return null;
  // Case-insensitive as the search was (grep's ignore_case).
  const flags = call.rawInput.ignore_case === true ? "giu" : "gu";
  try {
    return new RegExp(pattern, flags);
  } catch {
    return null;
  }
}

/** The longest directory (ending in "/") every path lies in; "" when they share none. */
function commonDir(paths) {
  if (!paths.length) return "";
  let prefix = paths[0].slice(0, paths[0].lastIndexOf("/") + 1);
  for (const path of paths) {
    while (prefix && !path.startsWith(prefix)) prefix = prefix.slice(0, prefix.slice(0, -1).lastIndexOf("/") + 1);
  }
  return prefix;
}

function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}
