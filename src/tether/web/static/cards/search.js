// The search card: grep's matches as collapsible file groups with line numbers (the first few
// open, the list one scroll box and one tab stop), or glob's paths; both say when the list
// was capped and how many exist in all.

import { el, scrollBox } from "../dom.js";

/** Groups open at first; the rest are one click (or Enter) away. */
const OPEN_GROUPS = 5;

/** Render a search card ({card:"search", shape, ...}); the call gives the pattern to highlight. */
export function render(view, { call }) {
  return view.shape === "paths" ? pathsCard(view, call) : matchesCard(view, call);
}

/** The card's own title, only when the call's header does not already say it. */
function ownTitle(view, call, fallback) {
  const title = view.title || fallback;
  return title === call.title ? null : el("span", { class: "search-title", text: title });
}

function matchesCard(view, call) {
  const regex = patternOf(call);
  const files = view.files || [];
  const shown = files.reduce((n, f) => n + f.matches.length, 0);
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
      el("span", { class: "badge", text: String(file.matches.length), "aria-label": count(file.matches.length, "match", "matches") }));
    const group = el("details", { class: "search-file", open: index < OPEN_GROUPS, dataset: { path: file.path } }, summary);
    // One row per match, its number beside it: a long line wraps, and its number stays with it.
    group.append(el("div", { class: "matches hl" }, file.matches.map((match) => el("div", { class: "match" },
      el("span", { class: "num", "aria-hidden": "true", text: match.lineNumber }),
      highlighted(match.line, regex)))));
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
  try {
    return new RegExp(pattern, "gu");
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
