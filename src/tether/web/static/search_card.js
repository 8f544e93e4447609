// The search card: grep's matches as collapsible file groups with line numbers (context lines
// dimmed, a gap marked), grep's counts per file, or glob's paths; each says when the list was
// capped and how many exist in all.

import { el } from "./dom.js";

/** Render a search card ({card:"search", shape, ...}); `call` gives the pattern to highlight. */
export function searchCard(view, call) {
  if (view.shape === "paths") return pathsCard(view);
  if ((view.files || []).some((f) => typeof f.count === "number")) return countsCard(view);
  return matchesCard(view, patternOf(call));
}

/** Matching lines of a file (context lines left out). */
function matchCount(file) {
  return file.matches.filter((m) => !m.context).length;
}

function matchesCard(view, regex) {
  const files = view.files || [];
  const shown = files.reduce((n, f) => n + matchCount(f), 0);
  const base = commonDir(files.map((f) => f.path));
  const card = el("div", { class: "card card-search", dataset: { card: "search", shape: "matches" } },
    el("div", { class: "card-head" },
      el("span", { class: "search-title", text: view.title || "Grep" }),
      base ? el("span", { class: "search-base", text: base, title: base }) : null,
      el("span", { class: "range", text: count(view.total, "match", "matches") + ` in ${count(files.length, "file", "files")}` })));
  if (!files.length) {
    card.append(el("div", { class: "card-note", text: "No matches." }));
    return card;
  }
  const list = el("div", { class: "search-files" });
  for (const file of files) {
    const group = el("details", { class: "search-file", open: true, dataset: { path: file.path } },
      el("summary", {},
        el("span", { class: "path", text: file.path.slice(base.length), title: file.path }),
        el("span", { class: "badge", text: String(matchCount(file)) })));
    const rows = el("div", { class: "code" });
    const gutter = el("div", { class: "gutter", "aria-hidden": "true" });
    const code = el("code", { class: "lines" });
    let previous = null;
    // Without context every line is a match and gaps are the rule: only context has them.
    const gaps = file.matches.some((m) => m.context);
    for (const match of file.matches) {
      if (gaps && previous !== null && match.lineNumber > previous + 1) {
        gutter.append(el("div", { class: "num gap", text: "⋮" }));
        code.append(el("div", { class: "line gap", "aria-label": "lines skipped", text: "\u200b" }));
      }
      previous = match.lineNumber;
      if (match.context) {
        gutter.append(el("div", { class: "num context", text: match.lineNumber }));
        code.append(el("div", { class: "line context", text: match.line || "\u200b" }));
      } else {
        gutter.append(el("div", { class: "num", text: match.lineNumber }));
        code.append(highlighted(match.line, regex));
      }
    }
    rows.append(gutter, el("pre", { class: "code-text" }, code));
    group.append(rows);
    list.append(group);
  }
  card.append(list);
  if (view.truncated) card.append(cappedFoot(`showing ${shown} of ${view.total} matches`, "narrow the pattern, path or include to see the rest"));
  return card;
}

function countsCard(view) {
  const files = view.files || [];
  const base = commonDir(files.map((f) => f.path));
  const card = el("div", { class: "card card-search", dataset: { card: "search", shape: "counts" } },
    el("div", { class: "card-head" },
      el("span", { class: "search-title", text: view.title || "Grep" }),
      base ? el("span", { class: "search-base", text: base, title: base }) : null,
      el("span", { class: "range", text: count(view.total, "match", "matches") })));
  card.append(el("ul", { class: "search-paths search-counts" }, files.map((f) =>
    el("li", { class: "path", title: f.path, dataset: { path: f.path } },
      el("span", { class: "badge", text: String(f.count) }),
      el("span", { text: f.path.slice(base.length) })))));
  if (view.truncated) card.append(cappedFoot(`showing the counts of ${files.length} files`, "narrow the pattern, path or include to see the rest"));
  return card;
}

function pathsCard(view) {
  const paths = view.paths || [];
  const base = commonDir(paths);
  const card = el("div", { class: "card card-search", dataset: { card: "search", shape: "paths" } },
    el("div", { class: "card-head" },
      el("span", { class: "search-title", text: view.title || "Glob" }),
      base ? el("span", { class: "search-base", text: base, title: base }) : null,
      el("span", { class: "range", text: count(view.total, "file", "files") })));
  if (!paths.length) {
    card.append(el("div", { class: "card-note", text: "No files." }));
    return card;
  }
  card.append(el("ul", { class: "search-paths" }, paths.map((p) => el("li", { class: "path", text: p.slice(base.length), title: p }))));
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
  const row = el("div", { class: "line" });
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
